/// Reads payload fields with the SPEC's rule: a missing, wrong-typed or invalid value of a
/// field that has a message gets that message; `null` (and `""` for optional text) is absent.
struct PayloadReader<Fields: JSONFields> {
    let data: Fields

    /// A field whose only rule is its shape (`missing field data.F` / `field data.F must be an id`).
    func requiredId(_ key: String) throws(EventError) -> String {
        // The path is spelled only for a message (not on every line that passes).
        switch idField(key) {
        case .absent: throw .missing("data.\(key)")
        case .empty, .notId: throw .mustBe("data.\(key)", "an id")
        case .id(let text): return text
        }
    }

    /// An optional id with no message of its own.
    func optionalId(_ key: String) throws(EventError) -> String? {
        switch idField(key) {
        case .absent, .empty: return nil
        case .notId: throw .mustBe("data.\(key)", "an id")
        case .id(let text): return text
        }
    }

    /// What an id field holds, read from its bytes: the text is built only for a valid id.
    private enum IdField {
        /// Missing or `null`.
        case absent
        /// `""`.
        case empty
        /// Another kind of value, or a string that is not an id.
        case notId
        case id(String)
    }

    private func idField(_ key: String) -> IdField {
        let field = data.withText(key) { bytes -> IdField in
            guard !bytes.isEmpty else { return .empty }
            return Identifier.isValid(bytes: bytes) ? .id(String(decoding: bytes, as: UTF8.self)) : .notId
        }
        switch field {
        case .absent: return .absent
        case .notText: return .notId
        case .text(let read): return read
        }
    }

    /// Optional text with no message of its own.
    func optionalText(_ key: String) throws(EventError) -> String? {
        guard let value = data[key], value != .null else { return nil }
        guard case .string(let text) = value else { throw .mustBe("data.\(key)", "a string") }
        return text.isEmpty ? nil : text
    }

    /// Optional non-negative integer with no message of its own.
    /// A required boolean (shape problems only: the SPEC gives it no message).
    func bool(_ key: String) throws(EventError) -> Bool {
        guard let value = data[key], value != .null else { throw .missing("data.\(key)") }
        guard case .bool(let flag) = value else { throw .mustBe("data.\(key)", "a boolean") }
        return flag
    }

    /// A required SHA-256 hash: 64 lowercase hex digits.
    func hash(_ key: String) throws(EventError) -> String {
        guard let value = data[key], value != .null else { throw .missing("data.\(key)") }
        guard case .string(let text) = value, SHA256.isHex(text) else { throw .mustBe("data.\(key)", "a SHA-256 hash") }
        return text
    }

    /// A required integer ≥ 0.
    func count(_ key: String) throws(EventError) -> Int64 {
        guard let value = try optionalCount(key) else { throw .missing("data.\(key)") }
        return value
    }

    func optionalCount(_ key: String) throws(EventError) -> Int64? {
        guard let value = data[key], value != .null else { return nil }
        guard case .int(let number) = value, number >= 0 else { throw .mustBe("data.\(key)", "an integer ≥ 0") }
        return number
    }

    /// Required text, or `message`.
    func text(_ key: String, else message: @autoclosure () -> String) throws(EventError) -> String {
        guard case .string(let text)? = data[key] else { throw EventError(message()) }
        return text
    }

    /// Optional text that has a message when wrong-typed.
    func optionalText(_ key: String, else message: @autoclosure () -> String) throws(EventError) -> String? {
        guard let value = data[key], value != .null else { return nil }
        guard case .string(let text) = value else { throw EventError(message()) }
        return text.isEmpty ? nil : text
    }

    /// Required text that is not blank, or `message`.
    func nonBlank(_ key: String, else message: String) throws(EventError) -> String {
        let value = try text(key, else: message)
        guard !TextRules.isBlank(value) else { throw EventError(message) }
        return value
    }

    /// A required value from a fixed set, or `message`.
    /// Read from the field's bytes (``ByteSpelled``).
    func choice<E: ByteSpelled>(_ key: String, _: E.Type, else message: String) throws(EventError) -> E {
        guard case .text(let value?) = data.withText(key, { E.spelled(by: $0) }) else { throw EventError(message) }
        return value
    }

    /// An optional value from a fixed set (`null` and `""` are absent), or `message`.
    func optionalChoice<E: ByteSpelled>(_ key: String, _: E.Type, else message: String) throws(EventError) -> E? {
        // nil: not one of the set; .some(nil): empty.
        switch data.withText(key, { bytes -> E?? in bytes.isEmpty ? .some(nil) : E.spelled(by: bytes).map { .some($0) } }) {
        case .absent, .text(.some(nil)): return nil
        case .notText, .text(nil): throw EventError(message)
        case .text(.some(.some(let value))): return value
        }
    }

    /// An optional RFC 3339 time (`""` is absent) that has a message for every failure; read in
    /// place, without building its text.
    func optionalTime(_ key: String, else message: String) throws(EventError) -> Timestamp? {
        // nil: not a time; .some(nil): empty.
        let read = data.withText(key) { bytes -> Timestamp?? in bytes.isEmpty ? .some(nil) : Timestamp.parse(bytes).map { .some($0) } }
        switch read {
        case .absent, .text(.some(nil)): return nil
        case .notText, .text(nil): throw EventError(message)
        case .text(.some(.some(let time))): return time
        }
    }

    /// An id field that has a message for every failure.
    func reference(_ key: String, else message: String) throws(EventError) -> String? {
        switch idField(key) {
        case .absent, .empty: return nil
        case .notId: throw EventError(message)
        case .id(let text): return text
        }
    }
}
