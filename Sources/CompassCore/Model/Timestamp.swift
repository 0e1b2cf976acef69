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

    /// Parses RFC 3339 text, or returns nil.
    public init?(rfc3339 text: String) {
        var text = text
        let parsed = text.withUTF8 { Timestamp.parse($0) }
        guard let parsed else { return nil }
        self = parsed
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
