import CompassCore

/// Which families the log's new lines are in, read after read: what observations need to
/// know when to read their values again (from the store's own state, not from this).
package protocol FamilyChangeSignal {
    /// The families of the lines committed since the last call; nil when any family may have
    /// changed (an erasure rewrote lines already read).
    mutating func changedFamilies() throws(StoreError) -> Set<String>?
    /// Blocks until the log may have changed (true) or `timeout` passes (false).
    func wait(upTo timeout: Duration) -> Bool
}

/// A change feed read as a change signal: the families of the events it delivers.
struct EventFamilies: FamilyChangeSignal {
    var feed: any ChangeSource

    mutating func changedFamilies() throws(StoreError) -> Set<String>? {
        Set(try feed.next().map(\.family))
    }

    func wait(upTo timeout: Duration) -> Bool { feed.wait(upTo: timeout) }
}

extension LogBackend {
    /// The log's change signal, from its change feed (a backend may have a cheaper one).
    func feedChangeSignal() throws(StoreError) -> any FamilyChangeSignal {
        EventFamilies(feed: try changes(scope: .summary, after: nil))
    }
}
