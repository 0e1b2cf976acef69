import Dispatch

/// Progress of long work on stderr, only when stderr is a terminal: what is done and how fast,
/// at most ten updates a second, nothing for work that ends within a moment, erased at the end.
final class ProgressMeter {
    private let console: Console
    private let label: String
    private let now: () -> Double
    private let start: Double
    private var lastShown: Double
    private var shown = false

    /// - Parameter now: seconds on a monotonic clock (tests pass their own).
    init(_ label: String, console: Console, now: @escaping () -> Double = ProgressMeter.monotonic) {
        self.console = console
        self.label = label
        self.now = now
        start = now()
        lastShown = start
    }

    static func monotonic() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// A meter for the invocation's stderr, or nil when stderr is not a terminal.
    static func forTerminal(_ label: String, _ inv: Invocation) -> ProgressMeter? {
        inv.console.errorIsTerminal ? ProgressMeter(label, console: inv.console) : nil
    }

    /// Bytes of a log read so far (of `total`) and events folded.
    func bytes(_ done: Int, of total: Int, events: Int) {
        show { elapsed in
            "\(megabytes(done))/\(megabytes(total)) MB · \(grouped(Int(Double(events) / elapsed))) events/s"
        }
    }

    /// Events done so far (of `total`, when known).
    func events(_ done: Int, of total: Int?) {
        show { elapsed in
            "\(grouped(done))\(total.map { "/" + grouped($0) } ?? "") events · \(grouped(Int(Double(done) / elapsed))) events/s"
        }
    }

    private func show(_ text: (Double) -> String) {
        let t = now()
        guard t - start >= 0.3, t - lastShown >= 0.1 else { return }
        lastShown = t
        shown = true
        console.err("\r\u{1B}[K\(label): \(text(max(t - start, 0.001)))")
    }

    /// Erases the line, if anything was shown.
    func finish() {
        if shown { console.err("\r\u{1B}[K") }
        shown = false
    }

    private func megabytes(_ bytes: Int) -> String {
        let tenths = bytes * 10 / 1_048_576
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
