/// A proposed event: a well-formed envelope with its payload still raw JSON.
///
/// Replay decodes each line into a draft; `compass` builds one from its arguments. Either way
/// ``Rules/decide(_:in:sanitizing:)`` turns it into an ``Event`` or rejects it.
package struct EventDraft: Equatable, Sendable {
    package var seq: Int64
    package var id: String
    package var type: String
    package var at: Timestamp
    package var actor: String
    package var family: String
    package var data: JSONObject
    package var version: Int64
    package var prev: String?

    package init(seq: Int64, id: String, type: String, at: Timestamp, actor: String, family: String,
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

extension EventDraft {
    /// The envelope of an event with an empty `data` (what a rejected line shows when its raw
    /// payload was not kept).
    init(envelopeOf event: Event) {
        self.init(seq: event.seq, id: event.id, type: event.type.rawValue, at: event.at, actor: event.actor,
                  family: event.family, data: JSONObject(), prev: event.prev)
    }

    /// The event this draft makes with `payload`, its texts moved out of the draft (which is
    /// left with empty ones): building the event from a draft that is dropped next would copy
    /// each of them.
    mutating func takeEvent(payload: consuming Payload) -> Event {
        var taken = (id: "", actor: "", family: "", prev: String?.none)
        swap(&taken.id, &id)
        swap(&taken.actor, &actor)
        swap(&taken.family, &family)
        swap(&taken.prev, &prev)
        return Event(seq: seq, id: taken.id, at: at, actor: taken.actor, family: taken.family, payload: payload, prev: taken.prev)
    }
}

/// Why a line or a proposed event was not applied, in the SPEC's words.
public struct EventError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The SPEC's message.
    public var message: String
    /// What kind of problem the line has when replay reports this error.
    public var kind: ProblemKind
    public init(_ message: String, kind: ProblemKind = .rule) {
        self.message = message
        self.kind = kind
    }
    public var description: String { message }

    /// Errors are equal when their messages are: the kind follows from the message.
    public static func == (a: EventError, b: EventError) -> Bool { a.message == b.message }

    static func missing(_ field: String) -> EventError { EventError("missing field \(field)", kind: .shape) }
    static func mustBe(_ field: String, _ kind: String) -> EventError { EventError("field \(field) must be \(kind)", kind: .shape) }
}

/// What `import` fills in for the envelope fields a line leaves out (absent or `null`); a
/// field that is there is read exactly as replay reads it.
package struct ImportDefaults {
    /// A new event id for a line without `id`.
    package var makeId: () -> String
    /// `at` for a line without one.
    package var at: Timestamp

    package init(makeId: @escaping () -> String, at: Timestamp) {
        self.makeId = makeId
        self.at = at
    }
}

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
            guard case .string(let hash) = value, isSHA256Hex(hash) else { throw .mustBe("prev", "a SHA-256 hex string") }
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

    /// Whether text is 64 lowercase hex digits.
    package static func isSHA256Hex(_ text: String) -> Bool {
        var text = text
        return text.utf8.count == 64 && text.withUTF8 { ByteClass.allLowerHex($0.baseAddress!, count: 64) }
    }
}
