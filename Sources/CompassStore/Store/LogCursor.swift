import CompassCore

/// A reader that keeps its place in a log (``LogBackend/makeCursor()``).
package protocol LogCursor {
    /// The first read, from a snapshot where the backend keeps one (nil when it has none to
    /// start from, or after the first read): what it holds of `scope`.
    /// `progress` is told how far the read has gone (a file's bytes; a database's read is one
    /// statement and reports nothing).
    mutating func firstRead(snapshots: SnapshotPolicy?, scope: ReplayScope, progress: ReadProgress?) throws(StoreError) -> Replayer?

    /// Folds what was committed since the last poll; `.replaced` when the log is another
    /// history now (erased, replaced): the caller reads it again from its start.
    mutating func poll(into replayer: inout Replayer) throws(StoreError) -> LogPoll

    /// Makes sure the replayer holds what `scope` needs (a cursor that reads only the families
    /// it was asked for reads another family's lines, or every family's, now).
    mutating func include(_ scope: ReplayScope, into replayer: inout Replayer) throws(StoreError)
}

extension LogTail {
    /// A file is read whole (a snapshot's families are loaded from it as they are asked for).
    mutating func include(_ scope: ReplayScope, into replayer: inout Replayer) throws(StoreError) {}
}
