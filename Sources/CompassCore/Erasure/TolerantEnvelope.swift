/// Whose a line is, read from a line the JSON parser refuses (SPEC §5: every line whose actor
/// is the erased member goes, "readable or not").
///
/// A line with a duplicate key, a lone `\ud800` escape in some text, or nesting deeper than
/// the parser takes still names its `actor` and `family` plainly. This scan reads the string
/// values of the top-level object's keys and of its `data` object's keys, wherever they are
/// and however often they repeat, and skips everything else by counting brackets outside
/// strings: no recursion, so no depth is too deep. It is for erasure only; replay never
/// reads a line this way.
///
/// What it cannot read, nobody can attribute: a line that does not start as a JSON object, or
/// whose `actor` is not a string that decodes (an invalid escape in it), is kept as it is and
/// reported among the unreadable lines.
package struct TolerantEnvelope: Equatable, Sendable {
    /// Every decodable string value of a top-level key, in line order (a duplicate key
    /// gives several).
    package private(set) var topLevel: [String: [String]] = [:]
    /// Every decodable string value of a key of the top-level `data` object.
    package private(set) var data: [String: [String]] = [:]

    /// The values of a top-level key.
    package func values(_ key: String) -> [String] { topLevel[key] ?? [] }

    /// The first value of a top-level key.
    package func first(_ key: String) -> String? { topLevel[key]?.first }

    /// Scans one line (without its `\n`); nil when it does not start as a JSON object.
    package init?(_ line: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let n = line.count
        while i < n, Self.isSpace(line[i]) { i += 1 }
        guard i < n, line[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        var depth = 1
        var inData = false          // inside the top-level `data` object (depth 2)
        var expectingKey = true     // at a tracked level, the next string is a key
        var pendingKey: String?     // a tracked key awaiting its value
        while i < n {
            let byte = line[i]
            let tracked = depth == 1 || (depth == 2 && inData)
            switch byte {
            case UInt8(ascii: "\""):
                guard let (value, end) = Self.string(in: line, from: i) else { return }  // unterminated: stop
                if tracked {
                    if expectingKey {
                        pendingKey = value ?? ""
                        expectingKey = false
                    } else if let key = pendingKey {
                        if let value {
                            if depth == 1 { topLevel[key, default: []].append(value) } else { data[key, default: []].append(value) }
                        }
                        pendingKey = nil
                    }
                }
                i = end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                // The top-level `data` object is tracked too; any other container value is not a string.
                if depth == 1, byte == UInt8(ascii: "{"), pendingKey == "data", !expectingKey {
                    inData = true
                    expectingKey = true
                }
                pendingKey = nil
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth <= 1 { inData = false; pendingKey = nil }
                if depth == 0 { return }
            case UInt8(ascii: ","):
                if tracked { expectingKey = true; pendingKey = nil }
            default:
                break
            }
            i += 1
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The JSON string starting at the quote at `start`: its decoded text (nil when an escape
    /// or its UTF-8 is invalid: a lone surrogate, a bad `\u`) and the index after its closing
    /// quote; nil when it never closes.
    static func string(in line: UnsafeBufferPointer<UInt8>, from start: Int) -> (String?, Int)? {
        var i = start + 1
        var bytes: [UInt8] = []
        var valid = true
        var pendingHigh: UInt32?
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= line.count else { return nil }
            var value: UInt32 = 0
            for k in at..<(at + 4) {
                guard let digit = JSONTape.hexDigit(line[k]) else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        func append(scalar: UInt32) {
            guard let unicode = Unicode.Scalar(scalar) else { valid = false; return }
            bytes.append(contentsOf: Array(String(Character(unicode)).utf8))
        }
        while i < line.count {
            let byte = line[i]
            if byte == UInt8(ascii: "\"") {
                if pendingHigh != nil { valid = false }
                let text = String(decoding: bytes, as: UTF8.self)
                guard valid, text.utf8.elementsEqual(bytes) else { return (nil, i + 1) }  // (invalid UTF-8 was repaired)
                return (text, i + 1)
            }
            if byte == UInt8(ascii: "\\") {
                guard i + 1 < line.count else { return nil }
                let escaped = line[i + 1]
                if escaped == UInt8(ascii: "u") {
                    guard let unit = hex4(i + 2) else { valid = false; i += 2; continue }
                    i += 6
                    if let high = pendingHigh {
                        pendingHigh = nil
                        if (0xDC00...0xDFFF).contains(unit) {
                            append(scalar: 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00))
                        } else {
                            valid = false
                        }
                    } else if (0xD800...0xDBFF).contains(unit) {
                        pendingHigh = unit
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        valid = false
                    } else {
                        append(scalar: unit)
                    }
                    continue
                }
                if pendingHigh != nil { valid = false; pendingHigh = nil }
                switch escaped {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "/"): bytes.append(0x2F)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                default: valid = false
                }
                i += 2
                continue
            }
            if pendingHigh != nil { valid = false; pendingHigh = nil }
            bytes.append(byte)
            i += 1
        }
        return nil
    }
}
