#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wakes a feed when the folder holding its log changes, instead of a fixed poll.
///
/// On Linux it is an inotify watch on the log's folder (an append, a rename over the log,
/// the log made or removed all wake it); elsewhere, or when the watch cannot be made (no
/// folder yet, the watch limit reached), ``wait(upTo:)`` sleeps the whole timeout, which is
/// the poll the feed did before. A wake-up is only a hint: the feed reads what the log holds
/// either way, so a missed or spurious one costs latency, never an event.
final class FileChangeWatcher {
    private let folder: String
    private var descriptor: Int32 = -1

    init(logPath: String) {
        let slash = logPath.lastIndex(of: "/")
        folder = slash.map { $0 == logPath.startIndex ? "/" : String(logPath[..<$0]) } ?? "."
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether changes wake ``wait(upTo:)`` (false: it sleeps the timeout).
    var isWatching: Bool {
        watchIfNeeded()
        return descriptor >= 0
    }

    /// Returns when the folder changed (and drains what woke it): true; or after `timeout`:
    /// false. A wait cut short by a signal counts as a change (reading again is harmless).
    @discardableResult
    func wait(upTo timeout: Duration) -> Bool {
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        watchIfNeeded()
        #if os(Linux)
        if descriptor >= 0 {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, max(0, milliseconds))
            if ready > 0 { drain() }
            return ready != 0
        }
        #endif
        usleep(useconds_t(max(0, milliseconds)) * 1000)
        return false
    }

    /// Makes the watch if it is not made yet (the folder may appear later).
    private func watchIfNeeded() {
        #if os(Linux)
        guard descriptor < 0 else { return }
        let made = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard made >= 0 else { return }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
        guard inotify_add_watch(made, folder, mask) >= 0 else {
            close(made)
            return
        }
        descriptor = made
        #endif
    }

    /// Reads every pending event (their content does not matter: the feed reads the log).
    private func drain() {
        #if os(Linux)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        #endif
    }
}
