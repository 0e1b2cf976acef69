/// Validates UTF-8 without building a `String`.
enum UTF8Check {
    /// The number of UTF-16 code units the bytes decode to, or nil when they are not valid
    /// UTF-8 (overlong forms, surrogates, values past U+10FFFF and cut sequences are invalid,
    /// as they are to Swift's `String`).
    static func utf16Count(ifValid bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        var units = 0
        var i = 0
        while i < count {
            // Eight ASCII bytes at a time.
            if i + 8 <= count, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                units += 8
                continue
            }
            if base[i] < 0x80 {
                i += 1
                units += 1
                continue
            }
            guard let length = sequenceLength(base, at: i, end: count) else { return nil }
            i += length
            units += length == 4 ? 2 : 1
        }
        return units
    }

    /// The length (2 to 4) of the valid UTF-8 sequence whose lead byte, not ASCII, is at `i`,
    /// its bytes before `end`; nil when it is not one (Unicode's table 3-7).
    @inline(__always) static func sequenceLength(_ base: UnsafePointer<UInt8>, at i: Int, end: Int) -> Int? {
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            i + offset < end && range.contains(base[i + offset])
        }
        let lead = base[i]
        switch lead {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : nil
        case 0xE0...0xEF:
            let second: ClosedRange<UInt8> = lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
            return continuation(1, second) && continuation(2) ? 3 : nil
        case 0xF0...0xF4:
            let second: ClosedRange<UInt8> = lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
            return continuation(1, second) && continuation(2) && continuation(3) ? 4 : nil
        default:
            return nil
        }
    }
}
