import CompassMachine

/// One family's snapshot section, encoded a part at a time as the log is read again in order:
/// the subjects and contents its replay left in the log (``Replayer/textsStayInLog``) are
/// copied from the log's bytes as they go by, not read back one by one or held in the arena;
/// or, for a section that keeps them as their ranges in the log, written as those ranges,
/// with no window of the log needed at all.
///
/// `verify` compares each part with the stored section as it is made. The parts, end to end,
/// are ``SnapshotCodec/familySection(_:)``'s bytes (SectionEncoderTests holds them equal).
package final class SectionEncoder {
    /// What the encoder needs to go on.
    package enum Step: Equatable, Sendable {
        /// Nothing: the whole section is encoded.
        case finished
        /// A window that holds this range of the log: the next row's texts.
        case needs(Range<Int>)
        /// What is encoded reached the limit: take it, then call again.
        case full
    }

    /// The family encoded.
    package let family: Family
    private let table: InteractionTable
    /// What is encoded and not taken yet.
    private var run = ByteRun()
    /// The next row to encode; -1 before the section's head is written.
    private var next = -1
    private var finished = false

    /// Whether the section keeps the texts left in the log as their ranges there (then no
    /// row needs a window), as the stored section it is compared with says.
    private let ranges: Bool

    package init(_ family: Family, ranges: Bool) {
        self.family = family
        self.ranges = ranges
        table = family.interactions
    }

    /// Bytes encoded and not taken yet (``take(_:)``).
    package var pendingCount: Int { run.written.count }

    /// Encodes what it can: the head, then rows while each one's texts are in `window` (or
    /// not in the log), then the tail. Says which range of the log the next row needs when
    /// `window` does not hold it, and stops once `limit` bytes are waiting to be taken.
    package func encode(window: LogWindow, limit: Int = .max) -> Step {
        if next < 0 {
            var head = ByteWriter()
            SnapshotCodec.writeSectionHead(family, ranges: ranges, into: &head)
            head.uint(UInt64(table.count))
            append(head)
            next = 0
        }
        while next < table.count {
            if run.written.count >= limit { return .full }
            if !ranges, let range = table.logRange(ofRow: next), window.bytes(range) == nil { return .needs(range) }
            // The next row's texts are asked for now: they are the family's next line, far on in
            // the block and out of the cache, and are read once this row is written (verify
            // paired: A/B 0.945 of its time, 16 pairs).
            if !ranges, next + 1 < table.count, let ahead = table.logRange(ofRow: next + 1), let bytes = window.bytes(ahead) {
                for line in stride(from: 0, to: bytes.count, by: 64) { compass_prefetch(bytes.baseAddress! + line) }
            }
            table.encodeRow(next, window: window, ranges: ranges, into: &run)
            next += 1
        }
        if !finished {
            var tail = ByteWriter()
            SnapshotCodec.writeSectionTail(family, into: &tail)
            append(tail)
            finished = true
        }
        return .finished
    }

    /// Calls `body` with the bytes encoded since the last call, then lets them go.
    package func take<R, Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> R) throws(Failure) -> R {
        defer { run.clear() }
        return try body(run.written)
    }

    private func append(_ w: ByteWriter) {
        run.reserve(w.bytes.count)
        w.bytes.withUnsafeBufferPointer { run.bytes($0) }
    }
}
