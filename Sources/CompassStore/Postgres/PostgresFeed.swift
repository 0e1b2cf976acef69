import CompassCore

/// A PostgreSQL store's change feed: what is there when it is made is read, not delivered;
/// then every event committed after, in the store's order, without a gap. It reads on its own
/// connection, which `LISTEN`s for appends.
struct PostgresFeed: ChangeSource {
    private var cursor: PostgresCursor
    private var replayer = Replayer(problems: .summary)
    private let sink = AppliedEvents()
    private let after: (family: String, seq: Int64)?

    init(backend: PostgresLogBackend, after: (family: String, seq: Int64)?) throws(StoreError) {
        cursor = PostgresCursor(backend: backend)
        self.after = after
        if after == nil { _ = try cursor.poll(into: &replayer) }
        replayer.observe(with: sink.observe)
    }

    var state: CompassState { replayer.state }
    var isOpen: Bool { true }

    mutating func next() throws(StoreError) -> [Event] {
        defer { sink.events.removeAll() }
        if try cursor.poll(into: &replayer) == .replaced {
            let old = replayer.state.eventIds
            sink.events.removeAll()
            replayer = Replayer(observer: sink.observe, problems: .summary)
            _ = try cursor.poll(into: &replayer)
            return sink.events.filter { !old.contains($0.id) && isAfter($0) }
        }
        return sink.events.filter(isAfter)
    }

    /// Woken by an append's or an erasure's `NOTIFY` on this feed's own connection, else after
    /// `timeout` (a transaction that is not an append can hold the horizon back; its end
    /// notifies nothing).
    func wait(upTo timeout: Duration) { cursor.backend.waitForNotification(upTo: timeout) }

    private func isAfter(_ event: Event) -> Bool { after.map { event.family == $0.family && event.seq > $0.seq } ?? true }
}
