/// Checks whole family streams that are to be appended byte for byte (`import --restore`):
/// a family's exported history, its `Erased` and `ErasureRecorded` records included.
///
/// The lines are replayed after the store's state exactly as replay reads them. They may be
/// restored only when none of them is a problem, each is sealed (carries `prev`) and in the
/// stream of a family the store has no line of, and their erasure records account for their
/// `Erased` records as `verify` checks them. Every head and erasure proof of the copy then
/// holds in the store: its lines are the same bytes in the same streams.
package enum StreamRestore {
    /// Every reason `input` cannot be restored, with `others` found before (its blobs), in line
    /// order (1-based lines of `input`); empty when it can. `replayer` is the store's replay;
    /// it ends with the lines folded in.
    package static func problems(_ input: [UInt8], after replayer: inout Replayer, and others: [Problem] = []) -> [Problem] {
        let base = replayer.linesRead
        let found = ProblemList()
        let retention = replayer.retention
        replayer.retention = .forward { found.append($0) }
        defer { replayer.retention = retention }
        var own: [Problem] = []
        var restored: Set<String> = [], refused: Set<String> = []
        let lineCount: Int = input.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            let end = LineSplitter.completeLines(in: buffer, from: 0, to: buffer.count, into: &ranges)
            var tape = JSONTape()
            for (index, range) in ranges.enumerated() {
                let line = UnsafeBufferPointer(rebasing: buffer[range])
                let chain = ChainLine(line, tape: &tape)
                let number = index + 1
                if let family = chain.family, !restored.contains(family), !refused.contains(family) {
                    if replayer.streams[family: family] == nil {
                        restored.insert(family)
                    } else {
                        refused.insert(family)
                        own.append(Problem(line: number, message: "family \(family) already has lines in this store: --restore takes only whole families it does not have"))
                    }
                }
                // A family the store has is refused once, not again for each of its lines.
                if let family = chain.family, refused.contains(family) { continue }
                let reported = found.count
                replayer.consume(line: line, terminated: true)
                guard found.count == reported else { continue }  // the line's own problems say enough
                if chain.family == nil {
                    // (Replay reports a line without a valid family, but for the record of an
                    // erasure outside every stream, which is no family's.)
                    own.append(Problem(line: number, message: "not in a family's stream: --restore takes whole family streams"))
                } else if chain.prev == nil {
                    own.append(Problem(line: number, message: "missing field prev: a restored stream is sealed, every line carries prev"))
                }
            }
            if end < buffer.count {
                replayer.consume(line: UnsafeBufferPointer(rebasing: buffer[end...]), terminated: false)
                return ranges.count + 1
            }
            return ranges.count
        }
        var proof = ErasureProof()
        proof.consume(bytes: input)
        if !proof.erasedCountsAgree {
            let step = proof.steps.first { Int64($0.erasedSeqs.count) != $0.erased }
            own.append(Problem(line: step?.line ?? lineCount,
                               message: "the Erased records do not match the counts the erasure records give (SPEC §5)"))
        }
        let replayed = found.problems.map { Problem(line: $0.line - base, message: $0.message, kind: $0.kind, family: $0.family) }
        return (own + replayed + others).enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
    }
}

extension StreamRestore {
    /// Each family's `seq`s among lines that were restored, and how many lines.
    package static func seqRuns(of input: [UInt8]) -> (lines: Int, runs: [String: ClosedRange<Int64>]) {
        var runs: [String: ClosedRange<Int64>] = [:]
        var lines = 0
        var tape = JSONTape()
        input.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            LineSplitter.completeLines(in: buffer, from: 0, to: buffer.count, into: &ranges)
            lines = ranges.count
            for range in ranges {
                let chain = ChainLine(UnsafeBufferPointer(rebasing: buffer[range]), tape: &tape)
                guard let family = chain.family, let seq = chain.seq else { continue }
                runs[family] = (runs[family]?.lowerBound ?? seq)...seq
            }
        }
        return (lines, runs)
    }
}

/// Problems handed over by a replay as it finds them (on the replaying thread).
private final class ProblemList: @unchecked Sendable {
    private(set) var problems: [Problem] = []
    var count: Int { problems.count }
    func append(_ problem: Problem) { problems.append(problem) }
}
