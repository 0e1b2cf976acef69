import CompassCore

/// What an erasure did (or, for a dry run, would do).
package struct ErasureOutcome {
    package var plan: ErasurePlan
    /// Fragments removed from `LOG.torn`.
    package var tornFragments: Int
    /// Attachment blobs removed (only erased lines referred to them).
    package var blobs: Int
    /// Whether a snapshot was removed.
    package var snapshot: Bool
    /// False for a dry run: nothing was changed.
    package var committed: Bool
    /// What could not be finished after the commit point (the erasure is in place).
    package var warning: String?
}

extension LogWriter {
    /// Erases a member's or a family's data (SPEC §5) under the writers' lock.
    ///
    /// The new log is built in memory, written beside the old one (`LOG.tmp-PID`), fsynced and
    /// renamed over it: a kill at any moment leaves the old log or the new one, whole. Before
    /// the rename the snapshot goes (it is a cache) and `LOG.torn` loses the erased fragments;
    /// after it, the blobs only erased lines referred to (an intent file, `LOG.erasing`, lets
    /// the next writer finish that if this process dies). Writers waiting for the lock find
    /// the path renamed over and open it again, so no acknowledged append is lost.
    package func erase(_ target: ErasureTarget, requester: String, at: Timestamp, eventId: String,
                       dryRun: Bool) throws(StoreError) -> ErasureOutcome {
        let fd = try lockExistingLog()
        defer {
            fs.unlock(fd, path: path)
            closeLog()
        }
        var bytes: [UInt8]
        if dryRun {
            try LogJournal.recover(log: fd, path: path, fs: fs)
            try ErasureIntent.recover(log: path, fd: fd, fs: fs)
            bytes = try fs.read(fd, from: 0, to: try LogExtent.lastLineEnd(fd, before: try fs.size(fd, path: path), path: path, fs: fs),
                                path: path)
        } else {
            bytes = try committedBytesForRewrite(fd)
        }
        let plan: ErasurePlan
        do { plan = try ErasurePlanner.plan(log: bytes, target: target, requester: requester, at: at, eventId: eventId) }
        catch { throw error == ErasurePlanner.oneChainLog ? .oneChainLog(path: path) : .rejected(error) }
        bytes = []

        let tornPath = StoreFiles(log: path).torn
        let torn = (try fs.readFile(tornPath, .readSide)) ?? []
        let fragments = torn.split(separator: 0x0A).map { Array($0) }
        let keptFragments = fragments.filter { !plan.covers(tornFragment: String(decoding: $0, as: UTF8.self), scope: target.scope) }
        // Every blob no remaining line refers to goes (not only those erased lines named: a
        // blob stored by an append that was killed before its line was written is no one's),
        // and every temporary file of the store's folders (no writer is between its steps
        // while this one holds the lock, and a snapshot is written only under it too).
        let attachments = AttachmentStore(logPath: path)
        let stored = try fs.list(attachments.folder)
        let blobs = stored.filter { SHA256.isHex($0) && !plan.keptBlobs.contains($0) }
        let base = String(path.split(separator: "/").last ?? Substring(path)) + "."
        let temporaries = try fs.list(folder).filter { $0.hasPrefix(base) && POSIX.temporaryOwner($0) != nil }.map { folder + "/" + $0 }
            + stored.filter { POSIX.temporaryOwner($0) != nil }.map { attachments.folder + "/" + $0 }
        let snapshotPath = StoreFiles(log: path).snapshot
        let hasSnapshot = try fs.kind(of: snapshotPath) != .missing
        var outcome = ErasureOutcome(plan: plan, tornFragments: fragments.count - keptFragments.count, blobs: blobs.count,
                                     snapshot: hasSnapshot, committed: false)
        if dryRun { return outcome }

        try ErasureIntent.write(log: path, newSize: plan.newLog.count, newHead: plan.newHead, blobs: blobs, fs: fs)
        do throws(StoreError) {
            try fs.remove(snapshotPath)  // whatever a stat said: any error but ENOENT fails the erasure here
            for temporary in temporaries { try fs.remove(temporary) }
            if keptFragments.count < fragments.count {
                if keptFragments.isEmpty { try fs.remove(tornPath) } else {
                    try fs.writeFileAtomically(tornPath, parts: keptFragments.map { $0 + [0x0A] })
                }
            }
            // The new log beside the old one, renamed over it: the commit point.
            try fs.replaceAtomically(path, afterRename: .leaveFolderToCaller) { out, temp throws(StoreError) in
                try fs.writeAll(out, plan.newLog, path: temp)
            }
        } catch {
            try? fs.remove(ErasureIntent.path(of: path))  // the old log is whole and keeps its blobs
            try? fs.syncDirectory(folder)
            throw error
        }
        outcome.committed = true
        // Past the commit point nothing is reported as a failure (the erasure happened): the
        // folder fsync is tried again, and what still fails leaves the intent, so the next
        // writer finishes the job, and comes back as a warning.
        if let warning = fs.syncDirectoryAfterCommit(folder) {
            outcome.warning = "the erasure is in place, but \(warning); the next write to the log finishes removing its files"
            return outcome
        }
        do throws(StoreError) {
            try ErasureIntent.finish(log: path, blobs: blobs, fs: fs)
        } catch {
            outcome.warning = "the erasure is in place, but \(error.message); the next write to the log finishes removing its files"
        }
        return outcome
    }

    /// The log's committed bytes, read under the writers' lock (`fd`) to be rewritten: what a
    /// dead writer left is finished first (a hot journal, an erasure's intent), then dead
    /// writers' temporary files go and a torn tail is moved aside.
    func committedBytesForRewrite(_ fd: Int32) throws(StoreError) -> [UInt8] {
        try LogJournal.recover(log: fd, path: path, fs: fs)
        try ErasureIntent.recover(log: path, fd: fd, fs: fs)
        try fs.removeStaleTemporaries(in: folder)
        try cutTornTail(fd: fd, size: try fs.size(fd, path: path))
        return try fs.read(fd, from: 0, to: try fs.size(fd, path: path), path: path)
    }

    /// Opens the existing log and takes the writers' lock, opening the path again when it was
    /// renamed over while this writer waited.
    func lockExistingLog() throws(StoreError) -> Int32 {
        while true {
            closeLog()
            guard let fd = try fs.open(path, .append) else { throw .noLog(path: path) }
            let identity: FileIdentity
            do throws(StoreError) { identity = try fs.identity(fd) } catch {
                fs.close(fd)
                throw .io(path: path, message: "cannot open \(path): \(error.message)")
            }
            log = (fd, identity)
            do throws(StoreError) {
                try fs.lock(fd, .exclusive, path: path)
                if try fs.identity(of: path) == identity { return fd }
            } catch {
                // Not left holding the lock: every other writer would wait for this store.
                fs.unlock(fd, path: path)
                closeLog()
                throw error
            }
            fs.unlock(fd, path: path)
        }
    }
}
