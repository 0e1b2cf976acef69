/// Reads the envelope of SPEC §1 from a parsed line.
package enum EnvelopeDecoder {
    /// The envelope fields, checked in table order; the payload is left raw.
    ///
    /// With `defaults` (an imported line), a missing `seq` is 1 (it is assigned on append), a
    /// missing `id` or `at` comes from the defaults and a missing `family` is `""`, for the
    /// importer to resolve from the state.
    package static func decode(_ object: JSONObject, defaults: ImportDefaults? = nil) throws(EventError) -> EventDraft {
        func absent(_ key: String) -> Bool { defaults != nil && (object[key] == nil || object[key] == .null) }
        let seq = absent("seq") ? 1 : try integer(object, "seq", minimum: 1, maximum: maxSeq, kind: "a positive integer")
        let id = absent("id") ? defaults!.makeId() : try identifier(object, "id")
        guard let typeValue = object["type"], typeValue != .null else { throw .missing("type") }
        guard case .string(let type) = typeValue else { throw .mustBe("type", "a string") }
        let at: Timestamp
        if absent("at") {
            at = defaults!.at
        } else {
            guard let atValue = object["at"], atValue != .null else { throw .missing("at") }
            guard case .string(let atText) = atValue, let time = Timestamp(rfc3339: atText) else {
                throw .mustBe("at", "an RFC 3339 time")
            }
            at = time
        }
        let actor = try identifier(object, "actor")
        let family = absent("family") ? "" : try identifier(object, "family")
        guard let dataValue = object["data"], dataValue != .null else { throw .missing("data") }
        guard case .object(let data) = dataValue else { throw .mustBe("data", "an object") }
        var version: Int64 = 1
        if let value = object["v"], value != .null {
            guard case .int(let v) = value else { throw .mustBe("v", "an integer") }
            version = v
        }
        var prev: String?
        if let value = object["prev"], value != .null {
            guard case .string(let hash) = value, SHA256.isHex(hash) else { throw .mustBe("prev", "a SHA-256 hex string") }
            prev = hash
        }
        return EventDraft(seq: seq, id: id, type: type, at: at, actor: actor, family: family,
                          data: data, version: version, prev: prev)
    }

    /// The largest `seq` (SPEC §1): 2^53 − 1, so `seq + 1` never overflows and every reader
    /// of JSON numbers reads it exactly.
    package static let maxSeq: Int64 = (1 << 53) - 1

    /// The `seq` of the line after one with `seq` `last`; refused past ``maxSeq``, so no
    /// writer ever acknowledges a line that replay would refuse.
    package static func seq(after last: Int64) throws(EventError) -> Int64 {
        guard last < maxSeq else {
            throw EventError("The log is full: its last seq is \(last), the largest a line can have (\(maxSeq)); nothing more can be appended",
                             kind: .rule)
        }
        return last + 1
    }

    static func integer(_ object: JSONObject, _ key: String, minimum: Int64, maximum: Int64, kind: String) throws(EventError) -> Int64 {
        guard let value = object[key], value != .null else { throw .missing(key) }
        guard case .int(let integer) = value, integer >= minimum else { throw .mustBe(key, kind) }
        guard integer <= maximum else { throw .mustBe(key, "at most \(maximum)") }
        return integer
    }

    static func identifier(_ object: some JSONFields, _ key: String, path: String? = nil) throws(EventError) -> String {
        let name = path ?? key
        guard let value = object[key], value != .null else { throw .missing(name) }
        guard case .string(let text) = value, Identifier.isValid(text) else { throw .mustBe(name, "an id") }
        return text
    }
}
