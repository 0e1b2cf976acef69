import CompassCore
import Foundation

extension CompassStore {
    /// How long a feed waits for a wake-up before it reads the log anyway: 1 s where changes
    /// wake it (inotify on Linux, kqueue on Darwin, a PostgreSQL store's `NOTIFY`), 100 ms
    /// where a file feed can only poll.
    #if os(Linux) || canImport(Darwin)
    public static let feedInterval: Duration = .seconds(1)
    #else
    public static let feedInterval: Duration = .milliseconds(100)
    #endif
}

/// Runs a feed on a thread of its own: reading the log and waiting for it to change block,
/// and must never block a thread of Swift's cooperative pool.
enum FeedThread {
    /// Reads `source` until the stream's consumer stops, yielding what `transform` makes of
    /// each read's events; between reads it waits for a change, at most `interval`.
    static func run<Element: Sendable>(_ source: any ChangeSource, every interval: Duration,
                                       continuation: AsyncStream<Element>.Continuation,
                                       transform: @escaping @Sendable (any ChangeSource, [Event]) -> [Element]) {
        let stop = start(source, every: interval, name: "compass feed", finish: { continuation.finish() }) { feed in
            if let events = try? feed.next() {
                for element in transform(feed, events) { continuation.yield(element) }
            }
            return true
        }
        continuation.onTermination = { _ in stop.set() }
    }

    /// Starts the thread: `read` is called at once, then after each wake-up (or `interval`
    /// without one), until it returns false (it ended the stream itself) or the returned flag
    /// is set (then `finish` is called).
    static func start(_ source: any ChangeSource, every interval: Duration, name: String,
                      finish: @escaping @Sendable () -> Void,
                      read: @escaping @Sendable (inout any ChangeSource) -> Bool) -> StopFlag {
        let handed = HandedOver(source)
        let stop = StopFlag()
        // A stop is noticed within 200 ms even when nothing wakes the feed.
        let step = min(interval, .milliseconds(200))
        let thread = Thread {
            var feed = handed.take()
            var due = true
            var waited: Duration = .zero
            while !stop.isSet {
                if due {
                    guard read(&feed) else { return }
                    due = false
                    waited = .zero
                }
                let started = ContinuousClock.now
                let woken = feed.wait(upTo: step)
                waited += ContinuousClock.now - started
                // Woken by a change, or waited long enough. (Not inferred from a wait shorter
                // than the step: a thread scheduled late after a wake-up took the whole step.)
                if woken || waited >= interval { due = true }
            }
            finish()
        }
        thread.name = name
        thread.start()
        return stop
    }
}

/// A flag one thread sets and another reads.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}
