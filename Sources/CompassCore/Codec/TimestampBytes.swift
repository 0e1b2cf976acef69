/// A ``Timestamp`` read from and written to a line's bytes in place: the common form
/// `compass` writes, eight bytes at a time, and every other RFC 3339 form.
extension Timestamp {
    /// Writes ``rfc3339`` digit by digit into `out` (at least ``rfc3339Bytes`` long) and
    /// returns its length; nil, writing nothing, for a year outside 0...9999 (rare: written
    /// through ``rfc3339`` itself).
    package func writeRFC3339(into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let parts = CivilTime(millisecondsSinceEpoch: millisecondsSinceEpoch)
        guard (0...9999).contains(parts.year) else { return nil }
        precondition(out.count >= Self.rfc3339Bytes)
        var at = 0
        func put(_ value: Int, _ width: Int) {
            var rest = value
            for k in stride(from: width - 1, through: 0, by: -1) {
                out[at + k] = UInt8(0x30 + rest % 10)
                rest /= 10
            }
            at += width
        }
        func put(_ byte: UInt8) {
            out[at] = byte
            at += 1
        }
        put(parts.year, 4); put(0x2D); put(parts.month, 2); put(0x2D); put(parts.day, 2); put(0x54)
        put(parts.hour, 2); put(0x3A); put(parts.minute, 2); put(0x3A); put(parts.second, 2); put(0x2E)
        put(parts.millisecond, 3); put(0x5A)
        return at
    }

    /// Parses RFC 3339 from UTF-8 bytes, or returns nil.
    public static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        if b.count == 24, let base = b.baseAddress, let time = written(base) { return time }
        return parseAnyForm(b)
    }

    /// The time at `p` when its 24 bytes are in the form ``rfc3339`` writes,
    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, and name a valid time (nil otherwise: ``parseAnyForm(_:)``
    /// then reads them, or tells them invalid).
    ///
    /// Every time in a log written by `compass` is in that form, two on most lines: read eight
    /// bytes at a time, it costs a fraction of the general parser's 540 instructions (a
    /// differential test holds the two equal).
    @inline(__always) static func written(_ p: UnsafePointer<UInt8>) -> Timestamp? {
        let raw = UnsafeRawPointer(p)
        let w0 = raw.loadUnaligned(as: UInt64.self).littleEndian                    // YYYY-MM-
        let w1 = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian  // DDTHH:MM
        let w2 = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian // :SS.sssZ
        // The digits' lanes (byte k of a word is bits 8k…8k+7) and what the others must hold.
        let digits0: UInt64 = 0x00FF_FF00_FFFF_FFFF, separators0: UInt64 = 0x2D00_002D_0000_0000
        let digits1: UInt64 = 0xFFFF_00FF_FF00_FFFF, separators1: UInt64 = 0x0000_3A00_0054_0000
        let digits2: UInt64 = 0x00FF_FFFF_00FF_FF00, separators2: UInt64 = 0x5A00_0000_2E00_003A
        /// Whether the digit lanes hold `0`–`9` and the others exactly their separators: a digit's
        /// high nibble is 3, and its low nibble plus 6 does not reach 16.
        @inline(__always) func shaped(_ w: UInt64, _ digits: UInt64, _ separators: UInt64) -> Bool {
            let highs: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, sixes: UInt64 = 0x0606_0606_0606_0606
            return w & ~digits == separators && w & highs & digits == 0x3030_3030_3030_3030 & digits
                && ((w & ~highs) &+ sixes) & highs & digits == 0
        }
        guard shaped(w0, digits0, separators0), shaped(w1, digits1, separators1), shaped(w2, digits2, separators2) else { return nil }
        @inline(__always) func digit(_ w: UInt64, _ lane: UInt64) -> Int { Int(truncatingIfNeeded: (w >> (lane &* 8)) & 0x0F) }
        @inline(__always) func two(_ w: UInt64, _ lane: UInt64) -> Int { digit(w, lane) &* 10 &+ digit(w, lane &+ 1) }
        let year = two(w0, 0) &* 100 &+ two(w0, 2), month = two(w0, 5), day = two(w1, 0)
        let hour = two(w1, 3), minute = two(w1, 6), second = two(w2, 1)
        let millis = two(w2, 4) &* 10 &+ digit(w2, 6)
        guard month >= 1, month <= 12, day >= 1, day <= CivilTime.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        // A four-digit year in UTC is always within ``validRange``.
        let days = CivilTime.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) &* 86_400 &+ Int64(hour &* 3600 &+ minute &* 60 &+ second)
        return Timestamp(millisecondsSinceEpoch: seconds &* 1000 &+ Int64(millis))
    }

    /// ``parse(_:)`` for every form RFC 3339 allows (any number of fraction digits, an offset
    /// or `z`, a lowercase `t`).
    static func parseAnyForm(_ b: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        // YYYY-MM-DDTHH:MM:SS[.f+](Z|±HH:MM)
        guard b.count >= 20 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for i in start..<(start + count) {
                let byte = b[i]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = digits(0, 4), b[4] == UInt8(ascii: "-"),
              let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
              let day = digits(8, 2),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              let hour = digits(11, 2), b[13] == UInt8(ascii: ":"),
              let minute = digits(14, 2), b[16] == UInt8(ascii: ":"),
              let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= CivilTime.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var millis = 0
        if b[index] == UInt8(ascii: ".") {
            index += 1
            var count = 0
            while index < b.count, b[index] >= 48, b[index] <= 57 {
                if count < 3 { millis = millis * 10 + Int(b[index] - 48) }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in min(count, 3)..<3 { millis *= 10 }
        }
        guard index < b.count else { return nil }
        var offsetMinutes = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = b[index] == UInt8(ascii: "-") ? -1 : 1
            guard b.count - index == 6, let oh = digits(index + 1, 2), b[index + 3] == UInt8(ascii: ":"),
                  let om = digits(index + 4, 2), oh < 24, om < 60 else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
            index += 6
        default:
            return nil
        }
        guard index == b.count else { return nil }
        let days = CivilTime.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        let time = Timestamp(millisecondsSinceEpoch: seconds * 1000 + Int64(millis))
        // SPEC §1: an instant outside years 0000–9999 in UTC is not a valid time, so every
        // time a writer accepts can be written (`YYYY-…Z`) and read back.
        guard Timestamp.validRange.contains(time) else { return nil }
        return time
    }
}
