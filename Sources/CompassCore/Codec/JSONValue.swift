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

/// Read access to a JSON object's fields by name, whatever holds them: a built
/// ``JSONObject``, or a ``TapeObject`` that builds only the values asked for.
package protocol JSONFields {
    /// The value of `key` (compared by its UTF-8 bytes), or nil when the key is not present.
    subscript(key: String) -> JSONValue? { get }

    /// Hands `body` the UTF-8 bytes of `key`'s string value (where it lies, when it can) and
    /// says what `key` held instead when it is not a string.
    func withText<R>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> JSONTextField<R>

    /// Stages a plain string field's bytes instead of building its text (``TextStaging``):
    /// true when it did, and the field is then left for the fold to take from the staging.
    func stageText(_ key: String, as field: StagedTexts.Field, limit: Int) -> Bool
}

extension JSONFields {
    /// Nothing is staged: the field is read the usual way.
    package func stageText(_ key: String, as field: StagedTexts.Field, limit: Int) -> Bool { false }

    package func withText<R>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> JSONTextField<R> {
        switch self[key] {
        case nil, .null?: return .absent
        case .string(var text)?: return .text(text.withUTF8(body))
        default: return .notText
        }
    }
}

/// What a field held, read as text by ``JSONFields/withText(_:_:)``.
package enum JSONTextField<R> {
    /// Missing or `null`.
    case absent
    /// A value of another kind.
    case notText
    /// A string, and what the body made of its bytes.
    case text(R)
}

/// A JSON object: its members in written order, looked up by key.
///
/// Objects in this product are small (≤ 15 keys), so a linear scan beats hashing.
package struct JSONObject: Equatable, Sendable, JSONFields {
    /// One `"key": value` member.
    package struct Member: Equatable, Sendable {
        package var key: String
        package var value: JSONValue
        package init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    package var members: [Member]

    package init(_ members: [Member] = []) { self.members = members }

    /// The value of `key`, or nil when the key is not present.
    ///
    /// Keys are compared by their UTF-8 bytes, as RFC 8259 compares member names (Swift's `==`
    /// would also match canonically equivalent spellings, and is slower).
    package subscript(key: String) -> JSONValue? {
        let length = key.utf8.count
        for member in members where member.key.utf8.count == length && Self.sameBytes(member.key, key) {
            return member.value
        }
        return nil
    }

    /// Whether two strings have the same UTF-8 bytes (read in place, not through the generic view).
    @inline(__always) static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                for k in 0..<x.count where x[k] != y[k] { return false }
                return true
            }
        }
    }

    /// Appends a member (callers keep keys unique).
    package mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key, value))
    }
}
