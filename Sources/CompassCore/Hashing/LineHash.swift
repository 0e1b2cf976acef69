/// A line's SHA-256 as the hasher's eight state words: what replay keeps for the last line
/// read and compares with the next line's `prev`, with no string made per line. Spelled in
/// hex only when asked (``hex``).
package struct LineHash: Equatable, Sendable {
    /// The digest's words in FIPS 180-4 order (each word's big-endian bytes are the digest's).
    private let words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    init(words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)) {
        self.words = words
    }

    /// The hash 64 lowercase hex digits spell (a line's `prev`, read without a string), or nil.
    package init?(hex digits: UnsafeBufferPointer<UInt8>) {
        guard digits.count == 64, let start = digits.baseAddress else { return nil }
        var parsed: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0, 0, 0)
        guard withUnsafeMutableBytes(of: &parsed, { ByteClass.hexBytes(start, count: 32, into: $0.baseAddress!) }) else { return nil }
        // The bytes in order are each word's, most significant first.
        words = (UInt32(bigEndian: parsed.0), UInt32(bigEndian: parsed.1), UInt32(bigEndian: parsed.2), UInt32(bigEndian: parsed.3),
                 UInt32(bigEndian: parsed.4), UInt32(bigEndian: parsed.5), UInt32(bigEndian: parsed.6), UInt32(bigEndian: parsed.7))
    }

    /// The SHA-256 of a line's bytes.
    package init(of bytes: UnsafeBufferPointer<UInt8>) {
        self = SHA256.lineHash(bytes)
    }

    /// The 64 lowercase hex digits the log writes.
    package var hex: String {
        String(unsafeUninitializedCapacity: 64) { out in
            writeHex(to: out.baseAddress!)
            return 64
        }
    }

    /// Writes the 64 lowercase hex digits at `out` (a sealed line's `prev`, with no string made).
    package func writeHex(to out: UnsafeMutablePointer<UInt8>) {
        withSpelling { word, spelled in
            withUnsafeBytes(of: spelled.littleEndian) { out.advanced(by: word * 8).initialize(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: 8) }
        }
    }

    /// Whether `text` is this hash's 64 lowercase hex digits (compared in place, eight
    /// digits at a time: the fold checks every line's `prev` with it).
    package func isSpelled(by text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == 64, let start = bytes.baseAddress else { return false }
            var difference: UInt64 = 0
            withSpelling { word, spelled in
                difference |= spelled ^ UInt64(littleEndian: UnsafeRawPointer(start + word * 8).loadUnaligned(as: UInt64.self))
            }
            return difference == 0
        }
    }

    /// Calls `body` with each word's eight hex digits as the bytes of a `UInt64` (the first
    /// digit in the lowest byte).
    @inline(__always) private func withSpelling(_ body: (Int, UInt64) -> Void) {
        Self.digitPairs.withUnsafeBufferPointer { pairs in
            withUnsafeBytes(of: words) { raw in
                for word in 0..<8 {
                    let value = raw.load(fromByteOffset: word * 4, as: UInt32.self)
                    let spelled = UInt64(pairs[Int(value >> 24)]) | UInt64(pairs[Int((value >> 16) & 0xFF)]) << 16
                        | UInt64(pairs[Int((value >> 8) & 0xFF)]) << 32 | UInt64(pairs[Int(value & 0xFF)]) << 48
                    body(word, spelled)
                }
            }
        }
    }

    /// For each byte, its two lowercase hex digits (the high one in the low byte).
    private static let digitPairs: [UInt16] = (0..<256).map { byte in
        func digit(_ nibble: Int) -> UInt16 { UInt16(nibble < 10 ? 0x30 + nibble : 0x57 + nibble) }
        return digit(byte >> 4) | digit(byte & 0x0F) << 8
    }

    /// Compared a word at a time, with no early exit (the fold compares every
    /// line's `prev` with its stream's head; a byte-by-byte `elementsEqual` was 2 % of it).
    package static func == (a: LineHash, b: LineHash) -> Bool {
        let (x, y) = (a.words, b.words)
        return (x.0 ^ y.0) | (x.1 ^ y.1) | (x.2 ^ y.2) | (x.3 ^ y.3) | (x.4 ^ y.4) | (x.5 ^ y.5) | (x.6 ^ y.6) | (x.7 ^ y.7) == 0
    }
}
