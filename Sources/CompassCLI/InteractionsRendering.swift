import Foundation
import CompassCore
import CompassStore

/// The interactions pages for a person at a terminal (seed 000 §6, seed 001 §6).
enum InteractionsRendering {
    static func page(_ list: InteractionList, query: InteractionQuery, context: ReadContext) -> String {
        let s = context.style
        var out = s.bold(list.viewer.role == .player ? "My Interactions" : "Interactions") + "\n"
        if list.privacyNotice { out += s.blue("ℹ️  " + InteractionViews.privacyNotice) + "\n" }
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
                out += "\n" + s.bold("No interactions yet") + "\n" + s.dim("Start logging your recruiting communications") + "\n"
                if list.viewer.role == .player {
                    out += s.dim("Log your first: compass log-interaction --type email --direction outbound --school ID") + "\n"
                }
            }
            return out
        }
        out += "\n\(list.items.count) interaction\(list.items.count == 1 ? "" : "s") found\n"
        for item in list.items { out += "\n" + card(item, viewer: list.viewer, context: context) }
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

    static func badges(_ item: InteractionItem, viewer: Viewer, style s: TextStyle) -> String {
        var badges = [item.type.icon + " " + s.bold(item.type.displayName)]
        badges.append(item.direction == .outbound ? s.blue(item.direction.displayName) : s.green(item.direction.displayName))
        if let sentiment = item.sentiment {
            let text = sentiment.displayName
            switch sentiment {
            case .veryPositive: badges.append(s.green(text))
            case .positive: badges.append(s.blue(text))
            case .neutral: badges.append(s.dim(text))
            case .negative: badges.append(s.red(text))
            }
        }
        if let level = item.interestLevel { badges.append(s.yellow("Interest: " + level.rawValue.uppercased())) }
        if viewer.role == .parent {
            badges.append(item.loggedByName == "You" ? s.blue("[You]") : s.purple("[\(item.loggedByName)]"))
        }
        return badges.joined(separator: " · ")
    }

    static func card(_ item: InteractionItem, viewer: Viewer, context: ReadContext) -> String {
        let item = item.forTerminal
        let s = context.style
        let inner = max(20, context.style.width - 4)
        var out = "  " + badges(item, viewer: viewer, style: s) + s.dim("  \(item.id)") + "\n"
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

    static func detail(_ d: InteractionDetail, context: ReadContext, store: AttachmentStore) -> String {
        let d = d.forTerminal
        let s = context.style
        let item = d.item
        var out = s.bold(item.displaySubject) + "\n"
        out += badges(item, viewer: context.viewer, style: s) + "\n\n"
        if let content = item.content { out += TextStyle.wrap(content, width: s.width).joined(separator: "\n") + "\n\n" }
        let rows: [(String, String)] = [
            ("School", item.schoolName ?? "—"),
            ("Coach", item.coachName ?? item.otherCoachName ?? "—"),
            ("Event", d.eventId ?? "—"),
            ("Logged By", item.loggedByName),
            ("Date", DateText.long(item.occurredAt, in: context.zone)),
        ]
        for (label, value) in rows { out += s.dim(label.padding(11)) + value + "\n" }
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
        else { out += s.dim("Read-only: only the athlete who logged it can change or export it") + "\n" }
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
