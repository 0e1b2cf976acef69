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
