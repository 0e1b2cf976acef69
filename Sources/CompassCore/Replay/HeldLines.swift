/// Lines held end to end in one buffer (without their `\n`), each by its range there: a
/// family's lines read from their places in the log (``FamilyLines``), to be checked and
/// folded on their own.
package struct HeldLines: Sendable {
    package private(set) var bytes: [UInt8] = []
    package private(set) var ranges: [Range<Int>] = []

    package init() {}

    /// Makes room for `count` lines of `byteCount` bytes in all.
    package mutating func reserve(lines count: Int, bytes byteCount: Int) {
        bytes.reserveCapacity(byteCount)
        ranges.reserveCapacity(count)
    }

    /// Adds a line's bytes.
    package mutating func append(_ line: ArraySlice<UInt8>) {
        ranges.append(bytes.count..<(bytes.count + line.count))
        bytes += line
    }

    /// How many lines it holds.
    package var count: Int { ranges.count }

    /// Each line's SHA-256, two lines at a time through the SHA unit where there is one.
    package func hashes() -> [LineHash] {
        guard !ranges.isEmpty else { return [] }
        return [LineHash](unsafeUninitializedCapacity: ranges.count) { hashes, initialized in
            bytes.withUnsafeBufferPointer { all in
                ranges.withUnsafeBufferPointer { SHA256.lineHashes(of: $0, in: all, into: hashes.baseAddress!) }
            }
            initialized = ranges.count
        }
    }

    /// The `prev` line `index` ends with as `compass` writes it (`…,"prev":"HEX"}`), or nil.
    package func endingPrev(of index: Int) -> LineHash? {
        let line = bytes[ranges[index]]
        let key = Self.prevKey.count
        guard line.count > key + 64 + 2, line.last == UInt8(ascii: "}"),
              line[line.endIndex - 2] == UInt8(ascii: "\"") else { return nil }
        let start = line.endIndex - 2 - 64 - key
        guard line[start..<(start + key)].elementsEqual(Self.prevKey) else { return nil }
        return bytes.withUnsafeBufferPointer { LineHash(hex: UnsafeBufferPointer(rebasing: $0[(start + key)..<(line.endIndex - 2)])) }
    }

    static let prevKey = Array(#","prev":""#.utf8)
}

extension Replayer {
    /// Replays line `index` of `lines`, a line of a family's stream read on its own, numbered
    /// and placed as it is in the log (``consume(familyLine:number:offset:hash:tape:)``).
    @discardableResult
    package mutating func consume(_ index: Int, of lines: HeldLines, number: Int, offset: Int, hash: LineHash? = nil,
                                  tape: inout JSONTape) -> Bool {
        lines.bytes.withUnsafeBufferPointer { all in
            consume(familyLine: UnsafeBufferPointer(rebasing: all[lines.ranges[index]]), number: number, offset: offset,
                    hash: hash, tape: &tape)
        }
    }
}
