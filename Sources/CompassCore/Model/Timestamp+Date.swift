import Foundation

extension Timestamp {
    /// The instant of a `Date`, to the millisecond (rounded down).
    public init(_ date: Date) {
        self.init(millisecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// This instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSinceEpoch) / 1000) }
}
