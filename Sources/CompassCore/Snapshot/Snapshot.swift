/// The state of a replay after the first `consumedBytes` bytes of a log: everything needed
/// to go on with the rest of the file without reading the prefix again.
package struct ReplaySnapshot: Equatable, Sendable {
    package var state: CompassState
    /// How many problems the prefix has, and the first of each family's lines.
    package var problems: ProblemSummary
    package var linesRead: Int
    /// Every family's stream at the end of the prefix: `seq`, head, last line (SPEC §1.1).
    package var streams: StreamTable
    /// SHA-256 of the last complete line before `consumedBytes`: the log must still end
    /// that prefix with that line for the snapshot to be used.
    package var lastLineHash: String
    /// The length of that line, so a reader can check it without scanning backwards.
    package var lastLineLength: Int
    package var sealedLines: Int
    package var consumedBytes: Int
}

extension Replayer {
    /// A snapshot of the complete lines replayed so far. A torn last line is left out: it
    /// is not part of the prefix and will be read again.
    package var snapshot: ReplaySnapshot {
        let lines = linesRead - (tornLine == linesRead ? 1 : 0)
        return ReplaySnapshot(state: state, problems: problemSummary, linesRead: lines, streams: streams, lastLineHash: lastLineHash,
                              lastLineLength: lastLineLength, sealedLines: sealedLines, consumedBytes: consumedBytes)
    }
}
