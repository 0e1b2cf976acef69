import CompassCore

/// The events a log gains, poll by poll: a ``LogTail`` and a replayer whose observer
/// collects what each poll applies. After the log is replaced it reads the new file from
/// its start and hands on only events the old one did not have, so nothing is lost or
/// repeated.
struct LogFeed: ChangeSource {
    private var tail: LogTail
    private var replayer: Replayer
    private var delivery: FeedDelivery
    private let watcher: FileChangeWatcher

    /// Where the feed starts: what the log held when it was made is read but not delivered.
    private var anchored: Int?
    /// What the first read of the log keeps of its state (a viewer's family for a feed of
    /// activity items; every other family is read as its lines come).
    private let scope: ReplayScope

    /// A feed of what the log gains from now on: the log's committed lines are measured here,
    /// at once, so every event committed after this returns is delivered, even one appended
    /// before the feed's first (slower) read of what was already there. That read starts from
    /// the snapshot when one matches (and never writes one).
    package init(path: String, fs: FileSystem, scope: ReplayScope = .summary) throws(StoreError) {
        tail = LogTail(path: path, fs: fs)
        watcher = FileChangeWatcher(logPath: path)
        _ = watcher.isWatching  // watching before the log is measured: no change falls between
        delivery = FeedDelivery(after: nil)
        replayer = Replayer(observer: delivery.sink.observe, problems: .summary)
        self.scope = scope
        anchored = try tail.anchor()
    }

    /// A feed of every event of `family` after its `seq`, already in the log or appended
    /// later: an app that kept the last `seq` it saw resumes without a gap or a duplicate.
    package init(path: String, fs: FileSystem, family: String, after seq: Int64) {
        tail = LogTail(path: path, fs: fs)
        watcher = FileChangeWatcher(logPath: path)
        _ = watcher.isWatching
        delivery = FeedDelivery(after: (family, seq))
        replayer = Replayer(observer: delivery.sink.observe, problems: .summary)
        scope = .summary
    }

    /// The state after the last poll.
    package var state: CompassState { replayer.state }

    /// Whether the log has been opened (it exists).
    package var isOpen: Bool { tail.isOpen }

    /// The events applied since the last call, in log order. A call that fails hands on
    /// nothing; what it folded before failing comes with the next call.
    package mutating func next() throws(StoreError) -> [Event] {
        if let end = anchored {
            // What was there when the feed was made is not a change: read without the sink.
            if var first = try tail.firstRead(upTo: end, snapshots: .readOnly, scope: scope) {
                first.observe(with: delivery.sink.observe)
                replayer = first
            }
            anchored = nil
        }
        // A poll that fails leaves what it folded in the delivery, for the next call.
        if try tail.poll(into: &replayer) == .replaced {
            replayer.loadEverything()  // every id the old log had, those a snapshot held back too
            delivery.replaced(having: replayer.state.eventIds)
            replayer = Replayer(observer: delivery.sink.observe, problems: .summary)
            _ = try tail.poll(into: &replayer)
        }
        return delivery.deliver(in: replayer.state.eventIds)
    }

    /// Woken by a change in the log's folder (inotify): true; else after `timeout`.
    @discardableResult
    package func wait(upTo timeout: Duration) -> Bool { watcher.wait(upTo: timeout) }
}

/// A value made on one task and handed whole to another, which alone uses it from then on
/// (a feed measured when a stream is asked for, read by the stream's task).
final class HandedOver<Value>: @unchecked Sendable {
    private var value: Value?

    init(_ value: Value) { self.value = value }

    /// The value, once.
    func take() -> Value {
        defer { value = nil }
        return value!
    }
}
