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
        while i < line.count, line[i] != UInt8(ascii: "\"") {
            i += line[i] == UInt8(ascii: "\\") ? 2 : 1  // an escape's second byte never closes the string
        }
        guard i < line.count else { return nil }
        guard let bytes = JSONEscapes.decoded(UnsafeBufferPointer(rebasing: line[(start + 1)..<i])) else { return (nil, i + 1) }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { return (nil, i + 1) }  // (invalid UTF-8 was repaired)
        return (text, i + 1)
    }
}
