import CompassCore

/// Reads a growing log from where it last stopped, committed complete lines only: a torn
/// last line, or a batch not yet committed, is read once it is whole. A log that does not
/// exist yet is waited for; a log replaced (renamed over, removed and made again, or cut
/// below what was read) is read again from its start.
struct LogTail: LogCursor {
    package let path: String
    package let fs: FileSystem
    /// The open log, closed when the last copy of this tail lets it go.
    private var file: OpenFile?
    private var fd: Int32 { file?.fd ?? -1 }
    private var identity: FileIdentity?
    private var offset = 0
    private var everOpened = false

    package init(path: String, fs: FileSystem) {
        self.path = path
        self.fs = fs
    }

    package var isOpen: Bool { fd >= 0 }

    package typealias Poll = LogPoll

    /// Opens the log (when it exists) and returns how many bytes of complete committed lines
    /// it holds now. ``firstRead(upTo:snapshots:scope:)`` reads them later from this same file,
    /// even if the path is renamed over in between; every later poll goes on from there.
    package mutating func anchor() throws(StoreError) -> Int {
        guard fd < 0, let opened = try fs.open(path, .read) else { return offset }
        file = OpenFile(opened, fs: fs)
        do throws(StoreError) {
            identity = try fs.identity(opened)
            everOpened = true
            return try LogExtent.measure(opened, path: path, fs: fs).complete
        } catch {
            close()
            throw error
        }
    }

    /// The first read of a tail that has read nothing yet: the committed log replayed as a
    /// command reads it — from its snapshot when one matches, so only the lines after it are
    /// parsed — and polled from where that read ended. Nil when there is no log yet.
    ///
    /// - Parameters:
    ///   - anchored: the size ``anchor()`` returned, when the tail was anchored before (else
    ///     it is anchored now).
    ///   - scope: what the reader needs first (a viewer's family: the other families stay in
    ///     the snapshot until asked for).
    mutating func firstRead(snapshots: SnapshotPolicy?, scope: ReplayScope, progress: ReadProgress?) throws(StoreError) -> Replayer? {
        try firstRead(upTo: nil, snapshots: snapshots, scope: scope, progress: progress)
    }

    mutating func firstRead(upTo anchored: Int?, snapshots: SnapshotPolicy?, scope: ReplayScope,
                            progress: ReadProgress? = nil) throws(StoreError) -> Replayer? {
        guard offset == 0 else { return nil }
        let end: Int
        if let anchored { end = anchored } else { end = try anchor() }
        guard fd >= 0 else { return nil }
        let replayer = try LogReader.replay(fd: fd, path: path, extent: LogExtent(complete: end, torn: false), fs: fs,
                                            snapshots: snapshots, scope: scope, problems: .summary, progress: progress)
        offset = end
        return replayer
    }

    /// Folds the committed complete lines appended since the last poll.
    ///
    /// A poll that fails after folding some of them (a read of a later block failed) leaves
    /// them folded in `replayer`, which the caller keeps, and goes on after them next time:
    /// none is folded twice (a line read again would be a duplicate) and none is skipped.
    package mutating func poll(into replayer: inout Replayer) throws(StoreError) -> Poll {
        if fd >= 0, try fs.identity(of: path) != identity {
            close()  // removed or renamed over: the path's new file, if any, is read from its start
        }
        if fd < 0 {
            guard let opened = try fs.open(path, .read) else { return .read }
            file = OpenFile(opened, fs: fs)
            do throws(StoreError) { identity = try fs.identity(opened) } catch {
                close()
                throw error
            }
            offset = 0
            if everOpened { return .replaced }
            everOpened = true
        }
        let extent = try LogExtent.measure(fd, path: path, fs: fs)
        if extent.complete < offset {
            // Cut below what was read: not the same history any more.
            offset = 0
            return .replaced
        }
        guard extent.complete > offset else { return .read }
        let folded = replayer.consumedBytes
        do {
            try LogReader.stream(fd: fd, path: path, from: offset, extent: LogExtent(complete: extent.complete, torn: false),
                                 fs: fs, into: &replayer)
        } catch {
            offset += replayer.consumedBytes - folded  // each folded line and its `\n`
            throw error
        }
        offset = extent.complete
        return .read
    }

    private mutating func close() {
        file = nil
        identity = nil
    }
}
