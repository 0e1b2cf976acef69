import CompassCore

/// A PostgreSQL store's change feed: what is there when it is made is read, not delivered;
/// then every event committed after, in the store's order, without a gap. It reads on its own
/// connection, which `LISTEN`s for appends. A viewer's feed reads the viewer's family alone,
/// and after an erasure anywhere reads that family again, not the store.
struct PostgresFeed: ChangeSource {
    private var cursor: PostgresCursor
    private var replayer = Replayer(problems: .summary)
    private var delivery: FeedDelivery

    /// - Parameter families: the families it reads (nil: every family).
    init(backend: PostgresLogBackend, after: (family: String, seq: Int64)?, families: Set<String>? = nil) throws(StoreError) {
        cursor = PostgresCursor(backend: backend, families: families)
        delivery = FeedDelivery(after: after)
        if after == nil { _ = try cursor.poll(into: &replayer) }
        replayer.observe(with: delivery.sink.observe)
    }

    var state: CompassState { replayer.state }
    var isOpen: Bool { true }

    mutating func next() throws(StoreError) -> [Event] {
        // A poll that fails leaves what it folded in the delivery, for the next call.
        if try cursor.poll(into: &replayer) == .replaced {
            delivery.replaced(having: replayer.state.eventIds)
            replayer = Replayer(observer: delivery.sink.observe, problems: .summary)
            _ = try cursor.poll(into: &replayer)
        }
        return delivery.deliver(in: replayer.state.eventIds)
    }

    /// Woken by an append's or an erasure's `NOTIFY` on this feed's own connection, else after
    /// `timeout` (a standby hears no `NOTIFY`; a lost notification is found by the next look).
    @discardableResult
    func wait(upTo timeout: Duration) -> Bool { cursor.backend.waitForNotification(upTo: timeout) }
}
