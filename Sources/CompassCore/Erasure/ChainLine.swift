/// One log line as the `prev` chain sees it across erasures (SPEC §5): its hash, where its
/// `prev` is, its `was` when it is an `Erased` record. ``WrittenChain`` walks these lines.
package struct ChainLine {
    /// SHA-256 of the line's bytes as they are.
    package let hash: String
    /// Where the `prev` value is in the line, when it is a plain string.
    package let prevRange: Range<Int>?
    /// The `prev` value, when there is one.
    package let prev: String?
    /// The `was` of an `Erased` record.
    package let was: String?
    /// The `type` field, when it is a plain string.
    package let type: String?
    /// The `family` field, when it is a valid id: the stream the line is in (SPEC §1.1).
    package let family: String?
    /// The `seq` field, when it is an integer ≥ 1.
    package let seq: Int64?

    /// Reads one line (without its `\n`); `tape` is reused from line to line.
    package init(_ line: UnsafeBufferPointer<UInt8>, tape: inout JSONTape) {
        hash = SHA256.hex(line)
        guard let base = line.baseAddress, tape.scan(line) else {
            prevRange = nil; prev = nil; was = nil; type = nil; family = nil; seq = nil
            return
        }
        let range = tape.plainStringRange(ofKey: "prev", in: base)
        prevRange = range
        prev = range.map { String(decoding: UnsafeBufferPointer(rebasing: line[$0]), as: UTF8.self) }
        type = tape.plainStringRange(ofKey: "type", in: base).map { String(decoding: UnsafeBufferPointer(rebasing: line[$0]), as: UTF8.self) }
        let readable = EnvelopeReader.readable(tape, base)
        family = readable.family
        seq = readable.seq
        was = type == Rules.erasedType ? EnvelopeReader.erasedWas(tape, base) : nil
    }

    /// Whether the line's `prev` links it to a previous line whose hash is `previous`.
    package func links(to previous: String) -> Bool { prev == previous }

    /// The line with its `prev` set to `hash` (64 hex digits, the same length).
    package static func replacingPrev(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, with hash: String) -> [UInt8] {
        var bytes = Array(line)
        bytes.replaceSubrange(range, with: Array(hash.utf8))
        return bytes
    }

    /// Whether the line is an `ErasureRecorded` record.
    package var recordsErasure: Bool { type == EventType.erasureRecorded.rawValue }
}

/// The hash each line of one family's stream had when it was written, worked out from the log
/// as it is now: the one recurrence an erasure writes its `was` values with and `verify`
/// proves old heads with, so what one writes the other recomputes. Each family has its own
/// (SPEC §1.1): feed it that family's lines only.
///
/// A line's *written* hash is its `was` when it is an `Erased` record; otherwise, when its
/// `prev` is a correct link, the hash of its bytes with that `prev` set to the previous line's
/// written hash (the bytes it had before later erasures re-sealed it); otherwise the hash of
/// its bytes. An `ErasureRecorded` line starts the chain again from the log as it stands:
/// lines appended after an erasure were written after it, against the re-sealed lines, so
/// their written hash is the hash of their bytes as they stand, never of bytes that never
/// existed. What this cannot know is said in ARCHITECTURE.md: a line an erasure re-sealed and
/// a later erasure takes keeps its first hash only, so the head kept between those two
/// erasures cannot be proven.
package struct WrittenChain {
    /// The previous line's hash as it is.
    package private(set) var previous = SHA256.emptyHex
    /// The previous line's written hash: the head of the log as it was written then.
    package private(set) var previousWritten = SHA256.emptyHex

    package init() {}

    /// Takes the next line; returns its written hash.
    @discardableResult
    package mutating func consume(_ line: UnsafeBufferPointer<UInt8>, _ chain: ChainLine) -> String {
        if chain.recordsErasure { previousWritten = previous }  // written after the erasure's rewrite
        let written: String
        if let was = chain.was {
            written = was
        } else if let prevRange = chain.prevRange, chain.links(to: previous), previousWritten != previous {
            written = SHA256.hex(ChainLine.replacingPrev(line, prevRange, with: previousWritten))
        } else {
            written = chain.hash
        }
        previous = chain.hash
        previousWritten = written
        return written
    }
}
