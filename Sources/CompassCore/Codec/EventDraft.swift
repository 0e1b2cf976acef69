/// A proposed event: a well-formed envelope with its payload still raw JSON.
///
/// Replay decodes each line into a draft; `compass` builds one from its arguments. Either way
/// ``Rules/decide(_:in:sanitizing:)`` turns it into an ``Event`` or rejects it.
public struct EventDraft: Equatable, Sendable {
    public var seq: Int64
    public var id: String
    public var type: String
    public var at: Timestamp
    public var actor: String
    public var family: String
    public var data: JSONObject
    public var version: Int64
    public var prev: String?

    public init(seq: Int64, id: String, type: String, at: Timestamp, actor: String, family: String,
                data: JSONObject, version: Int64 = 1, prev: String? = nil) {
        self.seq = seq
        self.id = id
        self.type = type
        self.at = at
        self.actor = actor
        self.family = family
        self.data = data
        self.version = version
        self.prev = prev
    }
}

/// Why a line or a proposed event was not applied, in the SPEC's words.
public struct EventError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    static func missing(_ field: String) -> EventError { EventError("missing field \(field)") }
    static func mustBe(_ field: String, _ kind: String) -> EventError { EventError("field \(field) must be \(kind)") }
}

/// Reads the envelope of SPEC §1 from a parsed line.
public enum EnvelopeDecoder {
    /// The envelope fields, checked in table order; the payload is left raw.
    public static func decode(_ object: JSONObject) throws(EventError) -> EventDraft {
        let seq = try integer(object, "seq", minimum: 1, kind: "a positive integer")
        let id = try identifier(object, "id")
        guard let typeValue = object["type"], typeValue != .null else { throw .missing("type") }
        guard case .string(let type) = typeValue else { throw .mustBe("type", "a string") }
        guard let atValue = object["at"], atValue != .null else { throw .missing("at") }
        guard case .string(let atText) = atValue, let at = Timestamp(rfc3339: atText) else {
            throw .mustBe("at", "an RFC 3339 time")
        }
        let actor = try identifier(object, "actor")
        let family = try identifier(object, "family")
        guard let dataValue = object["data"], dataValue != .null else { throw .missing("data") }
        guard case .object(let data) = dataValue else { throw .mustBe("data", "an object") }
        var version: Int64 = 1
        if let value = object["v"], value != .null {
            guard case .int(let v) = value else { throw .mustBe("v", "an integer") }
            version = v
        }
        var prev: String?
        if let value = object["prev"], value != .null {
            guard case .string(let hash) = value, isSHA256Hex(hash) else { throw .mustBe("prev", "a SHA-256 hex string") }
            prev = hash
        }
        return EventDraft(seq: seq, id: id, type: type, at: at, actor: actor, family: family,
                          data: data, version: version, prev: prev)
    }

    static func integer(_ object: JSONObject, _ key: String, minimum: Int64, kind: String) throws(EventError) -> Int64 {
        guard let value = object[key], value != .null else { throw .missing(key) }
        guard case .int(let integer) = value, integer >= minimum else { throw .mustBe(key, kind) }
        return integer
    }

    static func identifier(_ object: some JSONFields, _ key: String, path: String? = nil) throws(EventError) -> String {
        let name = path ?? key
        guard let value = object[key], value != .null else { throw .missing(name) }
        guard case .string(let text) = value, Identifier.isValid(text) else { throw .mustBe(name, "an id") }
        return text
    }

    /// Whether text is 64 lowercase hex digits.
    public static func isSHA256Hex(_ text: String) -> Bool {
        let isHexDigit = { (byte: UInt8) in (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 102) }
        return text.utf8.count == 64
            && (text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isHexDigit) } ?? text.utf8.allSatisfy(isHexDigit))
    }
}
