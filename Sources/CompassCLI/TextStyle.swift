/// ANSI styling and the terminal width, and text laid out in terminal cells.
///
/// Colour: `--color always|never`, or `auto` (the default): on a terminal, unless `NO_COLOR` is
/// set to something (no-color.org) or `TERM=dumb`.
struct TextStyle {
    var colour: Bool
    var width: Int
    /// Whether the output goes to a terminal of that width (or `$COLUMNS` says it does): only
    /// then are tables cut to fit. Into a file or a pipe every cell is written whole.
    var fitsWidth: Bool

    init(colour: Bool, width: Int, fitsWidth: Bool = true) {
        self.colour = colour
        self.width = width
        self.fitsWidth = fitsWidth
    }

    init(_ inv: Invocation) {
        switch inv.arguments.value("color") {
        case "always": colour = true
        case "never": colour = false
        default:
            colour = inv.console.isTerminal && (inv.environment["NO_COLOR"] ?? "").isEmpty && inv.environment["TERM"] != "dumb"
        }
        width = Self.width(environment: inv.environment, console: inv.console)
        fitsWidth = inv.console.isTerminal || Int(inv.environment["COLUMNS"] ?? "").map { $0 >= 40 } == true
    }

    /// The output's width in cells: `$COLUMNS` within 40 … 500 (a huge value would make
    /// layouts allocate without end), else the terminal's, else 80.
    static func width(environment: [String: String], console: Console) -> Int {
        Int(environment["COLUMNS"] ?? "").flatMap { $0 >= 40 ? min($0, 500) : nil } ?? (console.isTerminal ? Terminal.width() : 80)
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func blue(_ text: String) -> String { wrap(text, "34") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func purple(_ text: String) -> String { wrap(text, "35") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }

    private func wrap(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Text cut to `limit` terminal cells with `…` (newlines shown as spaces).
    /// `text` broken into pieces of at most `width` cells, anywhere (for an id or a hash that
    /// is wider than the terminal: nothing of it may be lost).
    static func hardWrap(_ text: String, width: Int) -> [String] {
        var pieces: [String] = []
        var current = ""
        var cells = 0
        for character in text {
            let w = Cells.width(String(character))
            if cells + w > width, !current.isEmpty {
                pieces.append(current)
                current = ""
                cells = 0
            }
            current.append(character)
            cells += w
        }
        if !current.isEmpty || pieces.isEmpty { pieces.append(current) }
        return pieces
    }

    static func truncate(_ text: String, to limit: Int) -> String {
        let limit = max(limit, 1)
        let flat = String(text.map { $0.isNewline ? " " : $0 })
        return Cells.width(flat) <= limit ? flat : prefix(flat, cells: limit - 1) + "…"
    }

    /// `text` cut to `limit` cells in its middle (`Seattle Univ…Campus`): its start and its end
    /// kept, for names that share a long start.
    static func truncateMiddle(_ text: String, to limit: Int) -> String {
        let flat = String(text.map { $0.isNewline ? " " : $0 })
        guard Cells.width(flat) > limit, limit >= 5 else { return truncate(flat, to: limit) }
        let tailCells = (limit - 1) / 3
        var tail = "", used = 0
        for ch in flat.reversed() {
            let w = Cells.width(ch)
            if used + w > tailCells { break }
            tail.insert(ch, at: tail.startIndex)
            used += w
        }
        return prefix(flat, cells: limit - 1 - used) + "…" + tail
    }

    /// The longest start of `text` that fits in `cells`.
    ///
    /// - Complexity: O(cells): the text after the cut is never visited.
    static func prefix(_ text: String, cells: Int) -> String {
        var kept = ""
        var used = 0
        for ch in text {
            let w = Cells.width(ch)
            if used + w > cells { break }
            kept.append(ch)
            used += w
        }
        return kept
    }

    /// Text wrapped at word boundaries to `width` cells, at most `lines` lines, the last
    /// ending in `…` if cut. Blank lines are dropped so a preview shows text, not gaps.
    static func clamp(_ text: String, width: Int, lines: Int) -> [String] {
        let all = wrap(text, width: width).filter { !$0.isEmpty }
        guard all.count > lines, lines > 0 else { return all }
        var kept = Array(all.prefix(lines))
        kept[lines - 1] = prefix(kept[lines - 1], cells: max(0, width - 1)) + "…"
        return kept
    }

    /// Text wrapped at word boundaries to `width` cells: the text's own line breaks are kept,
    /// a word longer than a line is broken (after a `|`, `,` or `/` when one fits), no line
    /// ends in a space.
    static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(width, 1)
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var cells = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var word = String(word)
                var w = Cells.width(word)
                if cells > 0, cells + 1 + w <= width {
                    line += " " + word
                    cells += 1 + w
                    continue
                }
                if cells > 0 { out.append(line); line = ""; cells = 0 }
                while w > width {  // a word longer than a line: break it
                    var head = "", headCells = 0
                    while let ch = word.first, headCells + Cells.width(ch) <= width { head.append(word.removeFirst()); headCells += Cells.width(ch) }
                    if head.isEmpty { head.append(word.removeFirst()) }
                    // A list (`a|b|c`) breaks after a separator rather than inside a value.
                    if !word.isEmpty, let cut = head.lastIndex(where: { "|,/".contains($0) }) {
                        let after = head.index(after: cut)
                        if after != head.endIndex {
                            word = String(head[after...]) + word
                            head = String(head[..<after])
                        }
                    }
                    out.append(head)
                    w = Cells.width(word)
                }
                line = word
                cells = w
            }
            out.append(line)
        }
        return out
    }
}

extension String {
    /// The text padded with spaces to at least `width` terminal cells.
    func padding(_ width: Int) -> String {
        let cells = Cells.width(self)
        return cells >= width ? self : self + String(repeating: " ", count: width - cells)
    }
}

/// How many terminal cells text takes: East Asian wide and fullwidth characters and emoji
/// take two, combining marks and zero-width characters none, everything else one.
enum Cells {
    static func width(_ text: String) -> Int { text.reduce(0) { $0 + width($1) } }

    static func width(_ ch: Character) -> Int {
        let scalars = ch.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }  // ASCII fast path
        // An emoji drawn as emoji: by default, or asked for with the variation selector U+FE0F.
        if first.properties.isEmojiPresentation || (first.properties.isEmoji && scalars.contains("\u{FE0F}")) { return 2 }
        var cells = 0
        for scalar in scalars { cells += width(scalar) }
        return min(cells, 2)
    }

    static func width(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        let v = scalar.value
        if v == 0x200B || (0xFE00...0xFE0F).contains(v) || (0xE0100...0xE01EF).contains(v) { return 0 }
        return isWide(v) ? 2 : 1
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges (Unicode 15, the blocks that matter).
    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
