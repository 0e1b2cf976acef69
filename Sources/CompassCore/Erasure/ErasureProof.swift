/// One `ErasureRecorded` line of a log, and whether the log proves the head it names.
public struct ErasureStep: Hashable, Sendable {
    /// The 1-based line of the `ErasureRecorded` record.
    public var line: Int
    /// Its `seq`.
    public var seq: Int64
    /// When the erasure was recorded.
    public var at: Timestamp
    /// The head before the erasure, as recorded.
    public var oldHead: String
    /// How many lines the log had before it.
    public var oldLines: Int64
    /// How many lines it erased.
    public var erased: Int64
    /// One member's data or a whole family's.
    public var scope: ErasureScope
    /// Whether the log proves `oldHead`: the chain of original line hashes (an erased line's
    /// `was`, any other line's bytes with its original `prev`) ends in it at `oldLines`.
    public var proven: Bool
}

/// Walks a log's `prev` chain as it was before any erasure (SPEC §5) and checks the head
/// every `ErasureRecorded` line names.
///
/// Feed it every complete line in order. A head kept before the first erasure is proven
/// through any number of later erasures: every line keeps one original hash (an erased
/// line's `was` is the hash of the line as first written). A head kept *between* two
/// erasures is not provable once the second erases a line the first had rewritten: its
/// bytes at that time are gone and only its first hash is kept.
package struct ErasureProof {
    /// The erasures met so far, in line order.
    package private(set) var steps: [ErasureStep] = []
    private var tape = JSONTape()
    private var previous = SHA256.emptyHex
    private var previousOriginal = SHA256.emptyHex
    private var lines = 0
    private var erasedRecords = 0
    private var erasedRecorded: Int64 = 0

    package init() {}

    /// Reads the next complete line (without its `\n`).
    package mutating func consume(line: UnsafeBufferPointer<UInt8>) {
        let chain = ChainLine(line, tape: &tape)
        let original = chain.originalHash(line, previous: previous, previousOriginal: previousOriginal)
        lines += 1
        if chain.was != nil { erasedRecords += 1 }
        if chain.type == EventType.erasureRecorded.rawValue, let step = step(line, chain) { steps.append(step) }
        previous = chain.hash
        previousOriginal = original
    }

    /// Reads every complete line of a log held in memory.
    package mutating func consume(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            LineSplitter.completeLines(in: buffer, from: 0, to: buffer.count, into: &ranges)
            for range in ranges { consume(line: UnsafeBufferPointer(rebasing: buffer[range])) }
        }
    }

    /// Whether the log has exactly as many `Erased` records as its erasures recorded.
    package var erasedCountsAgree: Bool { Int64(erasedRecords) == erasedRecorded }

    /// The erasure that proves `head`, if one does (and the erased counts agree).
    package func proof(of head: String) -> ErasureStep? {
        guard erasedCountsAgree else { return nil }
        return steps.first { $0.oldHead == head && $0.proven }
    }

    private mutating func step(_ line: UnsafeBufferPointer<UInt8>, _ chain: ChainLine) -> ErasureStep? {
        let prepared = PreparedLine(line, hashing: false)
        guard case .draft(let draft, let payload) = prepared.content, case .success(.erasureRecorded(let recorded)) = payload else {
            return nil
        }
        erasedRecorded += recorded.erased
        let proven = recorded.oldLines == Int64(lines - 1) && previousOriginal == recorded.oldHead && draft.actor == "-"
        return ErasureStep(line: lines, seq: draft.seq, at: draft.at, oldHead: recorded.oldHead, oldLines: recorded.oldLines,
                           erased: recorded.erased, scope: recorded.scope, proven: proven)
    }
}
