/// A strict RFC 8259 JSON parser that works directly on UTF-8 bytes.
///
/// It rejects what would make a log line ambiguous: invalid UTF-8, lone surrogates in
/// `\u` escapes, duplicate keys in one object, nesting deeper than ``maxDepth``, and
/// anything after the value except white space.
///
/// Parsing is two passes over the bytes: ``JSONTape/scan(_:)`` checks the whole grammar and
/// records where every value is, allocating nothing but the tape (which a caller may reuse
/// line after line); then the tree is built from the tape, each array sized once.
package enum JSONParser {
    /// Nesting deeper than this is rejected (no event needs more than 4 levels).
    package static let maxDepth = 64

    /// Parses one whole document, or returns nil when it is not valid JSON.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var tape = JSONTape()
        return parse(bytes, reusing: &tape)
    }

    /// Parses one whole document with a tape kept from earlier lines (no tape allocation).
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, reusing tape: inout JSONTape) -> JSONValue? {
        guard tape.scan(bytes), let base = bytes.baseAddress else { return nil }
        return tape.value(at: 0, in: base)
    }

    /// Parses one whole document held in an array.
    package static func parse(_ bytes: [UInt8]) -> JSONValue? {
        bytes.withUnsafeBufferPointer { parse($0) }
    }

    /// Parses one whole document held in a string.
    package static func parse(_ text: String) -> JSONValue? {
        parse(Array(text.utf8))
    }
}
