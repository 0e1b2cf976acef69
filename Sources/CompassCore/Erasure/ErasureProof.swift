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
    /// The `seq`s of the `Erased` records this erasure accounts for: its `erased` count of
    /// them, taken in file order from those before it that no earlier erasure accounts for
    /// (the records do not say which erasure made them; see ARCHITECTURE.md).
    public var erasedSeqs: [Int64]
    /// Whether the log proves `oldHead`: the chain of written line hashes (``WrittenChain``:
    /// an erased line's `was`, any other line's bytes with the `prev` it was written with)
    /// ends in it at `oldLines`.
    public var proven: Bool
}

/// Walks a log's `prev` chain as each line was written (SPEC §5, ``WrittenChain``) and checks
/// the head every `ErasureRecorded` line names.
///
/// Feed it every complete line in order. A head kept before the first erasure is proven
/// through any number of later erasures, and so is one kept between two erasures when the
/// second changed no line the first had come after. A head kept between two erasures is not
/// provable once the second erases or re-seals a line from before the first: those bytes as
/// they were then are gone.
package struct ErasureProof {
    /// The erasures met so far, in line order.
    package private(set) var steps: [ErasureStep] = []
    private var tape = JSONTape()
    private var chain = WrittenChain()
    private var lines = 0
    /// `Erased` records no erasure accounted for yet, in file order.
    private var unaccounted: [Int64] = []
    private var countsAgree = true

    package init() {}

    /// Reads the next complete line (without its `\n`).
    package mutating func consume(line: UnsafeBufferPointer<UInt8>) {
        let read = ChainLine(line, tape: &tape)
        let headBefore = chain.previousWritten
        lines += 1
        if read.was != nil { unaccounted.append(PreparedLine(line, hashing: false).readableSeq ?? 0) }
        if read.recordsErasure, let step = step(line, head: headBefore) { steps.append(step) }
        chain.consume(line, read)
    }

    /// Reads every complete line of a log held in memory.
    package mutating func consume(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            LineSplitter.completeLines(in: buffer, from: 0, to: buffer.count, into: &ranges)
            for range in ranges { consume(line: UnsafeBufferPointer(rebasing: buffer[range])) }
        }
    }

    /// Whether the log has exactly as many `Erased` records as its erasures recorded, each
    /// erasure coming after as many as it counts.
    package var erasedCountsAgree: Bool { countsAgree && unaccounted.isEmpty }

    /// The erasure that proves `head`, if one does (and the erased counts agree).
    package func proof(of head: String) -> ErasureStep? {
        guard erasedCountsAgree else { return nil }
        return steps.first { $0.oldHead == head && $0.proven }
    }

    private mutating func step(_ line: UnsafeBufferPointer<UInt8>, head: String) -> ErasureStep? {
        let prepared = PreparedLine(line, hashing: false)
        guard case .draft(let draft, let payload) = prepared.content, case .success(.erasureRecorded(let recorded)) = payload else {
            return nil
        }
        let taken = Int(clamping: min(max(recorded.erased, 0), Int64(unaccounted.count)))
        if Int64(taken) != recorded.erased { countsAgree = false }
        let erasedSeqs = Array(unaccounted.prefix(taken))
        unaccounted.removeFirst(taken)
        let proven = recorded.oldLines == Int64(lines - 1) && head == recorded.oldHead && draft.actor == "-"
        return ErasureStep(line: lines, seq: draft.seq, at: draft.at, oldHead: recorded.oldHead, oldLines: recorded.oldLines,
                           erased: recorded.erased, scope: recorded.scope, erasedSeqs: erasedSeqs, proven: proven)
    }
}
