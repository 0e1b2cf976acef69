/// The rollback journal of a batch append, after SQLite's: `LOG.journal` records the log's
/// committed size, durably, before any byte of the batch is written, and is removed once the
/// whole batch is fsynced (the commit point).
///
/// While the journal exists the bytes past that size are not committed: every reader stops
/// there (``LogExtent``) and the next writer cuts them off before it appends
/// (``recover(log:path:fs:)``). A journal left by a writer that died or failed is "hot"; one
/// that cannot be read was never complete, and no byte of its batch was written.
package enum LogJournal {
    package static let magic = "compass-journal 1 committed-size "

    package static func path(of log: String) -> String { StoreFiles(log: log).journal }

    /// The committed size a journal records, or nil when there is no complete journal.
    ///
    /// Only a journal that does not exist (ENOENT) is "no journal": one that cannot be opened,
    /// stat'ed or read is an error, since taking it for absent would count, or keep, the
    /// uncommitted half of a batch.
    package static func committedSize(log: String, fs: FileSystem) throws(StoreError) -> Int? {
        guard let bytes = try fs.readFile(path(of: log), .readSide) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix(magic), text.hasSuffix("\n") else { return nil }
        return Int(text.dropFirst(magic.count).dropLast())
    }

    /// Writes the journal (temporary file, fsync, rename, folder fsync) before a batch.
    package static func begin(log: String, committedSize: Int, fs: FileSystem) throws(StoreError) {
        try fs.writeFileAtomically(path(of: log), parts: [Array("\(magic)\(committedSize)\n".utf8)])
    }

    /// Removes the journal, durably: the batch is committed (or was rolled back).
    package static func end(log: String, fs: FileSystem) throws(StoreError) {
        try fs.remove(path(of: log))
        try fs.syncDirectory(POSIX.directory(of: log))
    }

    /// Rolls back what a hot journal protects: cuts the log to the committed size, fsyncs
    /// it, then removes the journal. Run by a writer under its exclusive lock.
    package static func recover(log fd: Int32, path: String, fs: FileSystem) throws(StoreError) {
        let journal = Self.path(of: path)
        guard try fs.kind(of: journal) != .missing else { return }
        if let committed = try committedSize(log: path, fs: fs), committed < (try fs.size(fd, path: path)) {
            try fs.truncate(fd, to: committed, path: path)
            try fs.sync(fd, path: path)
        }
        try end(log: path, fs: fs)
    }
}

/// How much of a log is committed, as one reader sees it at one moment.
package struct LogExtent: Equatable {
    /// Bytes of complete lines (through the last `\n` before the committed end).
    package var complete: Int
    /// Whether committed bytes follow the last `\n`: a torn last line.
    package var torn: Bool

    package init(complete: Int, torn: Bool) {
        self.complete = complete
        self.torn = torn
    }

    /// Measures an open log: under a shared lock (so no writer is between its first write
    /// and its commit), the size, capped by a hot journal's committed size, then the last `\n`.
    package static func measure(_ fd: Int32, path: String, fs: FileSystem, locking: Bool = true) throws(StoreError) -> LogExtent {
        if locking { try fs.lock(fd, .shared, path: path) }
        defer { if locking { fs.unlock(fd, path: path) } }
        var size = try fs.size(fd, path: path)
        if let committed = try LogJournal.committedSize(log: path, fs: fs), committed < size { size = committed }
        let complete = try lastLineEnd(fd, before: size, path: path, fs: fs)
        return LogExtent(complete: complete, torn: complete < size)
    }

    /// The offset just after the last `\n` in the first `size` bytes (0 when there is none),
    /// found by reading backwards from `size`.
    package static func lastLineEnd(_ fd: Int32, before size: Int, path: String, fs: FileSystem) throws(StoreError) -> Int {
        var end = size
        var step = 4096
        while end > 0 {
            let from = max(0, end - step)
            let chunk = try fs.read(fd, from: from, to: end, path: path)
            if let newline = chunk.lastIndex(of: 0x0A) { return from + newline + 1 }
            end = from
            step = min(step * 4, 1 << 20)
        }
        return 0
    }
}
