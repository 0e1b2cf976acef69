/// The bytes a JSON string's body (what lies between its quotes) stands for, its `\` escapes
/// decoded: the tape's strings and erasure's tolerant scan of broken lines decode with it.
enum JSONEscapes {
    /// The decoded UTF-8 bytes, or nil when an escape is not JSON's: an unknown letter, a `\u`
    /// without four hex digits, a surrogate without its other half.
    static func decoded(_ body: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count)
        var i = 0
        while i < body.count {
            let byte = body[i]
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                i += 1
                continue
            }
            guard i + 1 < body.count else { return nil }
            let escape = body[i + 1]
            i += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(body, i) else { return nil }
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate takes the low one written right after it.
                    guard i + 1 < body.count, body[i] == UInt8(ascii: "\\"), body[i + 1] == UInt8(ascii: "u"),
                          let low = hex4(body, i + 2), (0xDC00...0xDFFF).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                guard let unicode = Unicode.Scalar(scalar) else { return nil }  // a lone low surrogate
                bytes.append(contentsOf: String(Character(unicode)).utf8)
            default:
                return nil
            }
        }
        return bytes
    }

    /// The four hex digits at `at` as a number, or nil.
    static func hex4(_ body: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32? {
        guard at + 4 <= body.count else { return nil }
        var value: UInt32 = 0
        for k in at..<(at + 4) {
            guard let digit = JSONTape.hexDigit(body[k]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
