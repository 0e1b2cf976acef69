import CompassCore
import Foundation

/// A value read from the store and the version of the viewer's family it reflects.
public struct Observed<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// The viewer's family's version (the `seq` of its last line) the value was read at.
    public var version: Int64
}

extension Observed: Equatable where Value: Equatable {}

extension CompassStore {
    /// Observes a value of `viewer`'s family, as GRDB's `ValueObservation` does: the current
    /// value at once, then a new one after every change to the log that alters it (an append,
    /// a deletion, an erasure, by this process or another), each with the family version it
    /// reflects. Equal values in a row are delivered once.
    ///
    /// ```swift
    /// for try await observed in store.observe(as: "u-maya", { try $0.interactions(as: "u-maya") }) {
    ///     show(observed.value.items, version: observed.version)
    /// }
    /// ```
    ///
    /// Runs on a thread of its own (a feed: woken by the log's changes, reading at least every
    /// `interval`). The stream fails with the error `value` throws: at once for a viewer who
    /// is not a member (`Unknown user`), or later if the viewer is erased. It ends when the
    /// consumer stops iterating.
    public func observe<Value: Equatable & Sendable>(as viewer: String, every interval: Duration? = nil,
                                                      _ value: @escaping @Sendable (CompassStore) throws -> Value)
        -> AsyncThrowingStream<Observed<Value>, any Error> {
        // The feed is made first: a change after this is read again, so none falls between
        // the first value and the feed.
        let made = Result { () throws(StoreError) in try backend.changes(scope: .familyOf(viewer), after: nil) }
        return AsyncThrowingStream { continuation in
            let source: any ChangeSource
            switch made {
            case .failure(let error): return continuation.finish(throwing: error)
            case .success(let feed): source = feed
            }
            // Changes of other families read nothing; an erasure's record is the family's.
            let progress = ObservationProgress<Value>()
            let stop = FeedThread.start(source, every: interval ?? configuration.feedInterval, name: "compass observation", finish: { continuation.finish() }) {
                [self] feed in
                do {
                    let events = try feed.next()
                    guard progress.last == nil || events.contains(where: { $0.family == progress.family }) else { return true }
                    if progress.family == nil { progress.family = try state(for: viewer).members[viewer]?.family }
                    let observed = try read(viewer: viewer, value)
                    if observed != progress.last {
                        continuation.yield(observed)
                        progress.last = observed
                    }
                    return true
                } catch {
                    continuation.finish(throwing: error)
                    return false
                }
            }
            continuation.onTermination = { _ in stop.set() }
        }
    }

    /// The value and the version it was read at: read between two equal versions (another
    /// writer's append in between makes it read again).
    private func read<Value: Sendable>(viewer: String, _ value: (CompassStore) throws -> Value) throws -> Observed<Value> {
        var before = try version(as: viewer)
        while true {
            let current = try value(self)
            let after = try version(as: viewer)
            if after == before { return Observed(value: current, version: after) }
            before = after
        }
    }
}

/// What an observation's thread has delivered (used by that thread alone).
private final class ObservationProgress<Value: Sendable>: @unchecked Sendable {
    var last: Observed<Value>?
    var family: String?
}
