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
            let lead = base[i]
            if lead < 0x80 {
                i += 1
                units += 1
                continue
            }
            func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
                i + offset < count && range.contains(base[i + offset])
            }
            switch lead {
            case 0xC2...0xDF:
                guard continuation(1) else { return nil }
                i += 2
                units += 1
            case 0xE0...0xEF:
                let second: ClosedRange<UInt8> = lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
                guard continuation(1, second), continuation(2) else { return nil }
                i += 3
                units += 1
            case 0xF0...0xF4:
                let second: ClosedRange<UInt8> = lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
                guard continuation(1, second), continuation(2), continuation(3) else { return nil }
                i += 4
                units += 2
            default:
                return nil
            }
        }
        return units
    }
}
