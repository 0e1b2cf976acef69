/// One `ErasureRecorded` line of a log, and whether the log proves the head it names.
public struct ErasureStep: Hashable, Sendable {
    /// The family whose stream was erased and re-sealed.
    public var family: String
    /// The 1-based line of the `ErasureRecorded` record.
    public var line: Int
    /// Its `seq` in the family's stream.
    public var seq: Int64
    /// When the erasure was recorded.
    public var at: Timestamp
    /// The family's head before the erasure, as recorded.
    public var oldHead: String
    /// How many lines the family's stream had before it.
    public var oldLines: Int64
    /// How many lines it erased.
    public var erased: Int64
    /// One member's data or a whole family's.
    public var scope: ErasureScope
    /// The family `seq`s of the `Erased` records this erasure accounts for: those its record
    /// lists (``seqsListed``), or, for a record written before records listed them, its
    /// `erased` count of them taken in file order from those of its family before it that no
    /// earlier erasure accounts for (exact unless erasures interleave; see ARCHITECTURE.md).
    public var erasedSeqs: [Int64]
    /// Whether the record lists its seqs (`data.erasedSeqs`); false for an older record, whose
    /// seqs are counted in file order.
    public var seqsListed: Bool
    /// Whether the log proves `oldHead`: the family's chain of written line hashes
    /// (``WrittenChain``: an erased line's `was`, any other line's bytes with the `prev` it was
    /// written with) ends in it at `oldLines`.
    public var proven: Bool
}

/// Walks every family's `prev` chain as each line was written (SPEC §5, ``WrittenChain``),
/// checks the head every `ErasureRecorded` line names, and finds a kept head or root.
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
    private var streams: [String: Stream] = [:]
    private var lines = 0
    private var countsAgree = true
    /// The head or root being looked for, and where it was found.
    private let sought: String?
    private var findings: [Finding] = []
    /// Every family's entry of the root as the log stood after each line, kept only when a
    /// root is sought: sorted by family id.
    private var rootEntries: [(family: String, seq: Int64, head: String, line: Int, exact: Bool)] = []

    /// One family's stream as walked so far.
    private struct Stream {
        var chain = WrittenChain()
        var lines: Int64 = 0
        var seq: Int64 = 0
        /// `Erased` records no erasure accounted for yet, in file order.
        var unaccounted: [Int64] = []
    }

    /// Where a sought head or root matched: the families whose part of it is a written hash
    /// that a later erasure re-sealed (proven only by a later proven erasure of that family).
    private struct Finding {
        var needsProof: [(family: String, line: Int)]
    }

    /// - Parameter seeking: a kept family head or root to look for (``found``).
    package init(seeking: String? = nil) {
        sought = seeking
    }

    /// Reads the next complete line (without its `\n`).
    package mutating func consume(line: UnsafeBufferPointer<UInt8>) {
        let read = ChainLine(line, tape: &tape)
        lines += 1
        guard let family = read.family else { return }  // no stream (SPEC §1.1)
        var stream = streams[family] ?? Stream()
        let headBefore = stream.chain.previousWritten
        if read.was != nil { stream.unaccounted.append(read.seq ?? 0) }
        if read.recordsErasure, let step = step(line, family: family, head: headBefore, stream: &stream) { steps.append(step) }
        let written = stream.chain.consume(line, read)
        stream.lines += 1
        if let seq = read.seq { stream.seq = seq }
        streams[family] = stream
        guard let sought else { return }
        if read.hash == sought {
            findings.append(Finding(needsProof: []))
        } else if written == sought {
            findings.append(Finding(needsProof: [(family, lines)]))
        }
        seekRoot(sought, family: family, seq: stream.seq, written: written, exact: written == read.hash)
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
    /// erasure coming after as many of its family's as it counts.
    package var erasedCountsAgree: Bool { countsAgree && streams.values.allSatisfy { $0.unaccounted.isEmpty } }

    /// The erasure that proves `head`, if one does (and the erased counts agree).
    package func proof(of head: String) -> ErasureStep? {
        guard erasedCountsAgree else { return nil }
        return steps.first { $0.oldHead == head && $0.proven }
    }

    /// Whether the sought head or root is one the log passes through (SPEC §1.1): a family
    /// head a line hashes to, or a written hash proven by a later erasure of its family; a
    /// root the log had after some line, every family's part of it proven that way.
    package var found: Bool {
        guard erasedCountsAgree || findings.contains(where: { $0.needsProof.isEmpty }) else { return false }
        return findings.contains { finding in
            finding.needsProof.allSatisfy { need in steps.contains { $0.family == need.family && $0.line > need.line && $0.proven } }
        }
    }

    /// The root the log had after this line, compared with the sought one (computed only when
    /// the sought value is not a line's hash: a root names every family's head at once).
    private mutating func seekRoot(_ sought: String, family: String, seq: Int64, written: String, exact: Bool) {
        let entry = (family: family, seq: seq, head: written, line: lines, exact: exact)
        var low = 0, high = rootEntries.count
        while low < high {
            let mid = (low + high) / 2
            if rootEntries[mid].family < family { low = mid + 1 } else { high = mid }
        }
        if low < rootEntries.count, rootEntries[low].family == family { rootEntries[low] = entry } else { rootEntries.insert(entry, at: low) }
        guard StreamTable.root(of: rootEntries.map { ($0.family, $0.seq, $0.head) }) == sought else { return }
        findings.append(Finding(needsProof: rootEntries.filter { !$0.exact }.map { ($0.family, $0.line) }))
    }

    private mutating func step(_ line: UnsafeBufferPointer<UInt8>, family: String, head: String, stream: inout Stream) -> ErasureStep? {
        let prepared = PreparedLine(line, hashing: false)
        guard case .draft(let draft, let payload) = prepared.content, case .success(.erasureRecorded(let recorded)) = payload else {
            return nil
        }
        let erasedSeqs: [Int64]
        if let listed = recorded.erasedSeqs {
            // Exactly the records it lists, each an `Erased` record of its family before it that
            // no earlier erasure took.
            for seq in listed {
                if let index = stream.unaccounted.firstIndex(of: seq) { stream.unaccounted.remove(at: index) } else { countsAgree = false }
            }
            erasedSeqs = listed
        } else {
            let taken = Int(clamping: min(max(recorded.erased, 0), Int64(stream.unaccounted.count)))
            if Int64(taken) != recorded.erased { countsAgree = false }
            erasedSeqs = Array(stream.unaccounted.prefix(taken))
            stream.unaccounted.removeFirst(taken)
        }
        let proven = recorded.oldLines == stream.lines && head == recorded.oldHead && draft.actor == "-"
        return ErasureStep(family: family, line: lines, seq: draft.seq, at: draft.at, oldHead: recorded.oldHead, oldLines: recorded.oldLines,
                           erased: recorded.erased, scope: recorded.scope, erasedSeqs: erasedSeqs,
                           seqsListed: recorded.erasedSeqs != nil, proven: proven)
    }
}
