/// A common line of the six most frequent types read straight from its bytes in one pass:
/// no tape, no key lookups, the fields taken in the order `compass` writes them.
///
/// Nearly nine lines in ten of a log log an interaction, delete one or change a school's status;
/// most others add a school or a coach or upload a document. ``EventEncoder`` writes each in
/// one shape: the envelope's fields in SPEC §1's order, the payload's in §2's, no whitespace,
/// no escapes. This reader takes only that shape of those types, and only a line whose
/// payload passes every rule that needs no state; anything
/// else (another type or order, an escape, a `null`, an empty id or time, an empty list of
/// attachments, a value that breaks a rule) returns nil and takes the tape
/// (``EnvelopeReader`` and the rules on ``TapeObject``), which gives the message. So whenever
/// it answers, it answers what the tape would: a differential test holds the two prepared lines
/// equal on generated, mutated and hand-made lines.
struct CommonLineReader {
    /// A line read: its event (whose id is empty when it is kept only as ``Keys/idKey``) and
    /// the rest. (Replay takes the event in place: ``read(_:keyingId:staging:into:)``.)
    typealias Line = (event: Event, keys: Keys)

    /// What a line read holds besides its event.
    struct Keys {
        var idKey: EventIdKey?
        var prev: LineHash
        /// The `hashValue` of the family id.
        var family: Int
        /// The `hashValue` of the interaction id an interaction event names (nil for others).
        var interaction: Int?
        /// The `hashValue` of the actor's user id.
        var actor: Int
        /// The `hashValue` of the school id the event names (nil when it names none).
        var school: Int?
        /// The `hashValue` of the coach id the event names (nil when it names none).
        var coach: Int?
    }

    /// The names of the stored properties of an `Event` that ``read(_:keyingId:staging:into:)``
    /// sets in place, for the test that holds them to the type's.
    static let eventPropertiesSetInPlace = ["seq", "id", "at", "actor", "family", "payload", "prev"]

    private let p: UnsafePointer<UInt8>
    private let n: Int
    private var i = 0
    /// The ids built on this thread lately (``IdInterner``), for the family's, actor's, school's
    /// and coach's ids.
    private let ids: UnsafeMutablePointer<IdInterner>
    /// The hashes of the school and coach ids the payload names, as it is read.
    private var school: Int?, coach: Int?

    private init(_ p: UnsafePointer<UInt8>, _ n: Int, ids: UnsafeMutablePointer<IdInterner>) {
        self.p = p
        self.n = n
        self.ids = ids
    }

    /// The line's parts, an interaction's subject and content staged (``TextStaging``); nil (and
    /// nothing left staged) when the line is not of a common shape or its payload breaks a rule.
    ///
    /// - Parameter keyingId: keep the id of an interaction event in UUID form only as its key
    ///   (as ``EnvelopeReader/decode(_:_:spellingPrev:keyingInteractionIds:importingAt:)`` does).
    static func read(_ line: UnsafeBufferPointer<UInt8>, keyingId: Bool, staging: inout TextStaging) -> Line? {
        var ids = IdInterner.none
        return withUnsafeTemporaryAllocation(of: Event.self, capacity: 1) { event in
            read(line, keyingId: keyingId, staging: &staging, ids: &ids, into: event.baseAddress!).map { (event.baseAddress!.move(), $0) }
        }
    }

    /// ``read(_:keyingId:staging:)`` putting the event in `event` (uninitialized memory; set
    /// only when keys are returned), its ids taken from `ids` when built there lately. Returned
    /// in a pair, the event was copied (a reference count per text) and the original freed,
    /// for every common line.
    static func read(_ line: UnsafeBufferPointer<UInt8>, keyingId: Bool, staging: inout TextStaging, ids: inout IdInterner,
                     into event: UnsafeMutablePointer<Event>) -> Keys? {
        guard let base = line.baseAddress else { return nil }
        let keys = withUnsafeMutablePointer(to: &ids) { ids in
            var reader = CommonLineReader(base, line.count, ids: ids)
            return reader.line(keyingId: keyingId, staging: &staging, into: event)
        }
        // What was staged before the line turned out not to be of the shape is taken back: the
        // tape stages it again.
        if keys == nil { staging.texts = StagedTexts() }
        return keys
    }

    private mutating func line(keyingId: Bool, staging: inout TextStaging, into event: UnsafeMutablePointer<Event>) -> Keys? {
        guard literal(#"{"seq":"#), let seq = seq(),
              literal(#","id":""#), let id = idBytes(),
              literal(#"","type":""#), let type = stringBytes().flatMap(EventType.known),
              literal(#"","at":""#), let at = stringBytes().flatMap(Timestamp.parse),
              literal(#"","actor":""#), let actor = idBytes(),
              literal(#"","family":""#), let family = idBytes(),
              literal(#"","data":{"#) else { return nil }
        // Looked up once the payload is read: their cache slots are loaded meanwhile.
        ids.pointee.prefetch(actor, readableTo: p + n)
        ids.pointee.prefetch(family, readableTo: p + n)
        let payload: Payload
        var interaction: Int?
        switch type {
        case .interactionLogged:
            guard let logged = interactionLogged(staging: &staging) else { return nil }
            interaction = logged.interactionId.hashValue
            payload = .interactionLogged(consume logged)
        case .interactionDeleted:
            guard literal(#""interactionId":""#), let interactionId = idBytes(), literal("\"") else { return nil }
            let text = String(decoding: interactionId, as: UTF8.self)
            interaction = text.hashValue
            payload = .interactionDeleted(InteractionDeleted(interactionId: text))
        case .schoolStatusChanged:
            guard let changed = schoolStatusChanged() else { return nil }
            payload = .schoolStatusChanged(changed)
        case .documentUploaded:
            guard let uploaded = documentUploaded() else { return nil }
            payload = .documentUploaded(uploaded)
        case .coachAdded:
            guard let added = coachAdded() else { return nil }
            payload = .coachAdded(added)
        case .schoolAdded:
            guard let added = schoolAdded() else { return nil }
            payload = .schoolAdded(added)
        default:
            return nil
        }
        guard literal(#"},"prev":""#), n - i == 66, p[n - 2] == UInt8(ascii: "\""), p[n - 1] == UInt8(ascii: "}"),
              let prev = LineHash(hex: UnsafeBufferPointer(start: p + i, count: 64)) else { return nil }
        let keyable = type == .interactionLogged || type == .interactionDeleted
        let idKey = keyingId && keyable ? EventIdKey(uuidBytes: id) : nil
        let familyId = ids.pointee.id(family, readableTo: p + n), actorId = ids.pointee.id(actor, readableTo: p + n)
        // `consume`: without it the payload was copied into the event (a reference count per
        // text) and then freed.
        // One stored property at a time (``eventPropertiesSetInPlace``): `Event(…)` built the event
        // on the stack, then copied it (a reference count per text) and freed the original.
        event.pointer(to: \.seq)!.initialize(to: seq)
        event.pointer(to: \.id)!.initialize(to: idKey == nil ? String(decoding: id, as: UTF8.self) : "")
        event.pointer(to: \.at)!.initialize(to: at)
        event.pointer(to: \.actor)!.initialize(to: actorId.text)
        event.pointer(to: \.family)!.initialize(to: familyId.text)
        event.pointer(to: \.payload)!.initialize(to: consume payload)
        event.pointer(to: \.prev)!.initialize(to: nil)
        return Keys(idKey: idKey, prev: prev, family: familyId.hash, interaction: interaction, actor: actorId.hash, school: school, coach: coach)
    }

    /// A `SchoolStatusChanged` payload (SPEC §2's table), the cursor left before its closing brace.
    private mutating func schoolStatusChanged() -> SchoolStatusChanged? {
        guard literal(#""schoolId":""#), let schoolId = idBytes(),
              literal(#"","newStatus":""#), let status = stringBytes().map({ String(decoding: $0, as: UTF8.self) }),
              TextRules.isSlug(status) else { return nil }
        var notes: String?
        guard optionalText(#"","notes":""#, into: &notes) else { return nil }
        guard literal("\"") else { return nil }
        return SchoolStatusChanged(schoolId: namedSchool(schoolId), newStatus: status, notes: notes)
    }

    /// A `SchoolAdded` payload (SPEC §2's table), the cursor left before its closing brace.
    private mutating func schoolAdded() -> SchoolAdded? {
        guard literal(#""schoolId":""#), let schoolId = idBytes(),
              literal(#"","name":""#), let name = nonBlankText(limit: 200) else { return nil }
        var status: String?
        if literal(#"","status":""#) {
            guard let bytes = stringBytes() else { return nil }
            if !bytes.isEmpty {  // `""` is no status
                let text = String(decoding: bytes, as: UTF8.self)
                guard TextRules.isSlug(text) else { return nil }
                status = text
            }
        }
        guard literal("\"") else { return nil }
        return SchoolAdded(schoolId: namedSchool(schoolId), name: name, status: status)
    }

    /// A `CoachAdded` payload (SPEC §2's table), the cursor left before its closing brace.
    private mutating func coachAdded() -> CoachAdded? {
        guard literal(#""coachId":""#), let coachId = idBytes(),
              literal(#"","schoolId":""#), let schoolId = idBytes(),
              literal(#"","firstName":""#), let firstName = nonBlankText(limit: .max),
              literal(#"","lastName":""#), let lastName = nonBlankText(limit: .max),
              literal(#"","role":""#), let role = stringBytes().flatMap(CoachRole.spelled(by:)), literal("\"") else { return nil }
        return CoachAdded(coachId: namedCoach(coachId), schoolId: namedSchool(schoolId), firstName: firstName, lastName: lastName, role: role)
    }

    /// A `DocumentUploaded` payload (SPEC §2's table), the cursor left before its closing brace.
    private mutating func documentUploaded() -> DocumentUploaded? {
        guard literal(#""documentId":""#), let documentId = idBytes(),
              literal(#"","title":""#), let title = nonBlankText(limit: 200),
              literal(#"","docType":""#), let docType = stringBytes().map({ String(decoding: $0, as: UTF8.self) }),
              TextRules.isSlug(docType) else { return nil }
        var fileName: String?
        guard optionalText(#"","fileName":""#, into: &fileName) else { return nil }
        guard literal("\"") else { return nil }  // the quote that closes the field before
        var sizeBytes: Int64?
        if literal(#","sizeBytes":"#) {
            guard let size = count() else { return nil }
            sizeBytes = size
        }
        var sha256: String?
        if literal(#","sha256":""#) {
            // A file's hash comes with its size (or the tape gives the message).
            guard sizeBytes != nil, let hex = stringBytes(), hex.count == 64, ByteClass.allLowerHex(hex.baseAddress!, count: 64),
                  literal("\"") else { return nil }
            sha256 = String(decoding: hex, as: UTF8.self)
        }
        return DocumentUploaded(documentId: String(decoding: documentId, as: UTF8.self), title: title, docType: docType, fileName: fileName,
                                sizeBytes: sizeBytes, sha256: sha256)
    }

    /// An `InteractionLogged` payload (SPEC §2.1), its subject and content staged; the cursor
    /// left before its closing brace.
    private mutating func interactionLogged(staging: inout TextStaging) -> InteractionLogged? {
        guard literal(#""interactionId":""#), let interactionId = idBytes() else { return nil }
        var schoolId: UnsafeBufferPointer<UInt8>?, coachId: UnsafeBufferPointer<UInt8>?, eventId: UnsafeBufferPointer<UInt8>?
        if literal(#"","schoolId":""#) {
            guard let read = idBytes() else { return nil }
            schoolId = read
            ids.pointee.prefetch(read, readableTo: p + n)  // looked up at the end (``namedSchool(_:)``)
        }
        if literal(#"","coachId":""#) {
            guard let read = idBytes() else { return nil }
            coachId = read
            ids.pointee.prefetch(read, readableTo: p + n)
        }
        guard schoolId != nil || coachId != nil else { return nil }  // "Please select a school"
        if literal(#"","eventId":""#) {
            guard let read = idBytes() else { return nil }
            eventId = read
        }
        var otherCoachName: String?
        guard optionalText(#"","otherCoachName":""#, into: &otherCoachName) else { return nil }
        guard literal(#"","type":""#), let type = stringBytes().flatMap(InteractionType.spelled(by:)),
              literal(#"","direction":""#), let direction = stringBytes().flatMap(Direction.spelled(by:)) else { return nil }
        var occurredAt: Timestamp?
        if literal(#"","occurredAt":""#) {
            guard let time = stringBytes().flatMap(Timestamp.parse) else { return nil }
            occurredAt = time
        }
        if literal(#"","subject":""#) {
            guard let (text, units) = text(), staging.stage(text, as: .subject, limit: InteractionLogged.subjectLimit, units: units) else { return nil }
        }
        if literal(#"","content":""#) {
            guard let (text, units) = text(), staging.stage(text, as: .content, limit: InteractionLogged.contentLimit, units: units) else { return nil }
        }
        var sentiment: Sentiment?
        if literal(#"","sentiment":""#) {
            guard let value = stringBytes().flatMap(Sentiment.spelled(by:)) else { return nil }
            sentiment = value
        }
        var interestAnswers: [Bool]?
        if literal(#"","interestAnswers":["#) {
            // Only for a positive inbound interaction ("Interest calibration applies only to …").
            guard direction == .inbound, sentiment == .positive || sentiment == .veryPositive, let answers = answers() else { return nil }
            interestAnswers = answers
        } else {
            guard literal("\"") else { return nil }  // the quote that closes the field before
        }
        var attachments: [Attachment]?
        if literal(#","attachments":["#) {
            guard let list = attachmentList() else { return nil }
            attachments = list
        }
        var school: String?, coach: String?
        if let schoolId { school = namedSchool(schoolId) }
        if let coachId { coach = namedCoach(coachId) }
        // One stored property at a time (``interactionPropertiesSetInPlace``), then moved out:
        // built by its initializer, the payload was copied (a reference count per text) and the
        // original freed (27 M instructions of a 100k-line replay). The optional texts and lists
        // are copied in, not consumed: `consume` of a variable the closure captures compiled to
        // a double free.
        return withUnsafeTemporaryAllocation(of: InteractionLogged.self, capacity: 1) { place in
            let logged = place.baseAddress!
            logged.pointer(to: \.interactionId)!.initialize(to: String(decoding: interactionId, as: UTF8.self))
            logged.pointer(to: \.schoolId)!.initialize(to: school)
            logged.pointer(to: \.coachId)!.initialize(to: coach)
            logged.pointer(to: \.eventId)!.initialize(to: eventId.map { String(decoding: $0, as: UTF8.self) })
            logged.pointer(to: \.otherCoachName)!.initialize(to: otherCoachName)
            logged.pointer(to: \.type)!.initialize(to: type)
            logged.pointer(to: \.direction)!.initialize(to: direction)
            logged.pointer(to: \.occurredAt)!.initialize(to: occurredAt)
            logged.pointer(to: \.subject)!.initialize(to: nil)
            logged.pointer(to: \.content)!.initialize(to: nil)
            logged.pointer(to: \.sentiment)!.initialize(to: sentiment)
            logged.pointer(to: \.interestAnswers)!.initialize(to: interestAnswers)
            logged.pointer(to: \.attachments)!.initialize(to: attachments)
            return logged.move()
        }
    }

    /// The names of the stored properties of an `InteractionLogged` that
    /// ``interactionLogged(staging:)`` sets in place, for the test that holds them to the type's.
    static let interactionPropertiesSetInPlace = ["interactionId", "schoolId", "coachId", "eventId", "otherCoachName", "type", "direction",
                                                  "occurredAt", "subject", "content", "sentiment", "interestAnswers", "attachments"]

    /// Six booleans and the `]` after them (the cursor past the `[`).
    private mutating func answers() -> [Bool]? {
        var answers: [Bool] = []
        answers.reserveCapacity(6)
        for index in 0..<6 {
            if index > 0, !literal(",") { return nil }
            if literal("true") {
                answers.append(true)
            } else if literal("false") {
                answers.append(false)
            } else {
                return nil
            }
        }
        return literal("]") ? answers : nil
    }

    /// One or more attachments as ``EventEncoder`` writes them, and the `]` after them (the
    /// cursor past the `[`): a name, a size within the limit, an allowed MIME type and an
    /// optional SHA-256.
    private mutating func attachmentList() -> [Attachment]? {
        var list: [Attachment] = []
        repeat {
            guard literal(#"{"name":""#), let name = checkedText(), !name.isEmpty,
                  literal(#"","sizeBytes":"#), let size = count(), size <= AttachmentRules.maxSizeBytes,
                  literal(#","mimeType":""#), let mime = stringBytes().map({ String(decoding: $0, as: UTF8.self) }),
                  AttachmentRules.allowedMimeTypes.contains(mime) else { return nil }
            var sha: String?
            if literal(#"","sha256":""#) {
                guard let hex = stringBytes(), hex.count == 64, ByteClass.allLowerHex(hex.baseAddress!, count: 64) else { return nil }
                sha = String(decoding: hex, as: UTF8.self)
            }
            guard literal(#""}"#) else { return nil }
            list.append(Attachment(name: name, sizeBytes: size, mimeType: mime, sha256: sha))
        } while literal(",")
        return literal("]") ? list : nil
    }

    /// A JSON integer ≥ 0 (no sign, no leading zero, no fraction or exponent).
    private mutating func count() -> Int64? {
        let start = i
        if i < n, p[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < n, p[i] >= UInt8(ascii: "0"), p[i] <= UInt8(ascii: "9"), i - start < 18 { i += 1 }
        }
        guard i > start else { return nil }
        return JSONTape.int64(p, start, i)
    }

    /// A text up to its closing quote, built when its bytes are valid UTF-8 (the cursor left on
    /// the quote); nil at an escape, a control character or invalid UTF-8.
    private mutating func checkedText() -> String? {
        guard let (bytes, _) = text() else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The school id the event names, taken from the ids built lately; its hash is kept for
    /// the line's keys.
    private mutating func namedSchool(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let id = ids.pointee.id(bytes, readableTo: p + n)
        school = id.hash
        return id.text
    }

    /// The coach id the event names, as ``namedSchool(_:)``.
    private mutating func namedCoach(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let id = ids.pointee.id(bytes, readableTo: p + n)
        coach = id.hash
        return id.text
    }

    /// An optional text field: when `key` is at the cursor, its text (`""` is none) goes into
    /// `value`, the cursor left on its closing quote. False when the text is not one this reader
    /// builds (an escape, a control character, invalid UTF-8).
    private mutating func optionalText(_ key: StaticString, into value: inout String?) -> Bool {
        guard literal(key) else { return true }
        guard let text = checkedText() else { return false }
        value = text.isEmpty ? nil : text
        return true
    }

    /// A text that is not blank, within `limit` UTF-16 units, built (the cursor left on its
    /// closing quote). Only a text with a visible ASCII character is known here not to be
    /// blank; one of spaces and other characters only is left to the tape, as are escapes.
    private mutating func nonBlankText(limit: Int) -> String? {
        guard let (bytes, units) = text(), units <= limit,
              bytes.contains(where: { $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the bytes at the cursor are `word` (then the cursor is past them). Inlined, the
    /// word's length is known where it is compared: 4.7 % fewer instructions in a replay (the
    /// same done to ``idBytes()`` and ``stringBytes()`` added 0.8 %).
    @inline(__always) private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard n - i >= count, ByteCompare.equal(p + i, word.utf8Start, count: count) else { return false }
        i += count
        return true
    }

    /// A `seq` as the envelope takes it: a JSON integer from 1 to ``Envelope/maxSeq``.
    private mutating func seq() -> Int64? {
        let start = i
        guard i < n, p[i] >= UInt8(ascii: "1"), p[i] <= UInt8(ascii: "9") else { return nil }
        while i < n, p[i] >= UInt8(ascii: "0"), p[i] <= UInt8(ascii: "9"), i - start < 17 { i += 1 }
        guard let value = JSONTape.int64(p, start, i), value <= Envelope.maxSeq else { return nil }
        return value
    }

    /// An id's bytes (1–64 id bytes) up to the quote that closes them; the cursor is left on it.
    private mutating func idBytes() -> UnsafeBufferPointer<UInt8>? {
        let start = i
        i = ByteClass.idRunEnd(p, from: i, to: n)
        guard i < n, p[i] == UInt8(ascii: "\""), (1...64).contains(i - start) else { return nil }
        return UnsafeBufferPointer(start: p + start, count: i - start)
    }

    /// The bytes up to the next quote, for a value whose reader takes only ASCII letters, digits
    /// and punctuation (so a `\`, a control character or a non-ASCII byte among them is refused
    /// there); the cursor is left on the quote.
    private mutating func stringBytes() -> UnsafeBufferPointer<UInt8>? {
        let start = i
        i = ByteClass.quoteIndex(p, from: i, to: n)
        guard i < n else { return nil }
        return UnsafeBufferPointer(start: p + start, count: i - start)
    }

    /// A text's bytes up to its closing quote, and how many UTF-16 units they are; nil at an
    /// escape, a control character or bytes that are not UTF-8.
    ///
    /// Each non-ASCII character is checked where the scan stops at it: checked afterwards
    /// (``UTF8Check/utf16Count(ifValid:)``), the bytes of a text that is not all ASCII were
    /// read a second time.
    private mutating func text() -> (UnsafeBufferPointer<UInt8>, utf16Count: Int)? {
        let start = i
        var extra = 0  // how many more bytes than UTF-16 units the characters so far take
        while true {
            i = JSONTape.plainRunEnd(p, from: i, to: n)
            guard i < n else { return nil }
            let byte = p[i]
            if byte == UInt8(ascii: "\"") { return (UnsafeBufferPointer(start: p + start, count: i - start), i - start - extra) }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            if byte < 0x80 {
                i += 1
                continue
            }
            guard let length = UTF8Check.sequenceLength(p, at: i, end: n) else { return nil }
            extra += length == 4 ? 2 : length - 1
            i += length
        }
    }
}
