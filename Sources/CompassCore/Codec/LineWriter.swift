/// Appends a log line's compact JSON to a byte buffer: keys and punctuation as literal bytes,
/// integers and times digit by digit, texts escaped exactly as ``JSONWriter`` escapes them.
///
/// ``EventEncoder`` writes every event through it: a line's shape is fixed (SPEC §1, §2), so
/// what the general writer works out for every field (where commas go, how deep it is, a
/// `String` for each number and time) is written once, in the encoder's code. A differential
/// test holds each line equal to the general writer's output of the line's own parsed tree.
struct LineWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8]

    init(reservingCapacity capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends literal ASCII (keys, punctuation): nothing in it is escaped.
    @inline(__always) mutating func raw(_ literal: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends `"text"`, escaped as ``JSONWriter`` escapes it.
    @inline(__always) mutating func text(_ value: String) {
        JSONWriter.appendQuoted(value, to: &bytes)
    }

    /// Appends an integer's decimal digits (and `-`), without building a `String`.
    mutating func int(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(0x30 + rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// Appends `true` or `false`.
    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Appends a time as a quoted ``Timestamp/rfc3339`` text, written in place.
    mutating func time(_ value: Timestamp) {
        bytes.append(UInt8(ascii: "\""))
        let done: Bool = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Timestamp.rfc3339Bytes) { out in
            guard let count = value.writeRFC3339(into: out) else { return false }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: out[0..<count]))
            return true
        }
        if !done { bytes.append(contentsOf: value.rfc3339.utf8) }  // a year outside 0...9999
        bytes.append(UInt8(ascii: "\""))
    }
}
