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
        AsyncThrowingStream { continuation in
            let progress = ObservationProgress<Value>()
            // Reads the value and yields it when it is new; false once the stream has ended.
            // Reads are one at a time, and a value never replaces a newer one.
            let deliver: @Sendable () -> Bool = { [self] in
                // The stream is finished outside the lock: its termination handler takes it.
                let failure: (any Error)? = progress.lock.withLock {
                    guard !progress.ended else { return CancellationError() }
                    do {
                        if progress.family == nil { progress.family = try state(for: viewer).members[viewer]?.family }
                        let observed = try read(viewer: viewer, value)
                        if observed != progress.last, observed.version >= progress.last?.version ?? .min {
                            continuation.yield(observed)
                            progress.last = observed
                        }
                        return nil
                    } catch {
                        progress.ended = true
                        return error
                    }
                }
                guard let failure else { return true }
                if !(failure is CancellationError) { continuation.finish(throwing: failure) }
                return false
            }
            // Subscribed first: a change after this is read again, so none falls between the
            // first value and the feed. Changes of other families read nothing; an erasure's
            // record is the family's.
            let subscribed = Result { () throws(StoreError) -> Int in
                try observations.subscribe(every: interval ?? configuration.feedInterval,
                                           makeSignal: { () throws(StoreError) in try backend.changeSignal() }) { changed in
                    switch changed {
                    case .failure(let error):
                        let wasRunning = progress.lock.withLock {
                            defer { progress.ended = true }
                            return !progress.ended
                        }
                        if wasRunning { continuation.finish(throwing: error) }
                        return false
                    case .success(let families):
                        let family = progress.lock.withLock { progress.family }
                        guard let family, let families else { return deliver() }  // not known yet, or any family
                        return families.contains(family) ? deliver() : true
                    }
                }
            }
            switch subscribed {
            case .failure(let error):
                continuation.finish(throwing: error)
            case .success(let id):
                // The first value at once, on a thread of its own (never the caller's task).
                Thread.detachNewThread { _ = deliver() }
                continuation.onTermination = { [self] _ in
                    progress.lock.withLock { progress.ended = true }
                    observations.unsubscribe(id)
                }
            }
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

/// What an observation has delivered, guarded by its lock (its reads come from the shared
/// feed's thread and from the thread that reads its first value).
private final class ObservationProgress<Value: Sendable>: @unchecked Sendable {
    let lock = NSLock()
    var last: Observed<Value>?
    var family: String?
    var ended = false
}
