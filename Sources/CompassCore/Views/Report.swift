import Foundation

/// The printable report (SPEC §3.6): one self-contained HTML5 document for a viewer, with the
/// visibility and filters of the interactions list. Inline CSS and SVG only — no script, no
/// stylesheet, font or image from elsewhere — every text HTML-escaped, print styles that make
/// a clean PDF (a page break before each section, nothing clipped). The same state, query,
/// `now` and zone give the same bytes.
public enum ReportView {
    /// The report as HTML.
    ///
    /// - Throws: the list's errors (an invalid query, an athlete filtering by logger).
    public static func html(_ state: CompassState, viewer: Viewer, query: InteractionQuery, now: Timestamp,
                            zone: TimeZone) throws(EventError) -> String {
        let list = try InteractionViews.list(state, viewer: viewer, query: query, now: now)
        var h = HTML()
        h.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        h.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        h.raw("<title>")
        h.text("Recruiting report — \(viewer.name)")
        h.raw("</title>\n<style>\n\(style)</style>\n</head>\n<body>\n")

        // Title, viewer and filters.
        h.raw("<header>\n<h1>Recruiting report</h1>\n<p class=\"who\">")
        h.text("\(viewer.name) · \(viewer.role == .player ? "athlete" : "parent") · as of \(DateText.long(now, in: zone))")
        h.raw("</p>\n<p class=\"filters\">")
        h.text("Filters: " + filters(query, state: state, viewer: viewer))
        h.raw("</p>\n")
        if list.privacyNotice { h.raw("<p class=\"notice\">"); h.text(InteractionViews.privacyNotice); h.raw("</p>\n") }
        h.raw("</header>\n")

        // The four analytics cards.
        h.raw("<section class=\"analytics\">\n<h2>Analytics</h2>\n<div class=\"cards\">\n")
        let a = list.analytics
        for (label, value) in [("Total", a.total), ("Outbound", a.outbound), ("Inbound", a.inbound), ("This Week", a.thisWeek)] {
            h.raw("<div class=\"stat\"><div class=\"value\">\(value)</div><div class=\"label\">\(label)</div></div>\n")
        }
        h.raw("</div>\n</section>\n")

        // The last 12 weeks.
        h.raw("<section class=\"weeks\">\n<h2>Last 12 weeks</h2>\n")
        h.raw(chart(weeks(list.items, now: now, zone: zone)))
        h.raw("</section>\n")

        // Counts by type and by sentiment.
        h.raw("<section class=\"counts\">\n<h2>By type and sentiment</h2>\n<div class=\"twocol\">\n<table>\n<thead><tr><th>Type</th><th>Count</th></tr></thead>\n<tbody>\n")
        for type in InteractionType.allCases {
            let count = list.items.count { $0.type == type }
            if count > 0 { h.raw("<tr><td>\(type.icon) \(type.displayName)</td><td>\(count)</td></tr>\n") }
        }
        h.raw("</tbody>\n</table>\n<table>\n<thead><tr><th>Sentiment</th><th>Count</th></tr></thead>\n<tbody>\n")
        for sentiment in Sentiment.allCases {
            let count = list.items.count { $0.sentiment == sentiment }
            if count > 0 { h.raw("<tr><td>\(sentiment.displayName)</td><td>\(count)</td></tr>\n") }
        }
        let none = list.items.count { $0.sentiment == nil }
        if none > 0 { h.raw("<tr><td>Not rated</td><td>\(none)</td></tr>\n") }
        h.raw("</tbody>\n</table>\n</div>\n</section>\n")

        // Schools with status and last contact.
        h.raw("<section class=\"schools\">\n<h2>Schools</h2>\n<table>\n<thead><tr><th>School</th><th>Status</th><th>Interactions</th><th>Last contact</th></tr></thead>\n<tbody>\n")
        for school in LookupViews.schools(state, viewer: viewer, now: now) {
            h.raw("<tr><td>")
            h.text(school.name)
            h.raw("</td><td>")
            h.text(school.status.map(TextRules.humanize) ?? "—")
            h.raw("</td><td>\(school.interactionCount)</td><td>")
            if let last = school.lastContactAt {
                h.text("\(DateText.short(last, in: zone)) (\(school.daysSinceContact ?? 0) days ago)")
                if let gap = school.contactGap { h.raw(" <span class=\"gap \(gap.rawValue)\">\(gap == .high ? "30+" : "21+") days</span>") }
            } else {
                h.raw("never")
            }
            h.raw("</td></tr>\n")
        }
        h.raw("</tbody>\n</table>\n</section>\n")

        // The interactions, as the seed's cards.
        h.raw("<section class=\"interactions\">\n<h2>Interactions (\(list.items.count))</h2>\n")
        if list.items.isEmpty { h.raw("<p class=\"empty\">No interactions match.</p>\n") }
        for item in list.items {
            h.raw("<article class=\"card\">\n<p class=\"badges\">")
            h.text("\(item.type.icon) \(item.type.displayName) · \(item.direction.displayName)")
            if let sentiment = item.sentiment { h.text(" · \(sentiment.displayName)") }
            if let level = item.interestLevel { h.text(" · Interest: \(level.rawValue.uppercased())") }
            h.raw("</p>\n<h3>")
            h.text(item.displaySubject)
            h.raw("</h3>\n")
            let place = [item.schoolName, item.coachName ?? item.otherCoachName].compactMap { $0 }
            if !place.isEmpty { h.raw("<p class=\"place\">"); h.text(place.joined(separator: " • ")); h.raw("</p>\n") }
            if let content = item.content { h.raw("<p class=\"content\">"); h.text(content); h.raw("</p>\n") }
            h.raw("<p class=\"date\">")
            h.text(DateText.long(item.occurredAt, in: zone) + (viewer.role == .parent ? " · logged by \(item.loggedByName)" : "")
                   + (item.attachmentCount > 0 ? " · 📎 \(item.attachmentCount) file\(item.attachmentCount == 1 ? "" : "s")" : ""))
            h.raw("</p>\n</article>\n")
        }
        h.raw("</section>\n")

        // The 50 latest activity items.
        h.raw("<section class=\"activity\">\n<h2>Latest activity</h2>\n<ul>\n")
        for item in ActivityViews.items(state, viewer: viewer, now: now, zone: zone).prefix(50) {
            h.raw("<li><span class=\"when\">")
            h.text(DateText.short(item.timestamp, in: zone))
            h.raw("</span> ")
            h.text("\(item.icon) \(item.title)")
            if !item.description.isEmpty { h.raw(" <span class=\"desc\">"); h.text(item.description); h.raw("</span>") }
            h.raw("</li>\n")
        }
        h.raw("</ul>\n</section>\n</body>\n</html>\n")
        return h.out
    }

    /// The filters in words, names resolved in the viewer's family only.
    static func filters(_ q: InteractionQuery, state: CompassState, viewer: Viewer) -> String {
        var parts: [String] = []
        if let search = q.search, !search.isEmpty { parts.append("search \"\(search)\"") }
        if let type = q.type { parts.append(type.displayName) }
        if let direction = q.direction { parts.append(direction.displayName) }
        if let sentiment = q.sentiment { parts.append(sentiment.displayName) }
        if let days = q.periodDays { parts.append("last \(days) days") }
        if let by = q.loggedBy {
            let name = by == "me" ? "me" : state.members[by].flatMap { $0.family == viewer.family ? $0.fullName : nil } ?? by
            parts.append("logged by \(name)")
        }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// One Monday-based week in the zone: its first day and the counts.
    struct Week: Equatable {
        var start: Timestamp
        var outbound = 0
        var inbound = 0
    }

    /// The 12 weeks ending with the current one (Monday-based, in `zone`), with outbound and
    /// inbound counts of the items by display date.
    static func weeks(_ items: [InteractionItem], now: Timestamp, zone: TimeZone) -> [Week] {
        let day: Int64 = 86_400_000
        func localDay(_ t: Timestamp) -> Int64 {
            let offset = Int64(zone.secondsFromGMT(for: t.date)) * 1000
            return CivilTime.floorDivide(t.millisecondsSinceEpoch + offset, day).0
        }
        let today = localDay(now)
        let daysSinceMonday = (CivilTime.floorDivide(today + 3, 7).1)  // 1970-01-01 was a Thursday
        let firstMonday = today - daysSinceMonday - 11 * 7
        var weeks = (0..<12).map { index in
            let startDay = firstMonday + Int64(index) * 7
            let utc = Timestamp(millisecondsSinceEpoch: startDay * day)
            let offset = Int64(zone.secondsFromGMT(for: utc.date)) * 1000
            return Week(start: Timestamp(millisecondsSinceEpoch: startDay * day - offset))
        }
        for item in items {
            let index = CivilTime.floorDivide(localDay(item.occurredAt) - firstMonday, 7).0
            guard (0..<12).contains(index) else { continue }
            if item.direction == .outbound { weeks[Int(index)].outbound += 1 } else { weeks[Int(index)].inbound += 1 }
        }
        return weeks
    }

    /// A bar chart in inline SVG: two bars a week, a week's Monday under each pair.
    static func chart(_ weeks: [Week]) -> String {
        let width = 720, height = 220, top = 16, bottom = 36, left = 32
        let plot = height - top - bottom
        let top1 = max(1, weeks.map { max($0.outbound, $0.inbound) }.max() ?? 1)
        let slot = (width - left) / weeks.count
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"Outbound and inbound interactions per week\">\n"
        svg += "<line x1=\"\(left)\" y1=\"\(top + plot)\" x2=\"\(width)\" y2=\"\(top + plot)\" stroke=\"#999\"/>\n"
        svg += "<text x=\"\(left - 6)\" y=\"\(top + 8)\" text-anchor=\"end\" font-size=\"11\">\(top1)</text>\n"
        svg += "<text x=\"\(left - 6)\" y=\"\(top + plot)\" text-anchor=\"end\" font-size=\"11\">0</text>\n"
        for (index, week) in weeks.enumerated() {
            let x = left + index * slot + 6
            let barWidth = (slot - 16) / 2
            for (offset, count, colour) in [(0, week.outbound, "#2563eb"), (barWidth + 2, week.inbound, "#16a34a")] {
                let barHeight = count * plot / top1
                svg += "<rect x=\"\(x + offset)\" y=\"\(top + plot - barHeight)\" width=\"\(barWidth)\" height=\"\(barHeight)\" fill=\"\(colour)\"><title>\(count)</title></rect>\n"
            }
            let label = DateText.short(week.start, in: TimeZone(secondsFromGMT: 0)!)
            svg += "<text x=\"\(x + barWidth)\" y=\"\(height - bottom + 16)\" text-anchor=\"middle\" font-size=\"11\">\(label)</text>\n"
        }
        svg += "</svg>\n<p class=\"legend\"><span class=\"key out\"></span> Outbound <span class=\"key in\"></span> Inbound</p>\n"
        return svg
    }

    static let style = """
    :root { color-scheme: light; }
    body { font-family: -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, "Noto Sans CJK JP", "Noto Sans CJK SC", "Noto Sans JP", "Hiragino Sans", "Yu Gothic", "Microsoft YaHei", "WenQuanYi Zen Hei", "Noto Color Emoji", sans-serif; color: #1f2937; margin: 2rem auto; max-width: 56rem; padding: 0 1rem; line-height: 1.45; }
    h1 { font-size: 1.8rem; margin: 0 0 .25rem; }
    h2 { font-size: 1.2rem; border-bottom: 2px solid #e5e7eb; padding-bottom: .25rem; margin-top: 2rem; }
    h3 { font-size: 1rem; margin: .25rem 0; overflow-wrap: anywhere; }
    .who { font-weight: 600; margin: 0; } .filters, .date, .legend, .when { color: #6b7280; font-size: .9rem; }
    .notice { background: #eff6ff; color: #1e40af; padding: .5rem .75rem; border-radius: .5rem; }
    .cards { display: flex; gap: 1rem; flex-wrap: wrap; }
    .stat { flex: 1 1 8rem; border: 1px solid #e5e7eb; border-radius: .75rem; padding: .75rem 1rem; }
    .stat .value { font-size: 1.8rem; font-weight: 700; } .stat .label { color: #6b7280; }
    .chart { width: 100%; height: auto; }
    .key { display: inline-block; width: .8rem; height: .8rem; border-radius: .15rem; vertical-align: middle; }
    .key.out { background: #2563eb; } .key.in { background: #16a34a; margin-left: 1rem; }
    .twocol { display: flex; gap: 2rem; flex-wrap: wrap; align-items: flex-start; } .twocol table { flex: 1 1 16rem; }
    table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #f3f4f6; vertical-align: top; overflow-wrap: anywhere; }
    th { color: #6b7280; font-weight: 600; font-size: .85rem; overflow-wrap: normal; white-space: nowrap; }
    .gap { font-size: .8rem; padding: .05rem .4rem; border-radius: 1rem; } .gap.high { background: #fee2e2; color: #991b1b; } .gap.medium { background: #fef3c7; color: #92400e; }
    .card { border: 1px solid #e5e7eb; border-radius: .75rem; padding: .75rem 1rem; margin: .75rem 0; }
    .badges { font-size: .85rem; color: #374151; margin: 0; } .place { margin: .2rem 0; color: #374151; }
    .content { white-space: pre-wrap; overflow-wrap: anywhere; margin: .4rem 0; }
    .activity ul { list-style: none; padding: 0; } .activity li { padding: .25rem 0; border-bottom: 1px solid #f3f4f6; overflow-wrap: anywhere; }
    .desc { color: #4b5563; white-space: normal; display: block; max-height: 2.9em; overflow: hidden; }
    @page { margin: 16mm; }
    @media print {
      body { margin: 0; max-width: none; font-size: 10.5pt; }
      h2 { break-after: avoid; margin-top: 1.2rem; }
      thead { display: table-header-group; }
      section.analytics, section.weeks, section.counts { break-inside: avoid; }
      .cards { flex-wrap: nowrap; } .stat { flex: 1 1 0; min-width: 0; padding: .5rem .75rem; }
      .card, tr, li, .stat, .chart { break-inside: avoid; }
      .card { margin: .5rem 0; padding: .5rem .75rem; }
    }

    """
}

/// HTML text with escaping: `raw` for markup this file writes, `text` for every value.
struct HTML {
    var out = ""

    mutating func raw(_ markup: String) { out += markup }

    mutating func text(_ value: String) {
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Control characters (but line breaks and tabs) are not text in HTML: U+FFFD.
                if (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (scalar.value >= 0x7F && scalar.value <= 0x9F) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }
}
