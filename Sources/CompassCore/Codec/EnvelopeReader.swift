/// Reads the envelope of SPEC §1 straight from a scanned line's tape: no tree for the top-level
/// object, no text for a plain `type`, `at` or key; `data` is left on the tape.
///
/// It reads every shape a line may have (fields in any order, escaped strings and keys, `null`s,
/// `v`) and refuses a broken envelope with the SPEC's message, checking the fields in the
/// table's order, as the reference decoder on the built tree does (`ReferenceEnvelope` in
/// the test support; a differential test holds the two equal on mutated and hostile lines).
/// Replay reads through it every line ``CommonLineReader`` does not take; import, every line.
package enum EnvelopeReader {
    /// A line's envelope: its draft (with an empty `data`), the token of its `data` object,
    /// its `prev` as words when not spelled, and its id's key when kept only as a key.
    package struct Decoded {
        package var draft: EventDraft
        package var data: Int
        var prevHash: LineHash?
        var idKey: EventIdKey?
    }

    /// Whether the scanned document is an object (anything else is not a line of the log).
    package static func isObject(_ tape: JSONTape) -> Bool { tape.tokens.first?.kind == .object }

    /// The envelope of the scanned object at `base` (``isObject(_:)`` must hold).
    ///
    /// - Parameters:
    ///   - spellingPrev: put `prev` in the draft as text; otherwise it is left out of the draft
    ///     and returned as the hash it spells (replay compares it as words).
    ///   - keyingInteractionIds: for an `InteractionLogged` or `InteractionDeleted` whose id is
    ///     in UUID form, return the id's key and leave the draft's id empty (replay stores such
    ///     an id's bytes straight from its key: no `String` is built).
    ///   - importingAt: for an imported line, the `at` of one without it; the fields an imported
    ///     line may leave out (absent or `null`) then take their defaults: `seq` 1, `id`
    ///     ``ImportDecoder/missingId``, this `at`, `family` `""`.
    package static func decode(_ tape: JSONTape, _ base: UnsafePointer<UInt8>, spellingPrev: Bool = true, keyingInteractionIds: Bool = false,
                       importingAt: Timestamp? = nil) throws(EventError) -> Decoded {
        let fields = Fields(tape, base)
        let reader = FieldReader(tape: tape, base: base)
        let importing = importingAt != nil
        let seq: Int64
        if importing, reader.absent(fields.seq) {
            seq = 1
        } else {
            guard let token = reader.present(fields.seq) else { throw .missing("seq") }
            guard token.kind == .integer, let number = JSONTape.int64(base, token.start, token.end), number >= 1 else {
                throw .mustBe("seq", "a positive integer")
            }
            guard number <= Envelope.maxSeq else { throw .mustBe("seq", "at most \(Envelope.maxSeq)") }
            seq = number
        }
        var id = ImportDecoder.missingId
        var idKey: EventIdKey?
        var idToken: JSONTape.Token?
        if !(importing && reader.absent(fields.id)) {
            idToken = try reader.identifierToken(fields.id, "id")
        }
        guard let typeToken = reader.present(fields.type) else { throw .missing("type") }
        guard typeToken.kind == .string else { throw .mustBe("type", "a string") }
        let known = typeToken.escaped ? nil : EventType.known(reader.bytes(typeToken))
        let type = known?.rawValue ?? JSONTape.string(typeToken, base)
        let at: Timestamp
        if let importingAt, reader.absent(fields.at) {
            at = importingAt
        } else {
            guard let token = reader.present(fields.at) else { throw .missing("at") }
            guard token.kind == .string, let time = reader.timestamp(token) else { throw .mustBe("at", "an RFC 3339 time") }
            at = time
        }
        let actor = JSONTape.string(try reader.identifierToken(fields.actor, "actor"), base)
        let family = importing && reader.absent(fields.family) ? "" : JSONTape.string(try reader.identifierToken(fields.family, "family"), base)
        guard let data = reader.present(fields.data) else { throw .missing("data") }
        guard data.kind == .object else { throw .mustBe("data", "an object") }
        var version: Int64 = 1
        if let token = reader.present(fields.version) {
            guard token.kind == .integer, let number = JSONTape.int64(base, token.start, token.end) else { throw .mustBe("v", "an integer") }
            version = number
        }
        var prev: String?, prevHash: LineHash?
        if let token = reader.present(fields.prev) {
            guard token.kind == .string, let hash = reader.hash(token) else { throw .mustBe("prev", "a SHA-256 hex string") }
            if spellingPrev { prev = JSONTape.string(token, base) } else { prevHash = hash }
        }
        if let idToken {
            let keyable = known == .interactionLogged || known == .interactionDeleted
            if keyingInteractionIds, keyable, !idToken.escaped { idKey = EventIdKey(uuidBytes: reader.bytes(idToken)) }
            if idKey == nil { id = JSONTape.string(idToken, base) }
        }
        return Decoded(draft: EventDraft(seq: seq, id: id, type: type, at: at, actor: actor, family: family, data: JSONObject(),
                                         version: version, prev: prev),
                       data: fields.data, prevHash: prevHash, idKey: idKey)
    }

    /// The parts of a line that can be read even when its envelope is broken (for the
    /// problems a replay reports and the lines it can still place): `seq` when an integer from
    /// 1 to ``Envelope/maxSeq``, `at` when a time, `prev` when a string, `family` when an id.
    static func readable(_ tape: JSONTape, _ base: UnsafePointer<UInt8>) -> (seq: Int64?, at: Timestamp?, prev: String?, family: String?) {
        let fields = Fields(tape, base)
        let reader = FieldReader(tape: tape, base: base)
        var seq: Int64?, at: Timestamp?, prev: String?, family: String?
        if let token = reader.present(fields.seq), token.kind == .integer, let number = JSONTape.int64(base, token.start, token.end),
           (1...Envelope.maxSeq).contains(number) {
            seq = number
        }
        if let token = reader.present(fields.at), token.kind == .string { at = reader.timestamp(token) }
        if let token = reader.present(fields.prev), token.kind == .string { prev = JSONTape.string(token, base) }
        if let token = reader.present(fields.family), reader.isIdentifier(token) { family = JSONTape.string(token, base) }
        return (seq, at, prev, family)
    }

    /// Whether a line is the `Erased` record of a line that was in no stream: exactly the keys
    /// `type` (`Erased`), `actor` (`-`) and `data` (`{"was":H}`, H a SHA-256). Anything more
    /// or less is read as an ordinary envelope (and an `Erased` record without `family` is then
    /// a problem).
    static func isErasureOutsideStreams(_ tape: JSONTape, _ base: UnsafePointer<UInt8>) -> Bool {
        let tokens = tape.tokens
        guard isObject(tape), tokens[0].count == 3 else { return false }
        let fields = Fields(tape, base)
        let reader = FieldReader(tape: tape, base: base)
        guard let type = reader.present(fields.type), type.kind == .string, JSONTape.string(type, base) == Rules.erasedType,
              let actor = reader.present(fields.actor), actor.kind == .string, JSONTape.string(actor, base) == "-",
              fields.data >= 0, tokens[fields.data].count == 1 else { return false }
        return erasedWas(tape, base) != nil
    }

    /// The `was` of the line's `data` when it is a SHA-256 in hex (an `Erased` record's), or nil.
    static func erasedWas(_ tape: JSONTape, _ base: UnsafePointer<UInt8>) -> String? {
        let data = Fields(tape, base).data
        guard data >= 0, tape.tokens[data].kind == .object,
              case .string(let hash)? = TapeObject.reading(tape: tape, base: base, index: data, { $0["was"] }), SHA256.isHex(hash) else { return nil }
        return hash
    }

    /// Where each field of SPEC §1 is on the tape: the token of its value, or -1.
    struct Fields {
        var seq = -1, id = -1, type = -1, at = -1, actor = -1, family = -1, data = -1, version = -1, prev = -1

        /// The fields of the top-level object, keys compared by what they decode to (none when
        /// the document is not an object).
        init(_ tape: JSONTape, _ base: UnsafePointer<UInt8>) {
            let tokens = tape.tokens
            guard tokens.first?.kind == .object else { return }
            var key = 1
            for _ in 0..<tokens[0].count {
                let name = tokens[key], value = key + 1
                let field: Field
                if name.plain {
                    field = Field(UnsafeBufferPointer(start: base + name.start, count: name.end - name.start))
                } else {
                    var text = JSONTape.string(name, base)
                    field = text.withUTF8 { Field($0) }
                }
                switch field {
                case .seq: seq = value
                case .id: id = value
                case .type: type = value
                case .at: at = value
                case .actor: actor = value
                case .family: family = value
                case .data: data = value
                case .version: version = value
                case .prev: prev = value
                case .other: break
                }
                key = tokens[value].next
            }
        }
    }

    /// The fields of SPEC §1, recognised by their bytes.
    enum Field {
        case seq, id, type, at, actor, family, data, version, prev, other

        init(_ name: UnsafeBufferPointer<UInt8>) {
            func equals(_ word: StaticString) -> Bool { ByteCompare.equal(name, word) }
            switch name.count {
            case 1: self = equals("v") ? .version : .other
            case 2: self = equals("id") ? .id : equals("at") ? .at : .other
            case 3: self = equals("seq") ? .seq : .other
            case 4: self = equals("type") ? .type : equals("data") ? .data : equals("prev") ? .prev : .other
            case 5: self = equals("actor") ? .actor : .other
            case 6: self = equals("family") ? .family : .other
            default: self = .other
            }
        }
    }

    /// Reads values off the tape.
    struct FieldReader {
        let tape: JSONTape
        let base: UnsafePointer<UInt8>

        /// The value at `index`, unless the field is missing or `null`.
        func present(_ index: Int) -> JSONTape.Token? {
            guard index >= 0 else { return nil }
            let token = tape.tokens[index]
            return token.kind == .null ? nil : token
        }

        /// Whether the field is missing or `null`.
        func absent(_ index: Int) -> Bool { present(index) == nil }

        func bytes(_ token: JSONTape.Token) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: base + token.start, count: token.end - token.start)
        }

        /// Whether a value is an id-shaped string (1–64 id bytes once decoded).
        func isIdentifier(_ token: JSONTape.Token) -> Bool {
            guard token.kind == .string else { return false }
            return token.escaped ? Identifier.isValid(JSONTape.string(token, base)) : Identifier.isValid(bytes: bytes(token))
        }

        /// The id field's token, or the envelope's message for it.
        func identifierToken(_ index: Int, _ name: String) throws(EventError) -> JSONTape.Token {
            guard let token = present(index) else { throw .missing(name) }
            guard isIdentifier(token) else { throw .mustBe(name, "an id") }
            return token
        }

        /// The time a string spells in RFC 3339, or nil.
        func timestamp(_ token: JSONTape.Token) -> Timestamp? {
            if !token.escaped, let time = Timestamp.parse(bytes(token)) { return time }
            return Timestamp(rfc3339: JSONTape.string(token, base))
        }

        /// The hash a string of 64 lower-case hex digits spells, or nil.
        func hash(_ token: JSONTape.Token) -> LineHash? {
            if token.escaped {
                var text = JSONTape.string(token, base)
                guard SHA256.isHex(text) else { return nil }
                return text.withUTF8 { LineHash(hex: $0) }
            }
            guard token.end - token.start == 64, ByteClass.allLowerHex(base + token.start, count: 64) else { return nil }
            return LineHash(hex: bytes(token))
        }
    }
}

extension EventType {
    /// The names' bytes, in `allCases` order (built once).
    private static let names: [(bytes: [UInt8], type: EventType)] = allCases.map { (Array($0.rawValue.utf8), $0) }

    /// The type whose name these bytes spell, if any.
    static func known(_ name: UnsafeBufferPointer<UInt8>) -> EventType? {
        guard let base = name.baseAddress else { return nil }
        for entry in names where entry.bytes.count == name.count {
            if entry.bytes.withUnsafeBufferPointer({ ByteCompare.equal($0.baseAddress!, base, count: name.count) }) { return entry.type }
        }
        return nil
    }

    /// The type named `name`, if any: ``init(rawValue:)`` without its string switch.
    static func known(_ name: String) -> EventType? {
        var name = name
        return name.withUTF8 { known($0) }
    }
}
