/// A moment in time, kept to the millisecond, as milliseconds since 1970-01-01T00:00:00Z.
///
/// Parsed from RFC 3339 (`2026-02-03T14:15:00Z`, `2026-02-03T09:15:00.5-05:00`); extra
/// fraction digits are truncated; impossible dates (`2026-02-30`) and leap seconds are rejected.
/// Written as `YYYY-MM-DDTHH:MM:SS.sssZ`.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    /// This time moved by a number of whole seconds.
    public func adding(seconds: Int64) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: millisecondsSinceEpoch + seconds * 1000)
    }

    /// The output form, `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC.
    public var description: String { rfc3339 }

    /// The output form, `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC.
    public var rfc3339: String {
        // The common case, written digit by digit into the string's own storage.
        let written = String(unsafeUninitializedCapacity: Self.rfc3339Bytes) { writeRFC3339(into: $0) ?? 0 }
        if !written.isEmpty { return written }
        let parts = CivilTime(millisecondsSinceEpoch: millisecondsSinceEpoch)
        var text = ""
        text.reserveCapacity(24)
        text += pad(parts.year, 4) + "-" + pad(parts.month, 2) + "-" + pad(parts.day, 2)
        text += "T" + pad(parts.hour, 2) + ":" + pad(parts.minute, 2) + ":" + pad(parts.second, 2)
        text += "." + pad(parts.millisecond, 3) + "Z"
        return text
    }

    /// The length of ``rfc3339`` for a year from 0 to 9999.
    package static let rfc3339Bytes = 24

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

    /// Parses RFC 3339 text, or returns nil.
    public init?(rfc3339 text: String) {
        var text = text
        let parsed = text.withUTF8 { Timestamp.parse($0) }
        guard let parsed else { return nil }
        self = parsed
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

    /// The valid instants: 0000-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z.
    public static let validRange: ClosedRange<Timestamp> =
        Timestamp(millisecondsSinceEpoch: Int64(CivilTime.daysFromCivil(year: 0, month: 1, day: 1)) * 86_400_000)
        ... Timestamp(millisecondsSinceEpoch: Int64(CivilTime.daysFromCivil(year: 10000, month: 1, day: 1)) * 86_400_000 - 1)
}

/// Calendar fields of a UTC (or offset-shifted) moment, by the proleptic Gregorian calendar.
package struct CivilTime: Equatable, Sendable {
    package var year, month, day, hour, minute, second, millisecond: Int
    /// 0 = Sunday … 6 = Saturday.
    package var weekday: Int

    /// Splits milliseconds since the epoch into calendar fields.
    package init(millisecondsSinceEpoch ms: Int64) {
        let (daysFloor, msOfDay) = Self.floorDivide(ms, 86_400_000)
        let days = Int(daysFloor)
        (year, month, day) = Self.civilFromDays(days)
        let msInDay = Int(msOfDay)
        hour = msInDay / 3_600_000
        minute = msInDay / 60_000 % 60
        second = msInDay / 1000 % 60
        millisecond = msInDay % 1000
        weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday (4)
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b
        let r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
