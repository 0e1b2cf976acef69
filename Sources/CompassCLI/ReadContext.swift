import CompassCore
import CompassStore
import Foundation

/// What every read command starts from: the read models of the viewer's family (up to
/// `--as-of`/`--at-seq`), the clock and the time zone, as the store gives them to an app.
struct ReadContext {
    /// The views every read command shows: the same an app reads (``FamilyViews``).
    var views: FamilyViews
    var zone: TimeZone
    var style: TextStyle
    /// `as of …` when the view was built with `--as-of` or `--at-seq`, else nil.
    var asOf: String?
    private let console: Console

    /// The state the views read (for the names and ids a page shows).
    var state: CompassState { views.state }
    /// Who is looking.
    var viewer: Viewer { views.viewer }
    /// The time the views count from.
    var now: Timestamp { views.now }

    /// Reads the viewer's family through the store; a log with problems gets one warning line.
    ///
    /// - Parameter showsTexts: false for a view that shows no subject or content (counts):
    ///   the read then leaves them in the log, and reads none back from it.
    init(_ inv: Invocation, showsTexts: Bool = true) throws {
        let viewerId = try inv.viewer()
        zone = try inv.timeZone()
        let cut = try inv.cut()
        let (progress, meter) = inv.readProgress("reading")
        var options = CompassStore.ReadOptions(cut: cut, scope: .familyOf(viewerId), problems: .summary, progress: progress)
        options.readsNoTexts = !showsTexts
        let (views, replayer) = try inv.store().views(as: viewerId, options: options, now: try inv.now())
        meter?.finish()
        inv.console.keepUntilExit(replayer)
        self.views = views
        ProblemRendering.warn(replayer, family: views.viewer.family, log: inv.logPathForDisplay, console: inv.console)
        style = TextStyle(inv)
        console = inv.console
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
