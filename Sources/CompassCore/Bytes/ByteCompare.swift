import CompassMachine

/// Equality of raw byte runs, eight bytes at a time: keys, type names and ids are compared
/// where they lie in a line, without building a `String` for either side.
enum ByteCompare {
    /// Whether the `count` bytes at `a` equal the `count` bytes at `b`.
    @inline(__always) static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        var k = 0
        while count &- k >= 8 {
            if UnsafeRawPointer(a + k).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + k).loadUnaligned(as: UInt64.self) {
                return false
            }
            k &+= 8
        }
        while k < count {
            if a[k] != b[k] { return false }
            k &+= 1
        }
        return true
    }

    /// Whether `bytes` spell `word`.
    @inline(__always) static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        guard let base = bytes.baseAddress else { return true }
        return equal(base, word.utf8Start, count: bytes.count)
    }
}

/// Classes of bytes checked eight at a time (SWAR): ids and hashes are validated where they
/// lie in a line at a fraction of a cycle per byte.
enum ByteClass {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// High bit of each byte lane set where the lane's 7-bit value is in `low...high`
    /// (`x` must have no high bits set; `low` ≥ 1, `high` ≤ 0x7E).
    @inline(__always) private static func inRange(_ x: UInt64, _ low: UInt64, _ high: UInt64) -> UInt64 {
        let set = x | highs
        return (set &- ones &* low) & ~(set &- ones &* (high &+ 1)) & highs
    }

    /// Whether every byte is an id byte (`A–Z a–z 0–9 _ . : -`).
    @inline(__always) static func allIdBytes(_ p: UnsafePointer<UInt8>, count: Int) -> Bool {
        idRunEnd(p, from: 0, to: count) == count
    }

    /// Where a run of id bytes from `start` stops: at the first byte that is not one, or at `n`.
    @inline(__always) static func idRunEnd(_ p: UnsafePointer<UInt8>, from start: Int, to n: Int) -> Int {
        var k = start
        while n &- k >= 8 {
            let x = UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self)
            // A non-ASCII lane's flag is cleared by `~x` (its 7-bit value may be in a range).
            let ok = (inRange(x, 0x41, 0x5A) | inRange(x, 0x61, 0x7A) | inRange(x, 0x30, 0x3A)
                | inRange(x, 0x2D, 0x2E) | inRange(x, 0x5F, 0x5F)) & ~x
            if ok != highs { return k &+ ((ok ^ highs).trailingZeroBitCount &>> 3) }
            k &+= 8
        }
        while k < n, Identifier.isIdByte(p[k]) { k &+= 1 }
        return k
    }

    /// Where the first quote (`"`) at or after `start` is, or `n` when there is none.
    @inline(__always) static func quoteIndex(_ p: UnsafePointer<UInt8>, from start: Int, to n: Int) -> Int {
        var k = start
        while n &- k >= 8 {
            let x = UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self) ^ (ones &* 0x22)  // a quote's lane is zero
            // The lowest flag is exact (a false one can only follow a true one, from the borrow).
            let zero = (x &- ones) & ~x & highs
            if zero != 0 { return k &+ (zero.trailingZeroBitCount &>> 3) }
            k &+= 8
        }
        while k < n, p[k] != UInt8(ascii: "\"") { k &+= 1 }
        return k
    }

    /// The value of eight lowercase hex digits loaded little-endian (the first digit in the
    /// lowest byte, and the most significant in the value); the digits must be checked first.
    /// Four digits in the low half, with zeros above, give their value shifted left by 16.
    @inline(__always) static func hexValue(_ x: UInt64) -> UInt32 {
        // '0'–'9' are 0x30–0x39, 'a'–'f' 0x61–0x66: a digit's value is its low nibble, plus 9
        // when bit 6 is set (a letter).
        let nibbles = (x & 0x0F0F_0F0F_0F0F_0F0F) &+ ((x >> 6) & 0x0101_0101_0101_0101) &* 9
        // Pairs of digits into bytes (the first digit is the high nibble), then the four bytes
        // together: the first pair ends up lowest, so the value is their byte swap.
        let pairs = ((nibbles & 0x000F_000F_000F_000F) << 4) | ((nibbles & 0x0F00_0F00_0F00_0F00) >> 8)
        let packed = (pairs & 0xFF) | (pairs >> 8 & 0xFF00) | (pairs >> 16 & 0xFF_0000) | (pairs >> 24 & 0xFF00_0000)
        return UInt32(truncatingIfNeeded: packed).byteSwapped
    }

    /// Reads `2 * count` lowercase hex digits (`count` a multiple of 4) into `count` bytes at
    /// `out`, the first digit the high nibble of the first byte; false when one is not a
    /// lowercase hex digit. On x86-64, sixteen digits at a time (SSE2, in C) when `count` is a
    /// multiple of 8: a line's `prev` and its UUID id are 96 digits, and checked and read eight
    /// at a time they took about 700 instructions a line.
    @inline(__always) static func hexBytes(_ digits: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutableRawPointer) -> Bool {
        #if arch(x86_64) && !COMPASS_PORTABLE
        if count % 8 == 0 { return compass_hex_bytes(digits, out.assumingMemoryBound(to: UInt8.self), count) != 0 }
        #endif
        return portableHexBytes(digits, count: count, into: out)
    }

    /// ``hexBytes(_:count:into:)`` in Swift, eight digits at a time: the path off x86-64, and
    /// what the tests hold the SSE2 one to.
    static func portableHexBytes(_ digits: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutableRawPointer) -> Bool {
        guard allLowerHex(digits, count: 2 * count) else { return false }
        for k in stride(from: 0, to: count, by: 4) {
            let x = UInt64(littleEndian: UnsafeRawPointer(digits + 2 * k).loadUnaligned(as: UInt64.self))
            out.storeBytes(of: hexValue(x).bigEndian, toByteOffset: k, as: UInt32.self)
        }
        return true
    }

    /// Whether every byte is a lowercase hex digit.
    @inline(__always) static func allLowerHex(_ p: UnsafePointer<UInt8>, count: Int) -> Bool {
        var k = 0
        while count &- k >= 8 {
            let x = UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self)
            if x & highs != 0 { return false }
            if inRange(x, 0x30, 0x39) | inRange(x, 0x61, 0x66) != highs { return false }
            k &+= 8
        }
        while k < count {
            let byte = p[k]
            if !((byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)) { return false }
            k &+= 1
        }
        return true
    }
}
