/// The envelope of a well-formed line, read straight from its tape: no tree for the
/// top-level object, no text for `type`, `at` or the keys; `data` is left on the tape.
///
/// It reads only the common shape — every field of SPEC §1 present and well-typed, strings
/// without escapes, no `v`, no `null`s — and returns nil for anything else, which then takes
/// ``EnvelopeDecoder/decode(_:)`` on the built tree. So whenever it answers, it answers what
/// that decoder would (a differential test holds the two equal on mutated lines).
enum EnvelopeFastPath {
    /// The draft of the scanned document at `base` with an empty `data`, and the token of its
    /// `data` object; nil when the line is not of the common shape.
    ///
    /// - Parameters:
    ///   - spellingPrev: put `prev` in the draft as text; otherwise it is left out of the draft
    ///     and returned as the hash it spells (replay compares it as words).
    ///   - keyingInteractionIds: for an `InteractionLogged` or `InteractionDeleted` whose id is
    ///     in UUID form, return the id's key and leave the draft's id empty (replay stores such
    ///     an id's bytes straight from its key: no `String` is built, on this thread or freed on
    ///     the folding one).
    ///   - importingAt: for an imported line, the `at` of one without it; the envelope fields
    ///     ``EnvelopeDecoder/decode(_:defaults:)`` lets an imported line leave out may then be
    ///     absent (not `null`), and take its defaults: `seq` 1, `id` ``ImportDecoder/missingId``,
    ///     this `at`, `family` `""`. An app's lines, without `seq` and `prev`, are of this shape.
    static func decode(_ tape: JSONTape, _ base: UnsafePointer<UInt8>, spellingPrev: Bool = true,
                       keyingInteractionIds: Bool = false,
                       importingAt: Timestamp? = nil) -> (draft: EventDraft, data: Int, prevHash: LineHash?, idKey: EventIdKey?)? {
        let tokens = tape.tokens
        guard let root = tokens.first, root.kind == .object else { return nil }
        var seq: Int64?, idToken: JSONTape.Token?, type: String?, at: Timestamp?, actor: String?, family: String?
        var data: Int?, prev: String?, prevHash: LineHash?
        var keyable = false  // an interaction event: its id may be kept as its key
        var key = 1
        for _ in 0..<root.count {
            let name = tokens[key], value = tokens[key + 1]
            guard name.plain else { return nil }
            let raw = UnsafeBufferPointer(start: base + name.start, count: name.end - name.start)
            switch Field(raw) {
            case .seq:
                guard value.kind == .integer, let number = JSONTape.int64(base, value.start, value.end), number >= 1,
                      number <= EnvelopeDecoder.maxSeq else { return nil }
                seq = number
            case .id:
                guard isIdentifier(value, base) else { return nil }
                idToken = value
            case .type:
                guard value.kind == .string, !value.escaped else { return nil }
                let known = EventType.known(bytes(value, base))
                type = known?.rawValue ?? JSONTape.string(value, base)
                keyable = known == .interactionLogged || known == .interactionDeleted
            case .at:
                guard value.kind == .string, !value.escaped, let time = Timestamp.parse(bytes(value, base)) else { return nil }
                at = time
            case .actor:
                guard let text = identifier(value, base) else { return nil }
                actor = text
            case .family:
                guard let text = identifier(value, base) else { return nil }
                family = text
            case .data:
                guard value.kind == .object else { return nil }
                data = key + 1
            case .prev:
                guard value.kind == .string, !value.escaped, value.end - value.start == 64 else { return nil }
                if spellingPrev {
                    guard ByteClass.allLowerHex(base + value.start, count: 64) else { return nil }
                    prev = JSONTape.string(value, base)
                } else {
                    guard let hash = LineHash(hex: bytes(value, base)) else { return nil }  // it checks the digits
                    prevHash = hash
                }
            case .version:
                return nil  // rare; the general decoder checks it
            case .other:
                break  // fields the envelope does not read
            }
            key = tokens[key + 1].next
        }
        if let importingAt {
            seq = seq ?? 1
            at = at ?? importingAt
            family = family ?? ""
        }
        guard let seq, let type, let at, let actor, let family, let data else { return nil }
        var id = ""
        var idKey: EventIdKey?
        if let idToken {
            idKey = keyingInteractionIds && keyable ? EventIdKey(uuidBytes: bytes(idToken, base)) : nil
            if idKey == nil { id = JSONTape.string(idToken, base) }
        } else {
            guard importingAt != nil else { return nil }
            id = ImportDecoder.missingId
        }
        return (EventDraft(seq: seq, id: id, type: type, at: at, actor: actor, family: family, data: JSONObject(), version: 1, prev: prev), data,
                prevHash, idKey)
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

    static func bytes(_ token: JSONTape.Token, _ base: UnsafePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + token.start, count: token.end - token.start)
    }

    /// An id-shaped string value (1–64 id bytes), or nil.
    static func identifier(_ token: JSONTape.Token, _ base: UnsafePointer<UInt8>) -> String? {
        guard isIdentifier(token, base) else { return nil }
        return JSONTape.string(token, base)
    }

    /// Whether a value is an id-shaped string (1–64 id bytes).
    static func isIdentifier(_ token: JSONTape.Token, _ base: UnsafePointer<UInt8>) -> Bool {
        token.kind == .string && !token.escaped && Identifier.isValid(bytes: bytes(token, base))
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
