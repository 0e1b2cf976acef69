import Testing
@testable import CompassCore

/// Hex digits read sixteen at a time with SSE2 on x86-64 (a line's `prev`, a UUID event id),
/// held to the portable Swift reading and to the standard library's parse.
@Suite struct HexDigitsTests {
    static let lowerHex = Array("0123456789abcdef".utf8)

    /// Both readings of `digits` into `count` bytes: whether each read them, and the bytes.
    static func read(_ digits: [UInt8], count: Int) -> (fast: [UInt8]?, portable: [UInt8]?) {
        digits.withUnsafeBufferPointer { p in
            var fast = [UInt8](repeating: 0, count: count), portable = fast
            let a = fast.withUnsafeMutableBytes { ByteClass.hexBytes(p.baseAddress!, count: count, into: $0.baseAddress!) }
            let b = portable.withUnsafeMutableBytes { ByteClass.portableHexBytes(p.baseAddress!, count: count, into: $0.baseAddress!) }
            return (a ? fast : nil, b ? portable : nil)
        }
    }

    /// Random digits, and each with one byte changed to every other value, read both ways and
    /// by `UInt8(_:radix:)` pair by pair.
    @Test func digitsAreReadAsThePortableCodeAndTheStandardLibraryReadThem() {
        var rng = SplitMix64(seed: 0x4E5)
        for count in [8, 16, 32] {
            for _ in 0..<40 {
                let digits = (0..<(2 * count)).map { _ in Self.lowerHex[Int(rng.next() % 16)] }
                let expected = stride(from: 0, to: 2 * count, by: 2).map { UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)! }
                let (fast, portable) = Self.read(digits, count: count)
                #expect(fast == expected && portable == expected)
                let place = Int(rng.next() % UInt64(2 * count))
                for value in 0...255 {
                    var changed = digits
                    changed[place] = UInt8(value)
                    let (fast, portable) = Self.read(changed, count: count)
                    #expect(fast == portable, "\(value) at \(place)")
                    #expect((fast != nil) == Self.lowerHex.contains(UInt8(value)), "\(value) at \(place)")
                }
            }
        }
    }

    /// A UUID's key is its 32 digits as two big-endian words; any other byte anywhere, an
    /// uppercase digit or a dash out of place, gives none.
    @Test func aUUIDsKeyIsItsDigitsAndNothingElseHasOne() {
        var rng = SplitMix64(seed: 0x1D5)
        for _ in 0..<60 {
            let digits = (0..<32).map { _ in Self.lowerHex[Int(rng.next() % 16)] }
            var id = digits
            for dash in [8, 13, 18, 23] { id.insert(UInt8(ascii: "-"), at: dash) }
            let high = UInt64(String(decoding: digits[0..<16], as: UTF8.self), radix: 16)!
            let low = UInt64(String(decoding: digits[16..<32], as: UTF8.self), radix: 16)!
            let key = id.withUnsafeBufferPointer { EventIdSet.uuidKey(bytes: $0) }
            #expect(key?.0 == high && key?.1 == low)
            let place = Int(rng.next() % 36)
            for value in 0...255 where value != Int(id[place]) {
                var changed = id
                changed[place] = UInt8(value)
                let still = [8, 13, 18, 23].contains(place) ? false : Self.lowerHex.contains(UInt8(value))
                #expect((changed.withUnsafeBufferPointer { EventIdSet.uuidKey(bytes: $0) } != nil) == still, "\(value) at \(place)")
            }
        }
    }

    /// A line's `prev` read back into the words of the hash it spells.
    @Test func aHashIsReadBackFromItsHex() {
        for text in ["", "a", "{\"seq\":1}", String(repeating: "x", count: 1_000)] {
            let hash = Array(text.utf8).withUnsafeBufferPointer { LineHash(of: $0) }
            let hex = Array(hash.hex.utf8)
            #expect(hex.withUnsafeBufferPointer { LineHash(hex: $0) } == hash)
            var upper = hex
            upper[Int(hex.firstIndex { $0 >= UInt8(ascii: "a") } ?? 0)] &= ~0x20
            #expect(upper == hex || upper.withUnsafeBufferPointer { LineHash(hex: $0) } == nil)
        }
    }
}
