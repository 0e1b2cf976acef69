import CompassCore
import Foundation

/// One change signal per store, shared by every observation of it: one thread, one read of
/// which families changed (a PostgreSQL store's one `LISTEN` connection), however many
/// screens observe. Each observation reads its value from the store's own state when its
/// family changed; the thread stops when the last observation ends.
final class ObservationHub: @unchecked Sendable {
    /// Told the families a read of the signal found changed (nil: any family may have);
    /// false when it is done.
    typealias Subscriber = @Sendable (Result<Set<String>?, StoreError>) -> Bool

    private let lock = NSLock()
    private var subscribers: [Int: Subscriber] = [:]
    private var nextId = 0
    private var stop: StopFlag?
    /// Signals made so far, and observations now subscribed (tests hold the sharing to them).
    private(set) var feedsMade = 0
    var subscriberCount: Int { lock.withLock { subscribers.count } }

    /// Adds a subscriber; the signal's thread starts with the first (the signal made by
    /// `makeSignal`, read after each wake-up and at least every `interval`). Returns its id,
    /// or the error the signal could not be made with.
    func subscribe(every interval: Duration, makeSignal: () throws(StoreError) -> any FamilyChangeSignal,
                   _ subscriber: @escaping Subscriber) throws(StoreError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if stop == nil {
            let signal = HandedOver(try makeSignal())
            feedsMade += 1
            let flag = StopFlag()
            stop = flag
            let thread = Thread { [self] in
                var signal = signal.take()
                // A stop is noticed within 200 ms even when nothing wakes the signal.
                let step = min(interval, .milliseconds(200))
                // The last observation ended: what the observations held is freed; hand it back.
                defer { returnFreedMemory() }
                while !flag.isSet {
                    let changed = Result { () throws(StoreError) -> Set<String>? in try signal.changedFamilies() }
                    guard notify(changed, stoppedBy: flag) else { return }
                    var waited: Duration = .zero
                    while !flag.isSet, waited < interval {
                        let started = ContinuousClock.now
                        if signal.wait(upTo: step) { break }
                        waited += ContinuousClock.now - started
                    }
                }
            }
            thread.name = "compass observations"
            thread.start()
        }
        nextId += 1
        subscribers[nextId] = subscriber
        return nextId
    }

    /// Removes a subscriber; the thread stops with the last.
    func unsubscribe(_ id: Int) {
        lock.lock()
        defer { lock.unlock() }
        subscribers[id] = nil
        if subscribers.isEmpty {
            stop?.set()
            stop = nil
        }
    }

    /// Tells every subscriber what a read found; false (the thread ends) when none is left.
    private func notify(_ changed: Result<Set<String>?, StoreError>, stoppedBy flag: StopFlag) -> Bool {
        let current = lock.withLock { subscribers }
        var done: [Int] = []
        for (id, subscriber) in current where !subscriber(changed) { done.append(id) }
        return lock.withLock {
            for id in done { subscribers[id] = nil }
            if case .failure = changed { subscribers = [:] }  // each was told, and has ended
            guard subscribers.isEmpty else { return true }
            if stop === flag { stop = nil }
            return false
        }
    }
}
