import CompassCore

extension LogWriter {
    /// Appends whole family streams byte for byte (`import --restore` on a file store), all
    /// or nothing, under the exclusive lock like any append.
    ///
    /// The lines are checked against the log as it stands under the lock
    /// (``StreamRestore/problems(_:after:)``): any problem there, or in `refused` (the lines
    /// whose blobs could not be had), refuses them all and writes nothing. Otherwise `blobs`
    /// are stored, the lines written past the committed end under the batch's journal
    /// (``LogJournal``), fsynced, and committed by removing the journal; a failure at any
    /// step cuts the log back and takes the new blobs back.
    package func restore(_ input: [UInt8], blobs: [StagedAttachment], refused: [Problem]) throws(StoreError) -> ImportSummary {
        try withLockedLog(beforeCreating: {}) { fd throws(StoreError) in
            var replayer = try replayLocked(fd, actor: nil, progress: nil)
            var problems = StreamRestore.problems(input, after: &replayer, and: refused)
            if replayer.deferredFailed {
                // A part of the snapshot the check read did not check: read the log whole.
                var whole = try LogReader.replay(fd: fd, path: path, extent: LogExtent(complete: try fs.size(fd, path: path), torn: false),
                                                 fs: fs, snapshots: nil, problems: .summary)
                problems = StreamRestore.problems(input, after: &whole, and: refused)
            }
            guard problems.isEmpty else { throw .rejectedLines(problems) }
            guard !input.isEmpty else { return ImportSummary() }
            let committed = try fs.size(fd, path: path)
            let undo = try AttachmentStore(logPath: path).save(blobs, fs: fs)
            do throws(StoreError) {
                try LogJournal.begin(log: path, committedSize: committed, fs: fs)
                try fs.writeAll(fd, input, path: path)
                try fs.sync(fd, path: path)
                try LogJournal.end(log: path, fs: fs)  // the commit point
            } catch {
                rollBack(fd, to: committed, journaled: true)
                undo()
                throw error
            }
            return ImportSummary(restored: input)
        }
    }
}
