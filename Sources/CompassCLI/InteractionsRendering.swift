import Foundation
import CompassCore
import CompassStore

/// The interactions pages for a person at a terminal (seed 000 §6, seed 001 §6).
enum InteractionsRendering {
    /// The list page; with `limit`, the first `limit` cards only (the count and the analytics
    /// stay the whole filtered list's: `N interactions found (showing L)`).
    static func page(_ list: InteractionList, query: InteractionQuery, context: ReadContext, limit: Int? = nil) -> String {
        let s = context.style
        var out = s.bold(list.viewer.role == .player ? "My Interactions" : "Interactions") + "\n"
        if list.privacyNotice {
            let notice = "ℹ️  " + InteractionViews.privacyNotice
            let lines = Cells.width(notice) <= s.width ? [notice] : TextStyle.wrap(notice, width: s.width)
            out += lines.map { s.blue($0) + "\n" }.joined()
        }
        out += "\n" + analytics(list.analytics, style: s)
        // A name is shown only for a member of the viewer's own family; any other id as typed.
        let chips = filterChips(query, names: { id in
            context.state.members[id].flatMap { $0.family == context.viewer.family ? $0.fullName : nil } ?? id
        }).map { InteractionsRendering.Chip(label: TerminalText.escape($0.label), option: $0.option) }
        if !chips.isEmpty {
            out += "\nFilters: " + chips.map { s.blue("[\($0.label) ×]") }.joined(separator: " ") + "\n"
            out += s.dim("  clear one by dropping its option (" + chips.map(\.option).joined(separator: ", ") + "); clear all by dropping them all") + "\n"
        }
        if list.items.isEmpty {
            if query.isFiltering {
                out += "\n" + s.bold("No interactions match your filters") + "\n" + s.dim("Try adjusting your search or filters") + "\n"
            } else {
                out += "\n" + s.bold("No interactions yet") + "\n"
                    + TextStyle.wrap("Start logging your recruiting communications", width: s.width).map { s.dim($0) + "\n" }.joined()
                if list.viewer.role == .player {
                    out += TextStyle.wrap("Log your first: compass log-interaction --type email --direction outbound --school ID",
                                          width: s.width).map { s.dim($0) + "\n" }.joined()
                }
            }
            return out
        }
        let shown = limit.map { list.items.prefix($0) } ?? list.items[...]
        out += "\n\(list.items.count) interaction\(list.items.count == 1 ? "" : "s") found"
            + (shown.count < list.items.count ? " (showing \(shown.count))" : "") + "\n"
        for item in shown { out += "\n" + card(item, viewer: list.viewer, context: context) }
        return out
    }

    /// The four cards: side by side from 50 columns, one a line below that.
    static func analytics(_ a: InteractionAnalytics, style s: TextStyle) -> String {
        let cards = [("Total", a.total), ("Outbound", a.outbound), ("Inbound", a.inbound), ("This Week", a.thisWeek)]
        guard s.width >= 50 else {
            return cards.map { "  " + s.dim($0.0.padding(11)) + s.bold(String($0.1)) + "\n" }.joined()
        }
        let labels = cards.enumerated().map { $0.offset == cards.count - 1 ? $0.element.0 : $0.element.0.padding(12) }.joined()
        let values = cards.enumerated().map { $0.offset == cards.count - 1 ? String($0.element.1) : String($0.element.1).padding(12) }.joined()
        return "  " + s.dim(labels) + "\n  " + s.bold(values) + "\n"
    }

    struct Chip {
        var label: String
        var option: String
    }

    static func filterChips(_ q: InteractionQuery, names: (String) -> String) -> [Chip] {
        var chips: [Chip] = []
        if let search = q.search, !search.isEmpty { chips.append(Chip(label: "Search: \"\(search)\"", option: "--search")) }
        if let type = q.type { chips.append(Chip(label: "Type: \(type.displayName)", option: "--type")) }
        if let direction = q.direction { chips.append(Chip(label: "Direction: \(direction.displayName)", option: "--direction")) }
        if let sentiment = q.sentiment { chips.append(Chip(label: "Sentiment: \(sentiment.displayName)", option: "--sentiment")) }
        if let days = q.periodDays { chips.append(Chip(label: "Last \(days) days", option: "--period")) }
        if let by = q.loggedBy { chips.append(Chip(label: "Logged by: \(by == "me" ? "Me" : names(by))", option: "--logged-by")) }
        return chips
    }

    /// The badges of an item, laid out in lines of at most `width` cells (`·` between them;
    /// a badge wider than a line, a long name, is cut with `…`), then `trailer` (the id) on the
    /// last line when it fits there, else on a line of its own.
    static func badges(_ item: InteractionItem, viewer: Viewer, style s: TextStyle, width: Int, trailer: String = "") -> [String] {
        typealias Paint = (String) -> String
        let bold: Paint = { s.bold($0) }, blue: Paint = { s.blue($0) }, green: Paint = { s.green($0) }
        var badges: [(text: String, paint: Paint)] = [(item.type.icon + " " + item.type.displayName, bold)]
        badges.append((text: item.direction.displayName, paint: item.direction == .outbound ? blue : green))
        if let sentiment = item.sentiment {
            let paint: Paint = switch sentiment {
            case .veryPositive: green
            case .positive: blue
            case .neutral: { s.dim($0) }
            case .negative: { s.red($0) }
            }
            badges.append((text: sentiment.displayName, paint: paint))
        }
        if let level = item.interestLevel { badges.append((text: "Interest: " + level.rawValue.uppercased(), paint: { s.yellow($0) })) }
        if viewer.role == .parent {
            let name = item.loggedByName
            badges.append((text: "[" + TextStyle.truncate(name, to: max(1, width - 2)) + "]", paint: name == "You" ? blue : { s.purple($0) }))
        }
        var lines: [String] = []
        var current = "", cells = 0
        for (text, paint) in badges {
            let text = Cells.width(text) > width ? TextStyle.truncate(text, to: width) : text
            let w = Cells.width(text)
            if cells > 0, cells + 3 + w > width {
                lines.append(current)
                current = ""
                cells = 0
            }
            if cells > 0 {
                current += " · "
                cells += 3
            }
            current += paint(text)
            cells += w
        }
        if !trailer.isEmpty {
            if cells + 2 + Cells.width(trailer) <= width {
                current += s.dim("  " + trailer)
            } else {
                lines.append(current)
                current = s.dim(trailer)
            }
        }
        lines.append(current)
        return lines
    }

    static func card(_ item: InteractionItem, viewer: Viewer, context: ReadContext) -> String {
        let item = item.forTerminal
        let s = context.style
        let inner = max(20, context.style.width - 4)
        var out = badges(item, viewer: viewer, style: s, width: inner, trailer: item.id).map { "  " + $0 + "\n" }.joined()
        out += "  " + s.bold(TextStyle.truncate(item.displaySubject, to: inner)) + "\n"
        let place = [item.schoolName, item.coachName ?? item.otherCoachName].compactMap { $0 }
        if !place.isEmpty { out += "  " + TextStyle.truncate(place.joined(separator: " • "), to: inner) + "\n" }
        if let content = item.content {
            for line in TextStyle.clamp(content, width: inner, lines: 2) { out += "  " + s.dim(line) + "\n" }
        }
        var footer = "📅 " + DateText.long(item.occurredAt, in: context.zone)
        if item.attachmentCount > 0 { footer += "  📎 \(item.attachmentCount) file\(item.attachmentCount == 1 ? "" : "s")" }
        out += "  " + footer + "\n"
        return out
    }

    static func detail(_ d: InteractionDetail, context: ReadContext) -> String {
        let d = d.forTerminal
        let s = context.style
        let item = d.item
        var out = TextStyle.wrap(item.displaySubject, width: s.width).map { s.bold($0) + "\n" }.joined()
        out += badges(item, viewer: context.viewer, style: s, width: s.width).map { $0 + "\n" }.joined() + "\n"
        if let content = item.content { out += TextStyle.wrap(content, width: s.width).joined(separator: "\n") + "\n\n" }
        let rows: [(String, String)] = [
            ("School", item.schoolName ?? "—"),
            ("Coach", item.coachName ?? item.otherCoachName ?? "—"),
            ("Event", d.eventId ?? "—"),
            ("Logged By", item.loggedByName),
            ("Date", DateText.long(item.occurredAt, in: context.zone)),
        ]
        // Values wrap under themselves, past the label column.
        for (label, value) in rows {
            let lines = TextStyle.wrap(value, width: max(10, s.width - 11))
            out += s.dim(label.padding(11)) + lines[0] + "\n"
            for line in lines.dropFirst() { out += String(repeating: " ", count: 11) + line + "\n" }
        }
        if !d.attachments.isEmpty {
            out += "\n" + s.bold("Attachments (\(d.attachments.count))") + "\n"
            for attachment in d.attachments {
                out += "  📎 \(attachment.name)  \(byteCount(attachment.sizeBytes))  \(attachment.mimeType)\n"
                if attachment.sha256 != nil {
                    out += "     " + s.blue("› compass attachment get \(item.id) \(shellQuoted(attachment.name))") + "\n"
                }
            }
        }
        out += "\n" + s.dim("Created " + DateText.long(item.createdAt, in: context.zone)) + "\n"
        if d.canExport { out += s.dim("Export: compass show \(item.id) --csv") + "\n" }
        else {
            out += TextStyle.wrap("Read-only: only the athlete who logged it can change or export it", width: s.width)
                .map { s.dim($0) + "\n" }.joined()
        }
        return out
    }

    /// A word as a shell reads it: quoted when it holds anything but safe characters.
    static func shellQuoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isLetter || $0.isNumber || "-_.,+@%/".contains($0) }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static func byteCount(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return "\((bytes * 10 / 1024 + 5) / 10) KB" }
        return "\(bytes * 10 / (1024 * 1024) / 10).\(bytes * 10 / (1024 * 1024) % 10) MB"
    }
}
