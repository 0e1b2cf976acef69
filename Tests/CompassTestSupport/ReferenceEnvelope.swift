import CompassCore

/// The envelope of SPEC §1 read from a built tree, field by field in the table's order: the
/// first decoder of the project, kept as the reference the tape's reader (`EnvelopeReader`)
/// is held to on mutated and hostile lines.
package enum ReferenceEnvelope {
    /// The envelope fields, checked in table order; the payload is left raw.
    ///
    /// With `defaults` (an imported line), a missing `seq` is 1 (it is assigned on append), a
    /// missing `id` or `at` comes from the defaults and a missing `family` is `""`.
    package static func decode(_ object: JSONObject, defaults: ImportDefaults? = nil) throws(EventError) -> EventDraft {
        func absent(_ key: String) -> Bool { defaults != nil && (object[key] == nil || object[key] == .null) }
        let seq = absent("seq") ? 1 : try integer(object, "seq")
        let id = absent("id") ? defaults!.makeId() : try identifier(object, "id")
        guard let typeValue = object["type"], typeValue != .null else { throw missing("type") }
        guard case .string(let type) = typeValue else { throw mustBe("type", "a string") }
        let at: Timestamp
        if absent("at") {
            at = defaults!.at
        } else {
            guard let atValue = object["at"], atValue != .null else { throw missing("at") }
            guard case .string(let atText) = atValue, let time = Timestamp(rfc3339: atText) else {
                throw mustBe("at", "an RFC 3339 time")
            }
            at = time
        }
        let actor = try identifier(object, "actor")
        let family = absent("family") ? "" : try identifier(object, "family")
        guard let dataValue = object["data"], dataValue != .null else { throw missing("data") }
        guard case .object(let data) = dataValue else { throw mustBe("data", "an object") }
        var version: Int64 = 1
        if let value = object["v"], value != .null {
            guard case .int(let v) = value else { throw mustBe("v", "an integer") }
            version = v
        }
        var prev: String?
        if let value = object["prev"], value != .null {
            guard case .string(let hash) = value, SHA256.isHex(hash) else { throw mustBe("prev", "a SHA-256 hex string") }
            prev = hash
        }
        return EventDraft(seq: seq, id: id, type: type, at: at, actor: actor, family: family, data: data, version: version, prev: prev)
    }

    static func integer(_ object: JSONObject, _ key: String) throws(EventError) -> Int64 {
        guard let value = object[key], value != .null else { throw missing(key) }
        guard case .int(let integer) = value, integer >= 1 else { throw mustBe(key, "a positive integer") }
        guard integer <= Envelope.maxSeq else { throw mustBe(key, "at most \(Envelope.maxSeq)") }
        return integer
    }

    static func identifier(_ object: JSONObject, _ key: String) throws(EventError) -> String {
        guard let value = object[key], value != .null else { throw missing(key) }
        guard case .string(let text) = value, Identifier.isValid(text) else { throw mustBe(key, "an id") }
        return text
    }

    static func missing(_ field: String) -> EventError { EventError("missing field \(field)", kind: .shape) }
    static func mustBe(_ field: String, _ kind: String) -> EventError { EventError("field \(field) must be \(kind)", kind: .shape) }
}

extension ReferenceEnvelope {
    /// Whether a line's tree is the `Erased` record of a line that was in no stream: exactly
    /// the keys `type` (`Erased`), `actor` (`-`) and `data` (`{"was":H}`, H a SHA-256).
    package static func isErasureOutsideStreams(_ object: JSONObject) -> Bool {
        guard object.members.count == 3, case .string(Rules.erasedType)? = object["type"], case .string("-")? = object["actor"],
              case .object(let data)? = object["data"], data.members.count == 1, case .string(let was)? = data["was"] else { return false }
        return SHA256.isHex(was)
    }
}
