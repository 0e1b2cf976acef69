import CompassCore

/// What an import wrote: how many events, and each family's run of `seq`s (SPEC §1.1).
public struct ImportSummary: Equatable, Sendable {
    /// The events written.
    public package(set) var count = 0
    /// Each family's first and last new `seq`.
    public package(set) var runs: [String: ClosedRange<Int64>] = [:]

    package init() {}

    /// What a restore of these lines (checked) wrote: every line, and each family's run.
    init(restored input: [UInt8]) {
        (count, runs) = StreamRestore.seqRuns(of: input)
    }

    mutating func add(family: String, seq: Int64) {
        count += 1
        runs[family] = (runs[family]?.lowerBound ?? seq)...seq
    }
}
