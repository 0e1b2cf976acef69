/// Wakes a feed when its log or the folder holding it changes, instead of a fixed poll.
///
/// On Linux it is an inotify watch on the log's folder (an append, a rename over the log,
/// the log made or removed all wake it). On Darwin (an iPhone, a Mac) it is a kqueue with
/// `EVFILT_VNODE` on the folder (the log made, removed or renamed over) and on the log
/// itself (an append); the log is watched again after it was replaced. That path is compiled
/// only on Darwin and tested only where a Mac runs the tests. Elsewhere, or when the watch
/// cannot be made (no folder yet, the watch limit reached), ``wait(upTo:)`` sleeps the whole
/// timeout, which is the poll the feed did before. A wake-up is only a hint: the feed reads
/// what the log holds either way, so a missed or spurious one costs latency, never an event.
final class FileChangeWatcher {
    private let folder: String
    private let logPath: String
    private var descriptor: Int32 = -1
    #if canImport(Darwin)
    /// The folder and the log, opened for events only (`O_EVTONLY`).
    private var folderDescriptor: Int32 = -1
    private var logDescriptor: Int32 = -1
    #endif

    init(logPath: String) {
        self.logPath = logPath
        let slash = logPath.lastIndex(of: "/")
        folder = slash.map { $0 == logPath.startIndex ? "/" : String(logPath[..<$0]) } ?? "."
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        #if canImport(Darwin)
        if folderDescriptor >= 0 { close(folderDescriptor) }
        if logDescriptor >= 0 { close(logDescriptor) }
        #endif
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
        #elseif canImport(Darwin)
        if descriptor >= 0 {
            let wait = max(0, Int(milliseconds))
            var limit = timespec(tv_sec: wait / 1000, tv_nsec: (wait % 1000) * 1_000_000)
            var event = kevent()
            let ready = kevent(descriptor, nil, 0, &event, 1, &limit)
            if ready > 0 { drain(first: event) }
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
        #elseif canImport(Darwin)
        if descriptor < 0 {
            let made = kqueue()
            guard made >= 0 else { return }
            descriptor = made
        }
        if folderDescriptor < 0 { folderDescriptor = register(folder) }
        if logDescriptor < 0 { logDescriptor = register(logPath) }
        if folderDescriptor < 0 {
            // No folder to watch: fall back to sleeping the timeout.
            close(descriptor)
            descriptor = -1
        }
        #endif
    }

    #if canImport(Darwin)
    /// Opens `path` for events only and adds it to the kqueue; -1 when it cannot be watched.
    private func register(_ path: String) -> Int32 {
        let opened = open(path, O_EVTONLY | O_CLOEXEC)
        guard opened >= 0 else { return -1 }
        let changes = UInt32(NOTE_WRITE | NOTE_EXTEND | NOTE_DELETE | NOTE_RENAME | NOTE_ATTRIB | NOTE_REVOKE)
        var change = kevent(ident: UInt(opened), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                            fflags: changes, data: 0, udata: nil)
        guard kevent(descriptor, &change, 1, nil, 0, nil) >= 0 else {
            close(opened)
            return -1
        }
        return opened
    }

    /// Takes every pending event; a log removed or renamed is let go, to be watched again
    /// (the path's new file) at the next wait.
    private func drain(first: kevent) {
        var event = first
        var none = timespec(tv_sec: 0, tv_nsec: 0)
        repeat {
            let gone = UInt32(NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE)
            if Int32(event.ident) == logDescriptor, event.fflags & gone != 0 {
                close(logDescriptor)
                logDescriptor = -1
            }
        } while kevent(descriptor, nil, 0, &event, 1, &none) > 0
    }
    #else
    /// Reads every pending event (their content does not matter: the feed reads the log).
    private func drain() {
        #if os(Linux)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        #endif
    }
    #endif
}
