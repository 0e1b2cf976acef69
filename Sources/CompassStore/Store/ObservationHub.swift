import CompassCore
import Foundation

/// One change feed per store, shared by every observation of it: one thread, one read of
/// the log's changes (a PostgreSQL store's one `LISTEN` connection), however many screens
/// observe. Each observation is told which families changed and reads its value from the
/// store's own state; the feed stops when the last observation ends.
final class ObservationHub: @unchecked Sendable {
    /// Told the families a read of the feed found changed; false when it is done.
    typealias Subscriber = @Sendable (Result<Set<String>, StoreError>) -> Bool

    private let lock = NSLock()
    private var subscribers: [Int: Subscriber] = [:]
    private var nextId = 0
    private var stop: StopFlag?
    /// Feeds made so far, and observations now subscribed (tests hold the sharing to them).
    private(set) var feedsMade = 0
    var subscriberCount: Int { lock.withLock { subscribers.count } }

    /// Adds a subscriber; the feed starts with the first (made by `makeFeed`, read at least
    /// every `interval`). Returns its id, or the error the feed could not be made with.
    func subscribe(every interval: Duration, makeFeed: () throws(StoreError) -> any ChangeSource,
                   _ subscriber: @escaping Subscriber) throws(StoreError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if stop == nil {
            let feed = try makeFeed()
            feedsMade += 1
            stop = FeedThread.start(feed, every: interval, name: "compass observations", finish: {}) { [self] feed in
                let changed = Result { () throws(StoreError) -> Set<String> in Set(try feed.next().map(\.family)) }
                return notify(changed)
            }
        }
        nextId += 1
        subscribers[nextId] = subscriber
        return nextId
    }

    /// Removes a subscriber; the feed stops with the last.
    func unsubscribe(_ id: Int) {
        lock.lock()
        defer { lock.unlock() }
        subscribers[id] = nil
        if subscribers.isEmpty {
            stop?.set()
            stop = nil
        }
    }

    /// Tells every subscriber what a read found; false (the feed ends) when none is left.
    private func notify(_ changed: Result<Set<String>, StoreError>) -> Bool {
        let current = lock.withLock { subscribers }
        var done: [Int] = []
        for (id, subscriber) in current where !subscriber(changed) { done.append(id) }
        return lock.withLock {
            for id in done { subscribers[id] = nil }
            if case .failure = changed { subscribers = [:] }  // each was told, and has ended
            if subscribers.isEmpty {
                stop = nil
                return false
            }
            return true
        }
    }
}
