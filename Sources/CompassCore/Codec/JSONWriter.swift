/// Writes compact JSON bytes: keys in the order the caller gives, strings as raw UTF-8
/// with only `"`, `\` and U+0000–U+001F escaped.
package struct JSONWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    package init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The output followed by `\n`, consuming the writer (no copy of the bytes).
    package consuming func line() -> [UInt8] {
        bytes.append(0x0A)
        return bytes
    }

    /// The output as a string.
    package var string: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    package mutating func endObject() { needsComma.removeLast(); bytes.append(UInt8(ascii: "}")) }
    package mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    package mutating func endArray() { needsComma.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// Writes `"key":` (the value must follow).
    package mutating func key(_ key: String) {
        separate()
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = false }
    }

    package mutating func string(_ value: String) { separate(); appendString(value) }
    package mutating func int<I: BinaryInteger>(_ value: I) { separate(); bytes.append(contentsOf: String(value).utf8) }
    package mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: (value ? "true" : "false").utf8) }
    package mutating func null() { separate(); bytes.append(contentsOf: "null".utf8) }

    /// Writes a string or `null`.
    package mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Writes an integer or `null`.
    package mutating func int<I: BinaryInteger>(_ value: I?) {
        if let value { int(value) } else { null() }
    }

    /// Writes `"key":value` for a string field.
    package mutating func field(_ name: String, _ value: String?) { key(name); string(value) }
    /// Writes `"key":value` for an integer field.
    package mutating func field<I: BinaryInteger>(_ name: String, _ value: I?) { key(name); int(value) }
    /// Writes `"key":value` for a boolean field.
    package mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }

    /// Writes any parsed JSON value.
    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .int(let integer): int(integer)
        case .number(let double):
            separate()
            bytes.append(contentsOf: "\(double)".utf8)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members { key(member.key); self.value(member.value) }
            endObject()
        }
    }

    private mutating func separate() {
        guard let last = needsComma.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) } else { needsComma[needsComma.count - 1] = true }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends a quoted string: runs that need no escape are copied in bulk.
    private mutating func appendString(_ value: String) {
        Self.appendQuoted(value, to: &bytes)
    }

    /// Appends `"value"` to `bytes`, with `"`, `\` and U+0000–U+001F escaped; runs that need
    /// no escape are copied in bulk (``LineWriter`` writes texts through it too).
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") { continue }
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                appendEscape(byte, to: &bytes)
                runStart = index + 1
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(0x5C); bytes.append(byte)
        case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(0x5C); bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(0x5C); bytes.append(UInt8(ascii: "f"))
        default:
            bytes.append(contentsOf: "\\u00".utf8)
            bytes.append(hexDigits[Int(byte >> 4)])
            bytes.append(hexDigits[Int(byte & 0x0F)])
        }
    }
}
