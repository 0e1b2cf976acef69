import CompassCore

/// The tool's door into the store: whole-log reads with every option the commands need,
/// `verify` with its problem stream, a batch import and the feed `follow` polls. The
/// command-line layer reaches the log only through these (and the public API); the reader,
/// writer, feed and verifier behind them are the store's own.
extension CompassStore {
    /// How one whole read of the committed log runs.
    package struct ReadOptions {
        /// Where the read stops (`--as-of`, `--at-seq`).
        package var cut = ReplayCut()
        /// How much of the state the caller reads (a query: its viewer's family).
        package var scope: ReplayScope = .everything
        /// Where problems go, or how many are kept.
        package var problems: ProblemRetention = .all
        /// Called as the read goes (a terminal's progress meter).
        package var progress: ReadProgress?
        /// Called with every line's outcome (then the whole log is read, no snapshot).
        package var observer: ((LineOutcome, CompassState) -> Void)?

        package init(cut: ReplayCut = ReplayCut(), scope: ReplayScope = .everything, problems: ProblemRetention = .all,
                     progress: ReadProgress? = nil, observer: ((LineOutcome, CompassState) -> Void)? = nil) {
            self.cut = cut
            self.scope = scope
            self.problems = problems
            self.progress = progress
            self.observer = observer
        }
    }

    /// Replays the committed log once, from its snapshot when the store keeps them and the
    /// options allow; a log that does not exist reads as empty.
    package func replay(_ options: ReadOptions = ReadOptions()) throws(StoreError) -> Replayer {
        try backend.replay(options)
    }

    /// `verify`, every problem handed to `problems` as it is found.
    package func verify(expectHead: String?, problems: (@Sendable (Problem) -> Void)?,
                        progress: ReadProgress?) throws(StoreError) -> VerifyReport {
        try backend.verify(expectHead: expectHead, problems: problems, progress: progress)
    }

    /// Appends a batch of drafts read from a file (`import`): each with its line number, every
    /// rejected one reported, all or nothing. `beforeWrite` stores what the events point at.
    package func importBatch(expectVersion: Int64?, lineNumbers: [Int], prebuilt: [Result<Payload, EventError>],
                             beforeWrite: @escaping BeforeWriting, keepUntilExit: @escaping (Any) -> Void, progress: ReadProgress?,
                             build: DraftBuilder) throws(StoreError) -> [Event] {
        lock.lock()
        defer { lock.unlock() }
        var request = AppendRequest(expectVersion: expectVersion)
        request.lineNumbers = lineNumbers
        request.prebuilt = prebuilt
        request.beforeWrite = beforeWrite
        request.keepUntilExit = keepUntilExit
        request.progress = progress
        let outcome = try backend.append(request, build: build)
        guard case .written(let events) = outcome else { return [] }
        return events
    }

    /// A feed of the events the log gains from now on, polled by its owner (`follow`); its
    /// state holds `viewer`'s family from the start.
    package func feed(for viewer: String) throws(StoreError) -> ChangeFeed {
        ChangeFeed(try backend.changes(scope: .familyOf(viewer), after: nil))
    }
}

/// The events a log gains, poll by poll, and the state they build: `follow`'s view of the
/// store's feed (an app uses ``CompassStore/changes(every:)``).
package struct ChangeFeed {
    private var feed: any ChangeSource

    init(_ feed: any ChangeSource) { self.feed = feed }

    /// The state after the last poll.
    package var state: CompassState { feed.state }

    /// Whether the log exists (has been opened).
    package var isOpen: Bool { feed.isOpen }

    /// The events committed since the last call, in log order.
    package mutating func next() throws(StoreError) -> [Event] { try feed.next() }
}
