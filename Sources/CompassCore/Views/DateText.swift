import Foundation

/// Dates as people read them, in a viewer's time zone, with English month names.
///
/// Only the zone's offset at an instant is taken from Foundation; the calendar arithmetic is
/// ours, so output never depends on the machine's locale.
package enum DateText {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Calendar fields of an instant in a zone.
    package static func local(_ time: Timestamp, in zone: TimeZone) -> CivilTime {
        let seconds = Double(CivilTime.floorDivide(time.millisecondsSinceEpoch, 1000).0)
        let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        return CivilTime(millisecondsSinceEpoch: time.millisecondsSinceEpoch + offset * 1000)
    }

    /// `MMM d, yyyy, h:mm a`, e.g. `Feb 3, 2026, 2:15 PM`.
    package static func long(_ time: Timestamp, in zone: TimeZone) -> String {
        let t = local(time, in: zone)
        let hour12 = t.hour % 12 == 0 ? 12 : t.hour % 12
        return "\(months[t.month - 1]) \(t.day), \(t.year), \(hour12):\(pad(t.minute, 2)) \(t.hour < 12 ? "AM" : "PM")"
    }

    /// `MMM d`, e.g. `Jan 15`.
    package static func short(_ time: Timestamp, in zone: TimeZone) -> String {
        let t = local(time, in: zone)
        return "\(months[t.month - 1]) \(t.day)"
    }
}
