import CompassCore
import CompassStore

/// `compass activity`: the timeline of SPEC §3.3, a page at a time.
enum ActivityCommand {
    static func query(_ inv: Invocation) throws -> ActivityQuery {
        var query = ActivityQuery()
        query.type = try inv.choice("type", in: ActivityType.allCases.map(\.rawValue)).flatMap(ActivityType.init)
        query.range = try inv.choice("range", in: ActivityRange.allCases.map(\.rawValue)).flatMap(ActivityRange.init) ?? .all
        query.search = inv.arguments.value("search")
        if let page = inv.arguments.value("page") { query.page = Int(try inv.integer(page, option: "--page", minimum: 1)) }
        if let size = inv.arguments.value("page-size") { query.pageSize = Int(try inv.integer(size, option: "--page-size", minimum: 1)) }
        return query
    }

    static func run(_ inv: Invocation) throws {
        let query = try query(inv)
        let context = try ReadContext(inv)
        let page = try context.views.activity(query, zone: context.zone)
        if inv.json {
            // `--limit` keeps the page's first N items; the totals stay the page's.
            var shown = page
            if let limit = try inv.limit() { shown.items = Array(page.items.prefix(limit)) }
            inv.console.out(bytes: ActivityJSON.page(shown))
        } else {
            var shown = page
            if let limit = try inv.limit() { shown.items = Array(page.items.prefix(limit)) }
            context.show(ActivityRendering.page(shown, query: query, style: context.style))
        }
    }
}

/// The timeline for a person at a terminal (seed 002 §6).
enum ActivityRendering {
    static func page(_ page: ActivityPage, query: ActivityQuery, style s: TextStyle) -> String {
        var out = s.bold("Recent Activity") + "\n"
        var filters: [String] = []
        if let type = query.type { filters.append("type: \(type.rawValue)") }
        if query.range != .all { filters.append("range: \(query.range.rawValue)") }
        if let search = query.search, !search.isEmpty { filters.append("search: \"\(TerminalText.escape(search))\"") }
        if !filters.isEmpty { out += s.dim("Filters: " + filters.joined(separator: ", ")) + "\n" }
        guard !page.items.isEmpty else {
            out += "\n" + s.bold("No activities found") + "\n"
                + TextStyle.wrap("Try adjusting your filters or search query", width: s.width).map { s.dim($0) + "\n" }.joined()
            if page.totalCount > 0 { out += s.dim("(page \(page.page) is past the last page, \(page.totalPages))") + "\n" }
            return out
        }
        out += "\n"
        for item in page.items { out += row(item, style: s) }
        out += "\nPage \(page.page) of \(page.totalPages) · \(page.totalCount) item\(page.totalCount == 1 ? "" : "s")\n"
        var hints: [String] = []
        if page.page > 1 { hints.append("previous: --page \(page.page - 1)") }
        if page.page < page.totalPages { hints.append("next: --page \(page.page + 1)") }
        if !hints.isEmpty { out += s.dim(hints.joined(separator: " · ")) + "\n" }
        return out
    }

    /// One item: icon and title with the relative time at the right, the description on up
    /// to two lines, and `›` with the target for clickable items.
    /// The command that opens an item (not the web route): an interaction's detail, a
    /// school's history.
    static func target(_ item: ActivityItem) -> String? {
        guard item.isClickable, let id = item.entityId else { return nil }
        switch item.type {
        case .interaction: return "compass show " + String(item.id.dropFirst("interaction-".count))
        case .schoolStatusChange: return "compass audit --entity " + id
        case .documentUpload: return nil
        }
    }

    /// The title in `room` cells; a status change keeps its new status whole and cuts the
    /// school's name instead (`Arizona St… → Offer received`).
    static func fitted(_ item: ActivityItem, room: Int) -> String {
        let arrow = " → "
        guard item.type == .schoolStatusChange, Cells.width(item.title) > room, let split = item.title.range(of: arrow) else {
            return TextStyle.truncate(item.title, to: room)
        }
        let status = String(item.title[split.lowerBound...])
        let left = room - Cells.width(status)
        guard left >= 4 else { return TextStyle.truncate(item.title, to: room) }
        return TextStyle.truncate(String(item.title[..<split.lowerBound]), to: left) + status
    }

    static func row(_ item: ActivityItem, style s: TextStyle) -> String {
        let item = item.forTerminal
        let width = s.width
        let time = item.relativeTime
        // The icon takes two cells and two spaces follow it; the time sits at the right edge.
        let titleRoom = max(10, width - 4 - Cells.width(time) - 2)
        let title = fitted(item, room: titleRoom)
        let gap = max(2, width - 4 - Cells.width(title) - Cells.width(time))
        var out = item.icon + "  " + s.bold(title) + String(repeating: " ", count: gap) + s.dim(time) + "\n"
        if !item.description.isEmpty {
            for line in TextStyle.clamp(item.description, width: width - 4, lines: 2) { out += "    " + line + "\n" }
        }
        if let target = target(item) {
            // A command to copy stands whole on its own line (never cut or broken inside a
            // token): where it is wider than the terminal, the terminal wraps it.
            out += Cells.width("    › " + target) <= width ? "    " + s.blue("› " + target) + "\n" : s.blue("› " + target) + "\n"
        }
        return out
    }
}
