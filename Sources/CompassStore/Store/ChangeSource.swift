import CompassCore

/// The events a log gains, poll by poll (``LogBackend/changes(scope:after:)``).
package protocol ChangeSource {
    /// The state after the last poll.
    var state: CompassState { get }
    /// Whether the log exists (has been opened).
    var isOpen: Bool { get }
    /// The events committed since the last call, in log order.
    mutating func next() throws(StoreError) -> [Event]
    /// Blocks until the log may have changed (a file notification, a `NOTIFY`) or `timeout`
    /// passes: true when woken by a change. A hint only: ``next()`` reads what is committed
    /// either way. (Told, not guessed from the time it took: a thread scheduled late after a
    /// wake-up took the whole timeout, and the change waited for the feed's interval.)
    @discardableResult
    func wait(upTo timeout: Duration) -> Bool
}
