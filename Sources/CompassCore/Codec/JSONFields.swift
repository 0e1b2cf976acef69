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
