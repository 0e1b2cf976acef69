import CompassCore
import CompassStore

/// `schools`, `coaches`, `members`, `documents`: the lookups of SPEC §3.4, so nobody has to
/// dig ids out of the log. Human output is a table that fits the terminal; gaps of 21 and 30
/// days without contact are marked.
enum LookupCommands {
    static func run(_ inv: Invocation) throws {
        let context = try ReadContext(inv)
        switch inv.arguments.command {
        case "schools":
            let items = context.views.schools()
            if inv.json { return inv.console.out(bytes: LookupJSON.schools(items)) }
            context.show(schools(items, context: context))
        case "coaches":
            let items = context.views.coaches(school: inv.arguments.value("school"))
            if inv.json { return inv.console.out(bytes: LookupJSON.coaches(items)) }
            context.show(coaches(items, context: context))
        case "members":
            let items = context.views.members()
            if inv.json { return inv.console.out(bytes: LookupJSON.members(items)) }
            context.show(Table.render(header: ["NAME", "ROLE", "JOINED", "ID"], rows: items.map {
                [$0.fullName, $0.role == .player ? "athlete" : "parent", DateText.short($0.joinedAt, in: context.zone), $0.userId]
            }, style: context.style))
        default:  // documents
            let items = context.views.documents()
            if inv.json { return inv.console.out(bytes: LookupJSON.documents(items)) }
            guard !items.isEmpty else { return context.show(context.style.dim("No documents yet") + "\n") }
            context.show(Table.render(header: ["TITLE", "TYPE", "UPLOADED BY", "DATE", "ID"], rows: items.map {
                [$0.title, $0.docTypeName, $0.uploadedByName, DateText.short($0.uploadedAt, in: context.zone), $0.documentId]
            }, style: context.style))
        }
    }

    static func schools(_ items: [SchoolItem], context: ReadContext) -> String {
        let s = context.style
        guard !items.isEmpty else { return s.dim("No schools yet: compass add-school --name NAME") + "\n" }
        let rows = items.map { item -> [String] in
            let contact = item.lastContactAt.map { DateText.short($0, in: context.zone) + " (\(item.daysSinceContact ?? 0)d)" } ?? "never"
            let gap = switch item.contactGap {
            case .high?: "● 30d+ gap"
            case .medium?: "● 21d+ gap"
            case nil: ""
            }
            return [item.name, item.status.map(TextRules.humanize) ?? "—", String(item.interactionCount), contact, gap, item.schoolId]
        }
        // The gap is coloured once its cell is escaped, cut and padded: the colour is never text.
        let gapColumn = 4
        return Table.render(header: ["SCHOOL", "STATUS", "#", "LAST CONTACT", "GAP", "ID"], rows: rows, style: s) { row, column in
            guard column == gapColumn else { return nil }
            switch items[row].contactGap {
            case .high?: return s.red
            case .medium?: return s.yellow
            case nil: return nil
            }
        }
    }

    static func coaches(_ items: [CoachItem], context: ReadContext) -> String {
        let s = context.style
        guard !items.isEmpty else { return s.dim("No coaches yet: compass add-coach --school ID --first F --last L --role head") + "\n" }
        let rows = items.map { item -> [String] in
            let contact = item.lastContactAt.map { DateText.short($0, in: context.zone) + " (\(item.daysSinceContact ?? 0)d)" } ?? "never"
            return [item.name, item.roleName, item.schoolName, String(item.interactionCount), contact, item.coachId]
        }
        return Table.render(header: ["COACH", "ROLE", "SCHOOL", "#", "LAST CONTACT", "ID"], rows: rows, style: s)
    }
}

/// A plain table: a dim header, columns padded to their widest cell. When a row would not fit
/// the terminal, the widest columns (never the last, the id people copy) are cut with `…`,
/// keeping names readable; when even that does not fit, the id leaves the table for a line of
/// its own under each row (broken only if it is wider than the terminal itself). Into a file or
/// a pipe (no terminal, no `$COLUMNS`) every cell is written whole.
///
/// Cells are plain text: each is escaped (``TerminalText``), then cut and padded, and only then
/// coloured by `colour` (a row's and column's style, or nil), so a colour is never escaped
/// into text and never counts towards a column's width.
enum Table {
    static func render(header: [String], rows: [[String]], style: TextStyle,
                       colour: (_ row: Int, _ column: Int) -> ((String) -> String)? = { _, _ in nil }) -> String {
        // Into a file or a pipe nothing is cut: the table is as wide as its widest row.
        var style = style
        if !style.fitsWidth { style.width = .max / 4 }
        let escaped = rows.map { $0.map(TerminalText.escape) }
        let natural = header.indices.map { column in
            max(header[column].count, escaped.map { Cells.width($0[column]) }.max() ?? 0)
        }
        // Readable minimums: the first column (a name) 16 cells, the others 6.
        let floors = natural.indices.map { min(natural[$0], $0 == 0 ? 16 : 6) }
        let idFits = floors.dropLast().reduce(0, +) + natural.last! + 2 * (natural.count - 1) <= style.width
        guard !idFits, header.count > 1 else { return table(header, escaped, natural: natural, style: style, colour: colour) }
        // The ids on their own lines.
        let body = table(Array(header.dropLast()), escaped.map { Array($0.dropLast()) }, natural: Array(natural.dropLast()), style: style,
                         colour: colour)
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var out = lines.removeFirst() + "\n"
        for (index, row) in escaped.enumerated() where index < lines.count {
            out += lines[index] + "\n"
            for piece in TextStyle.hardWrap(row.last!, width: max(1, style.width - 2)) { out += "  " + style.dim(piece) + "\n" }
        }
        return out
    }

    private static func table(_ header: [String], _ escaped: [[String]], natural: [Int], style: TextStyle,
                              colour: (_ row: Int, _ column: Int) -> ((String) -> String)?) -> String {
        var widths = natural
        while widths.reduce(0, +) + 2 * (widths.count - 1) > style.width,
              let widest = widths.indices.dropLast().max(by: { widths[$0] < widths[$1] }), widths[widest] > 4 {
            widths[widest] -= 1
        }
        if widths.count == 1 { widths[0] = min(widths[0], style.width) }
        // Cells cut at their end; two different cells of a column that would read the same are
        // cut in their middle instead, so their ends still tell them apart.
        var shown = escaped.map { row in row.indices.map { column -> String in
            let cut = column < row.count - 1 || widths.count == 1 || Cells.width(row[column]) > style.width
            return cut && Cells.width(row[column]) > widths[column] ? TextStyle.truncate(row[column], to: widths[column]) : row[column]
        } }
        for column in widths.indices {
            var originals: [String: Set<String>] = [:]
            for (index, row) in shown.enumerated() where column < row.count { originals[row[column], default: []].insert(escaped[index][column]) }
            for index in shown.indices where column < shown[index].count && (originals[shown[index][column]]?.count ?? 0) > 1 {
                shown[index][column] = TextStyle.truncateMiddle(escaped[index][column], to: widths[column])
            }
        }
        func line(_ cells: [String], row: Int?) -> String {
            var parts: [String] = []
            for (column, cell) in cells.enumerated() {
                let text = row.map { shown[$0][column] }
                    ?? (column < cells.count - 1 && Cells.width(cell) > widths[column] ? TextStyle.truncate(cell, to: widths[column]) : cell)
                let pad = column == cells.count - 1 ? "" : String(repeating: " ", count: max(0, widths[column] - Cells.width(text)))
                let styled = row.flatMap { colour($0, column) }.map { $0(text) } ?? text
                parts.append(text.isEmpty ? pad : styled + pad)
            }
            var joined = parts.joined(separator: "  ")
            while joined.hasSuffix(" ") { joined.removeLast() }
            return (row == nil ? style.dim(joined) : joined) + "\n"
        }
        return line(header, row: nil) + escaped.enumerated().map { line($0.element, row: $0.offset) }.joined()
    }
}
