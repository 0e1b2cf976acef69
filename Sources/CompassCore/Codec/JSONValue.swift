/// A parsed JSON value that keeps object keys in the order they were written.
///
/// Integers written without a fraction or exponent that fit in 64 bits are `.int`;
/// every other number is `.number`.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

}
