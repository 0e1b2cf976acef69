/// The state of a replay after the first `consumedBytes` bytes of a log: everything needed
/// to go on with the rest of the file without reading the prefix again.
package struct ReplaySnapshot: Equatable, Sendable {
    public var state: CompassState
    /// How many problems the prefix has, and the first of each family's lines.
    public var problems: ProblemSummary
    public var linesRead: Int
    public var lastSeq: Int64
    /// SHA-256 of the last complete line before `consumedBytes`: the log must still end
    /// that prefix with that line for the snapshot to be used.
    public var headHash: String
    /// The length of that line, so a reader can check it without scanning backwards.
    public var lastLineLength: Int
    public var sealedLines: Int
    public var consumedBytes: Int
}

extension Replayer {
    /// A snapshot of the complete lines replayed so far. A torn last line is left out: it
    /// is not part of the prefix and will be read again.
    public var snapshot: ReplaySnapshot {
        let lines = linesRead - (tornLine == linesRead ? 1 : 0)
        return ReplaySnapshot(state: state, problems: problemSummary, linesRead: lines, lastSeq: lastSeq, headHash: headHash,
                              lastLineLength: lastLineLength, sealedLines: sealedLines, consumedBytes: consumedBytes)
    }
}
