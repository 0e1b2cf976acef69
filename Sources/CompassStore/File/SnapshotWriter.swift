import CompassCore

/// Writes `LOG.snapshot` streaming: family sections are encoded a batch at a time on every
/// core and written as they come, so the snapshot's bytes are never all in memory beside the
/// state (``SnapshotStream``). Atomic like every side file: a temporary file, fsynced, renamed.
package enum SnapshotWriter {
    /// Families encoded at once: two per core keep both busy; each held section is about 1.5 MB
    /// for a 5,000-event family (32 at once added about 21 MiB to the peak of a replay that
    /// writes its snapshot, for no gain in time).
    static let batch = 4

    /// Runs `write` (a snapshot's) holding a shared lock on the log at `log`, and only while
    /// that path still names the file the snapshot was read from and the file still ends the
    /// snapshot's prefix with the line it recorded. `erase` renames a new log over the old one
    /// and removes the snapshot under its exclusive lock on the old file, so a reader that
    /// finishes after an erasure finds the path renamed and writes nothing. `write` is given
    /// the log, open for reading (the file the snapshot was read from). Returns whether it
    /// wrote.
    @discardableResult
    package static func whileCurrent(log: String, readFrom identity: FileIdentity, covering snapshot: ReplaySnapshot, fs: FileSystem,
                                     write: (_ log: Int32) throws(StoreError) -> Void) throws(StoreError) -> Bool {
        guard let fd = try fs.open(log, .read) else { return false }
        defer { fs.close(fd) }
        // Not waited for: a writer holding the log (in this process too, whose lock this one
        // would wait on for ever) means the snapshot is simply not written this time.
        guard try fs.lock(fd, .sharedIfFree, path: log) else { return false }
        defer { fs.unlock(fd, path: log) }
        guard try fs.identity(fd) == identity, try fs.identity(of: log) == identity else { return false }
        let extent = try LogExtent.measure(fd, path: log, fs: fs, locking: false)
        guard try SnapshotFile.log(fd, path: log, extent: extent, endsPrefixOf: snapshot, fs: fs) else { return false }
        try write(fd)
        return true
    }

    /// - Parameters:
    ///   - familyIds: every family of the snapshot, in id order.
    ///   - section: a family's section (encoded, or copied from an older snapshot), or nil when
    ///     it cannot be had: then nothing is written.
    package static func write(_ snapshot: ReplaySnapshot, familyIds: [String], to path: String, fs: FileSystem,
                              section: (String) -> SnapshotCodec.Section?) throws(StoreError) {
        try fs.replaceAtomically(path) { fd, temp throws(StoreError) in
            var stream = SnapshotStream(snapshot)
            for part in stream.opening { try fs.writeAll(fd, part, path: temp) }
            for start in stride(from: 0, to: familyIds.count, by: batch) {
                let ids = Array(familyIds[start..<min(familyIds.count, start + batch)])
                for encoded in Parallel.map(ids, minimum: 2, section) {
                    guard let encoded else { throw .io(path: path, message: "a family section of the old snapshot does not check") }
                    try fs.writeAll(fd, encoded.bytes, path: temp)
                    stream.add(encoded)
                }
            }
            let (directory, preamble) = stream.closing()
            try fs.writeAll(fd, directory, path: temp)
            try fs.writeAll(fd, preamble, at: 0, path: temp)
        }
    }
}
