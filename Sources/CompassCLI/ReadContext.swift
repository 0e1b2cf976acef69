import CompassCore
import CompassStore
import Foundation

/// What every read command starts from: the replayed log (up to `--as-of`/`--at-seq`),
/// the viewer, the clock and the time zone.
struct ReadContext {
    var state: CompassState
    var viewer: Viewer
    var now: Timestamp
    var zone: TimeZone
    var style: TextStyle
    /// `as of …` when the view was built with `--as-of` or `--at-seq`, else nil.
    var asOf: String?
    private let console: Console

    /// Replays the log and resolves the viewer; a log with problems gets one warning line.
    init(_ inv: Invocation) throws {
        let viewerId = try inv.viewer()
        now = try inv.now()
        zone = try inv.timeZone()
        let replayer = try LogReader.replay(path: try inv.existingLog(), fs: inv.fileSystem, cut: try inv.cut(),
                                            snapshots: inv.snapshots, scope: .familyOf(viewerId), problems: .summary)
        inv.console.keepUntilExit(replayer)
        state = replayer.state
        do { viewer = try Viewer(viewerId, in: state) } catch { throw CLIError.domain(error.message) }
        ProblemRendering.warn(replayer, family: viewer.family, log: inv.logPathForDisplay, console: inv.console)
        style = TextStyle(inv)
        console = inv.console
        let cut = try inv.cut()
        if let time = cut.asOf {
            asOf = "as of \(DateText.long(time, in: zone))" + (cut.atSeq.map { ", seq ≤ \($0)" } ?? "")
        } else if let seq = cut.atSeq {
            asOf = "as of seq \(seq)"
        }
    }

    /// Writes a human page, under an `as of …` line when the view travelled in time.
    func show(_ page: String) {
        if let asOf { console.out(style.dim(asOf) + "\n") }
        console.out(page)
    }
}

/// ANSI styling and the terminal width: colour only on a terminal with `NO_COLOR` unset.
struct TextStyle {
    var colour: Bool
    var width: Int

    init(colour: Bool, width: Int) {
        self.colour = colour
        self.width = width
    }

    init(_ inv: Invocation) {
        colour = inv.console.isTerminal && inv.environment["NO_COLOR"] == nil
        // $COLUMNS within 40 … 500 (a huge value would make layouts allocate without end).
        width = Int(inv.environment["COLUMNS"] ?? "").flatMap { $0 >= 40 ? min($0, 500) : nil }
            ?? (inv.console.isTerminal ? Terminal.width() : 80)
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

    /// Text cut to `limit` characters with `…`.
    ///
    /// - Complexity: O(limit): the text after the cut is never visited.
    static func truncate(_ text: String, to limit: Int) -> String {
        var kept = ""
        var count = 0
        for ch in text {
            if count == max(limit, 1) {  // a character more than fits: cut
                return String(kept.prefix(max(1, limit - 1))) + "…"
            }
            kept.append(ch.isNewline ? " " : ch)
            count += 1
        }
        return count > limit ? kept + "…" : kept
    }

    /// Text wrapped to `width` columns, at most `lines` lines, the last ending in `…` if cut.
    /// Blank lines are dropped so a preview shows text, not gaps.
    static func clamp(_ text: String, width: Int, lines: Int) -> [String] {
        var out: [String] = []
        var current = ""
        var currentCount = 0
        for ch in text {
            if ch.isNewline {
                if !current.isEmpty { out.append(current) }
                current = ""
                currentCount = 0
            } else {
                current.append(ch)
                currentCount += 1
                if currentCount >= width {
                    out.append(current)
                    current = ""
                    currentCount = 0
                }
            }
            if out.count > lines { break }
        }
        if !current.isEmpty { out.append(current) }
        guard out.count > lines else { return out }
        var kept = Array(out.prefix(lines))
        kept[lines - 1] = String(kept[lines - 1].prefix(max(1, width - 1))) + "…"
        return kept
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Terminal {
    /// The width of the terminal on stdout, or 80.
    static func width() -> Int {
        var size = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        if ioctl(1, request, &size) == 0, size.ws_col >= 40 { return min(Int(size.ws_col), 500) }
        return 80
    }
}
