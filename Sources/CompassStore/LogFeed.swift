import CompassCore

/// The events a log gains, poll by poll: a ``LogTail`` and a replayer whose observer
/// collects what each poll applies. After the log is replaced it reads the new file from
/// its start and hands on only events the old one did not have, so nothing is lost or
/// repeated.
package struct LogFeed {
    private var tail: LogTail
    private var replayer: Replayer
    private let sink = AppliedEvents()

    package init(path: String, fs: FileSystem) {
        tail = LogTail(path: path, fs: fs)
        replayer = Replayer(observer: sink.observe, problems: .summary)
    }

    /// The state after the last poll.
    package var state: CompassState { replayer.state }

    /// Whether the log has been opened (it exists).
    package var isOpen: Bool { tail.isOpen }

    /// The events applied since the last call, in log order.
    package mutating func next() throws(StoreError) -> [Event] {
        if try tail.poll(into: &replayer) == .replaced {
            let old = replayer.state.eventIds
            sink.events.removeAll()
            replayer = Replayer(observer: sink.observe, problems: .summary)
            _ = try tail.poll(into: &replayer)
            let fresh = sink.events.filter { !old.contains($0.id) }
            sink.events.removeAll()
            return fresh
        }
        defer { sink.events.removeAll() }
        return sink.events
    }
}

/// Collects the events a replayer applies.
final class AppliedEvents: @unchecked Sendable {
    var events: [Event] = []

    func observe(_ outcome: LineOutcome, _ state: CompassState) {
        if case .applied(_, let event) = outcome { events.append(event) }
    }
}
