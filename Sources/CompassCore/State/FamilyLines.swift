/// A line's number in the file, and where its bytes are (without the `\n`).
package typealias LinePlace = (line: Int, offset: Int, length: Int)

/// Where one family's lines are in the log, in file order: each one's line number, offset
/// and length. A read of one family's history (its audit, a time travel by `seq`) reads
/// those lines alone instead of the whole log (``Replayer/consume(familyLine:number:offset:hash:tape:)``).
///
/// A replay records every line of the family it folds or counts as erased; a line it
/// refused is not recorded, so the index is whole only while the family's stream has no
/// problem (its count then equals the stream's ``FamilyStream/lines``), and a reader checks
/// that before it relies on it.
///
/// The places are kept as base-128 differences from the line before (its number, the gap
/// from its end, the length): about five bytes a line, so a replay of a large log keeps them
/// all for little memory.
package struct FamilyLines: Sendable {
    /// The places, three base-128 numbers each (``ByteWriter/uint(_:)``).
    private var encoded = ByteWriter()
    /// How many places are recorded.
    package private(set) var count = 0
    /// The last line recorded: its number and where its bytes end.
    private var last = (line: 0, end: 0)
    /// False once a line could not be recorded (one before the last in the file): the index
    /// is then of no use.
    package private(set) var isWhole = true

    package init() {}

    /// Records the next line of the family.
    mutating func record(_ place: LinePlace) {
        guard isWhole else { return }
        guard place.line > last.line, place.offset >= last.end, place.length >= 0 else {
            self = FamilyLines()
            isWhole = false
            return
        }
        encoded.uint(UInt64(place.line - last.line))
        encoded.uint(UInt64(place.offset - last.end))
        encoded.uint(UInt64(place.length))
        last = (place.line, place.offset + place.length)
        count += 1
    }

    /// Every place recorded, in order.
    package var places: [LinePlace] {
        var places: [LinePlace] = []
        places.reserveCapacity(count)
        _ = Self.walk(encoded.bytes, count: count) { places.append($0) }
        return places
    }

    /// Calls `body` with each place that `count` places in `bytes` spell; false when they do
    /// not spell that many (or spell more bytes).
    private static func walk(_ bytes: [UInt8], count: Int, _ body: (LinePlace) -> Void) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var r = ByteReader(buffer)
            var (line, end) = (0, 0)
            for _ in 0..<count {
                guard let step = r.uint(), let gap = r.uint(), let length = r.uint(), step > 0,
                      step <= UInt64(Int.max - line), length <= UInt64(Int.max - end),
                      gap <= UInt64(Int.max - end) - length else { return false }
                line += Int(step)
                let offset = end + Int(gap)
                body((line, offset, Int(length)))
                end = offset + Int(length)
            }
            return r.isAtEnd
        }
    }

    /// Whether both record the same lines at the same places.
    package func isSame(as other: FamilyLines) -> Bool { isWhole == other.isWhole && count == other.count && encoded.bytes == other.encoded.bytes }

    /// Writes the index for a snapshot: how many places plus one (0: not whole), then their bytes.
    func encode(into w: inout ByteWriter) {
        guard isWhole else { w.uint(0); return }
        w.uint(UInt64(count) + 1)
        w.uint(UInt64(encoded.bytes.count))
        w.bytes += encoded.bytes
    }

    /// Reads what ``encode(into:)`` wrote; nil when it does not read.
    static func decode(from r: inout ByteReader) -> FamilyLines? {
        guard let stored = r.uint() else { return nil }
        var lines = FamilyLines()
        guard stored > 0 else { lines.isWhole = false; return lines }
        guard let length = r.uint(), length <= UInt64(r.buffer.count), stored - 1 <= length else { return nil }
        let taken = r.take(Int(length))
        guard taken.count == Int(length) else { return nil }
        lines.encoded.bytes = Array(taken)
        lines.count = Int(stored - 1)
        var last = (line: 0, end: 0)
        guard walk(lines.encoded.bytes, count: lines.count, { last = ($0.line, $0.offset + $0.length) }) else { return nil }
        lines.last = last
        return lines
    }
}

extension FamilyLines: Equatable {
    /// Always equal: where a family's lines are is not part of what the family is (the same
    /// lines folded from a family's export, a migrated log or a database fold to equal
    /// families). ``isSame(as:)`` compares the places themselves.
    package static func == (a: FamilyLines, b: FamilyLines) -> Bool { true }
}
