/// One cell of a projected row.
public enum ProjectionValue: Hashable, Sendable {
    case text(String)
    case time(Timestamp)
    case count(Int64)
    case null

    /// A text cell, or null. PostgreSQL's `text` cannot hold U+0000: it is written as U+FFFD
    /// (the one way a projected text may differ from the log's).
    static func text(_ value: String?) -> ProjectionValue {
        guard let value else { return .null }
        guard value.utf8.contains(0) else { return .text(value) }
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars { scalars.append(scalar == "\u{0}" ? "\u{FFFD}" : scalar) }
        return .text(String(scalars))
    }

    /// A time cell, or null.
    static func time(_ value: Timestamp?) -> ProjectionValue { value.map { .time($0) } ?? .null }

    /// A count cell, or null.
    static func count<I: BinaryInteger>(_ value: I?) -> ProjectionValue { value.map { .count(Int64($0)) } ?? .null }
}
