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
    ///
    /// - Parameter showsTexts: false for a view that shows no subject or content (counts):
    ///   the replay then leaves them in the log, and reads none back from it.
    init(_ inv: Invocation, showsTexts: Bool = true) throws {
        let viewerId = try inv.viewer()
        now = try inv.now()
        zone = try inv.timeZone()
        let (progress, meter) = inv.readProgress("reading")
        var options = CompassStore.ReadOptions(cut: try inv.cut(), scope: .familyOf(viewerId), problems: .summary, progress: progress)
        options.readsNoTexts = !showsTexts
        let replayer = try inv.store().replay(options)
        meter?.finish()
        inv.console.keepUntilExit(replayer)
        state = replayer.state
        let cut = try inv.cut()
        do {
            viewer = try Self.viewer(viewerId, in: state, cut: cut, inv)
        } catch let error as EventError { throw CLIError.domain(error.message) }
        ProblemRendering.warn(replayer, family: viewer.family, log: inv.logPathForDisplay, console: inv.console)
        style = TextStyle(inv)
        console = inv.console
        if let time = cut.asOf {
            asOf = "as of \(DateText.long(time, in: zone))" + (cut.atSeq.map { ", seq ≤ \($0)" } ?? "")
        } else if let seq = cut.atSeq {
            asOf = "as of seq \(seq)"
        }
    }

    /// The viewer as a member of the state viewed; when the view travelled in time to before
    /// they joined (`--at-seq 0` is every family before its first line), as the member they
    /// are now: their family as it was then, seen with their role.
    private static func viewer(_ userId: String, in state: CompassState, cut: ReplayCut, _ inv: Invocation) throws -> Viewer {
        do {
            return try Viewer(userId, in: state)
        } catch where cut != ReplayCut() {
            let now = try inv.store().replay(CompassStore.ReadOptions(scope: .familyOf(userId), problems: .summary))
            inv.console.keepUntilExit(now)
            guard let member = now.state.members[userId] else { throw error }
            return Viewer(userId: userId, role: member.role, name: member.fullName, family: member.family)
        }
    }

    /// Writes a human page, under an `as of …` line when the view travelled in time.
    func show(_ page: String) {
        if let asOf { console.out(style.dim(asOf) + "\n") }
        console.out(page)
    }
}

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
