/// A line's SHA-256 as the hasher's eight state words: what replay keeps for the last line
/// read and compares with the next line's `prev`, with no string made per line. Spelled in
/// hex only when asked (``hex``).
package struct LineHash: Equatable, Sendable {
    /// The digest's words in FIPS 180-4 order (each word's big-endian bytes are the digest's).
    private let words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    init(words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)) {
        self.words = words
    }

    /// The SHA-256 of a line's bytes.
    package init(of bytes: UnsafeBufferPointer<UInt8>) {
        self = SHA256.lineHash(bytes)
    }

    /// The 64 lowercase hex digits the log writes.
    package var hex: String {
        String(unsafeUninitializedCapacity: 64) { out in
            withDigits { digit, at in out[at] = digit }
            return 64
        }
    }

    /// Whether `text` is this hash's 64 lowercase hex digits (compared in place).
    package func isSpelled(by text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == 64 else { return false }
            var same = true
            withDigits { digit, at in same = same && bytes[at] == digit }
            return same
        }
    }

    /// Calls `body` with each hex digit and its position.
    @inline(__always) private func withDigits(_ body: (UInt8, Int) -> Void) {
        withUnsafeBytes(of: words) { raw in
            for word in 0..<8 {
                let value = raw.load(fromByteOffset: word * 4, as: UInt32.self)
                for nibble in 0..<8 {
                    let digit = UInt8(truncatingIfNeeded: value >> UInt32(28 - 4 * nibble)) & 0x0F
                    body(digit < 10 ? 0x30 + digit : 0x57 + digit, word * 8 + nibble)
                }
            }
        }
    }

    package static func == (a: LineHash, b: LineHash) -> Bool {
        withUnsafeBytes(of: a.words) { x in withUnsafeBytes(of: b.words) { y in x.elementsEqual(y) } }
    }
}
