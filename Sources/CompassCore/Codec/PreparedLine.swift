import CompassMachine

/// A complete log line parsed, hashed and decoded as far as it can be without the state.
///
/// Preparing is pure and independent per line, so a reader may prepare lines on several
/// threads and feed them to ``Replayer/consume(prepared:)`` in order; only the state rules
/// (``Rules/check(_:in:)``) and the fold are left for that thread.
package struct PreparedLine: Equatable, Sendable {
    package enum Content: Equatable, Sendable {
        case blank
        case invalid
        /// Valid JSON whose envelope breaks a rule of SPEC §1.
        case badEnvelope(EventError)
        /// A readable envelope and its payload built without the state, or why it did not build.
        ///
        /// Boxed: a replay without observer makes one only for a line whose payload fails, and
        /// in place its 273 bytes made every line's content that large, moved three times
        /// by the fold.
        indirect case draft(EventDraft, payload: Result<Payload, EventError>)
        /// A line whose payload built, when no one keeps raw payloads: the event, as it will be
        /// folded if the state allows it, is the line's ``PreparedLine/event`` (built here, so
        /// the fold thread only decides).
        case event
        /// `{"type":"Erased","actor":"-","data":{"was":H}}` and nothing else: an erased line
        /// that was in no family's stream (its `family` was broken). Skipped without a problem
        /// and counted, like any `Erased` record, but in no stream (ARCHITECTURE.md, Erasure).
        case erasedOutsideStreams

        /// A draft and its built payload, or the event they make when the payload is not kept.
        static func decoded(_ draft: consuming EventDraft, _ payload: consuming Result<Payload, EventError>,
                            keepingPayload: Bool) -> (content: Content, event: Event) {
            guard !keepingPayload, payload.succeeded else { return (.draft(draft, payload: payload), .none) }
            guard case .success(let built) = consume payload else { preconditionFailure("succeeded") }
            return (.event, draft.takeEvent(payload: built))
        }

        var isBlank: Bool {
            if case .blank = self { return true }
            return false
        }
    }

    /// The content, moved out of the line and `.blank` left in its place: returning the stored
    /// property of a consumed line would copy the draft's box, a reference count.
    mutating func takeContent() -> Content {
        exchange(&content, with: .blank)
    }

    package var byteCount: Int
    /// SHA-256 of the line's bytes (nil when not hashing).
    package var hash: LineHash?
    package var content: Content
    /// The `seq` field when it is an integer ≥ 1, even if the envelope is otherwise broken.
    package var readableSeq: Int64?
    /// The `at` field when it is an RFC 3339 time, even if the envelope is otherwise broken.
    package var readableAt: Timestamp?
    /// The `prev` field when it is a string, well-formed or not: as words when the line is of
    /// the common shape and no one keeps its payload (no string per line), else as text.
    package var prev: LineHead?
    /// The `family` field when it is a valid id, even if the envelope is otherwise broken.
    package var readableFamily: String?
    /// The keys the fold looks the line's event up by (worked out here, off the fold thread);
    /// nil when the line has no readable envelope.
    package var keys: LineKeys?
    /// Texts of the event left out of its payload and staged instead (``TextStaging``): the
    /// fold must be given the line's bytes, where they are.
    package var staged = StagedTexts()
    /// The event when ``content`` is ``Content/event``, ``Event/none`` otherwise.
    ///
    /// Kept beside the content, not in it, so that the line is prepared with its event read
    /// straight into place and folded with it read where it lies: as the content's payload,
    /// the 240-byte event was copied twice to be put in and four times to be taken out.
    package var event = Event.none

    /// The event, when the line holds one (``Content/event``).
    package var preparedEvent: Event? {
        if case .event = content { return event }
        return nil
    }

    /// Starts loading a prepared line's memory, written on another core, well before the fold
    /// reads it (a hint; never faults).
    package static func prefetch(_ line: UnsafePointer<PreparedLine>) {
        let raw = UnsafeRawPointer(line)
        for offset in stride(from: 0, to: MemoryLayout<PreparedLine>.size, by: 64) { compass_prefetch(raw + offset) }
    }

    /// Parses, hashes and decodes one line without its `\n`.
    ///
    /// - Parameter keepingPayload: keep the raw payload of a draft whose payload built (an
    ///   observer may want it when the state rejects the line); otherwise it is freed here.
    package init(_ line: UnsafeBufferPointer<UInt8>, hashing: Bool = true, keepingPayload: Bool = true) {
        var tape = JSONTape()
        self.init(line, hashing: hashing, keepingPayload: keepingPayload, tape: &tape)
    }

    /// Prepares a line with a tape kept from earlier lines (no tape allocation per line).
    ///
    /// - Parameters:
    ///   - stagingTexts: note where long texts are in the line instead of building them
    ///     (``TextStaging``; only when the payload is not kept); the fold then needs the line.
    ///   - commonLines: read a line of a common type and shape straight from its bytes
    ///     (``CommonLineReader``) when no payload is kept and texts are staged (tests turn it
    ///     off to compare with the tape).
    package init(_ line: UnsafeBufferPointer<UInt8>, hashing: Bool = true, keepingPayload: Bool = true,
                tape: inout JSONTape, commonLines: Bool = true,
                stagingTexts: Bool = false) {
        self.init(line, hash: hashing ? LineHash(of: line) : nil, keepingPayload: keepingPayload, tape: &tape,
                  commonLines: commonLines, stagingTexts: stagingTexts)
    }

    /// Prepares a line whose hash is already known (lines hashed two at a time,
    /// ``SHA256/lineHashes(_:_:)``), or nil when not hashing.
    package init(_ line: UnsafeBufferPointer<UInt8>, hash: LineHash?, keepingPayload: Bool = true,
                tape: inout JSONTape, commonLines: Bool = true,
                stagingTexts: Bool = false) {
        self = Self.prepared(line, hash: hash, keepingPayload: keepingPayload, tape: &tape,
                             commonLines: commonLines, stagingTexts: stagingTexts)
    }

    /// The line ``init(_:hash:keepingPayload:tape:commonLines:stagingTexts:)``
    /// makes.
    package static func prepared(_ line: UnsafeBufferPointer<UInt8>, hash: LineHash?, keepingPayload: Bool = true,
                                 tape: inout JSONTape, commonLines: Bool = true,
                                 stagingTexts: Bool = false) -> PreparedLine {
        var ids = IdInterner.none
        return withUnsafeTemporaryAllocation(of: PreparedLine.self, capacity: 1) { place in
            prepare(line, hash: hash, keepingPayload: keepingPayload, tape: &tape, ids: &ids,
                    commonLines: commonLines, stagingTexts: stagingTexts, into: place.baseAddress!)
            return place.baseAddress!.move()
        }
    }

    /// Prepares a line into `place` (uninitialized memory): a block of lines is prepared
    /// where it will be folded. Each path puts its line there as it is made: returned, the
    /// ~500-byte line was built on the stack, copied to the caller (a reference count per text)
    /// and the original freed, then moved again into its slot, for every line.
    ///
    /// - Parameter ids: the ids built lately on this thread (``IdInterner``), kept from line to
    ///   line like the tape; a common line takes its family's, actor's, school's and coach's
    ///   ids from there.
    package static func prepare(_ line: UnsafeBufferPointer<UInt8>, hash: LineHash?, keepingPayload: Bool = true,
                                tape: inout JSONTape, ids: inout IdInterner, commonLines: Bool = true,
                                stagingTexts: Bool = false, into place: UnsafeMutablePointer<PreparedLine>) {
        /// Puts the finished line in its place.
        @inline(__always) func done(_ prepared: consuming PreparedLine) { place.initialize(to: prepared) }
        if commonLines, !keepingPayload, stagingTexts, let start = line.baseAddress {
            var texts = TextStaging(line: start)
            // The event is read straight into its place; the rest of the line is set after it.
            if let keys = CommonLineReader.read(line, keyingId: true, staging: &texts, ids: &ids, into: place.pointer(to: \.event)!) {
                return initialize(place, byteCount: line.count, hash: hash, keys: keys, staged: texts.texts)
            }
        }
        // Each path builds its values and then the line in one go (a line without a readable
        // envelope gets no keys, rather than placeholder ones worked out and thrown away).
        guard tape.scan(line), let base = line.baseAddress else {
            return done(PreparedLine(byteCount: line.count, hash: hash,
                                     content: line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) ? .blank : .invalid))
        }
        guard EnvelopeReader.isObject(tape) else {
            return done(PreparedLine(byteCount: line.count, hash: hash, content: .invalid))  // valid JSON, but not an object
        }
        // A replay that keeps no payloads (and stages texts) leaves an interaction event's UUID
        // id as its key: the fold stores its bytes spelled from the key.
        let keyingIds = stagingTexts && !keepingPayload
        let decoded: EnvelopeReader.Decoded
        do {
            decoded = try EnvelopeReader.decode(tape, base, spellingPrev: keepingPayload, keyingInteractionIds: keyingIds)
        } catch {
            if EnvelopeReader.isErasureOutsideStreams(tape, base) {
                return done(PreparedLine(byteCount: line.count, hash: hash, content: .erasedOutsideStreams))
            }
            let readable = EnvelopeReader.readable(tape, base)
            return done(PreparedLine(byteCount: line.count, hash: hash, content: .badEnvelope(error), readableSeq: readable.seq,
                                     readableAt: readable.at, prev: readable.prev.map(LineHead.text), readableFamily: readable.family))
        }
        var draft = decoded.draft
        let (data, prevHash, idKey) = (decoded.data, decoded.prevHash, decoded.idKey)
        // The payload is read from the tape in place; the `data` tree is built only when
        // someone may still need it (an observer, or the step-by-step rules after a failure).
        let (type, version) = (draft.type, draft.version)
        func build(staging: UnsafeMutablePointer<TextStaging>?) -> Result<Payload, EventError> {
            TapeObject.reading(tape: tape, base: base, index: data, staging: staging) { fields in
                Result { () throws(EventError) in try Rules.payloadIgnoringState(type: type, version: version, data: fields, sanitizing: false) }
            }
        }
        let payload: Result<Payload, EventError>
        var staged = StagedTexts()
        if stagingTexts, !keepingPayload {
            var texts = TextStaging(line: base)
            payload = withUnsafeMutablePointer(to: &texts) { build(staging: $0) }
            if payload.succeeded { staged = texts.texts }
        } else {
            payload = build(staging: nil)
        }
        if keepingPayload || !payload.succeeded, case .object(let object) = tape.value(at: data, in: base) { draft.data = object }
        let keys: LineKeys
        if let idKey, payload.succeeded {
            keys = LineKeys(idKey: idKey, actor: draft.actor, family: draft.family, result: payload)
        } else {
            // A line the rules may refuse keeps its id spelled: messages and drafts name it.
            if let idKey { draft.id = idKey.uuidText }
            keys = LineKeys(id: draft.id, actor: draft.actor, family: draft.family, result: payload)
        }
        let (seq, at, family) = (draft.seq, draft.at, draft.family)
        let prev = prevHash.map(LineHead.words) ?? draft.prev.map(LineHead.text)
        let (content, event) = Content.decoded(draft, payload, keepingPayload: keepingPayload)
        return done(PreparedLine(byteCount: line.count, hash: hash, content: content, event: event,
                                 keys: keys, readableSeq: seq, readableAt: at, prev: prev, readableFamily: family, staged: staged))
    }

    /// Puts a line read by ``CommonLineReader`` (what the tape's fast path makes of it) in
    /// `place`, whose ``event`` the reader has set, one stored property at a time.
    ///
    /// Built by an initializer and then moved into its place, the finished ~500-byte line was
    /// copied (a reference count per text) and the original freed, for every common line; and
    /// building it through the general initializer (with a `Result` of the payload for its keys)
    /// moved and copied the 160-byte payload several times. Every stored property is set here
    /// or by the reader (`preparedLinesStoredPropertiesAreTheOnesSetInPlace` fails when one is
    /// added).
    private static func initialize(_ place: UnsafeMutablePointer<PreparedLine>, byteCount: Int, hash: LineHash?,
                                   keys read: CommonLineReader.Keys, staged: StagedTexts) {
        let event = UnsafePointer(place.pointer(to: \.event)!)
        place.pointer(to: \.byteCount)!.initialize(to: byteCount)
        place.pointer(to: \.hash)!.initialize(to: hash)
        place.pointer(to: \.keys)!.initialize(to: LineKeys(id: event.pointee.id, read: read))
        place.pointer(to: \.readableSeq)!.initialize(to: event.pointee.seq)
        place.pointer(to: \.readableAt)!.initialize(to: event.pointee.at)
        place.pointer(to: \.prev)!.initialize(to: .words(read.prev))
        place.pointer(to: \.readableFamily)!.initialize(to: event.pointee.family)
        place.pointer(to: \.staged)!.initialize(to: staged)
        place.pointer(to: \.content)!.initialize(to: .event)
    }

    /// The names of the stored properties ``initialize(_:byteCount:hash:keys:staged:)`` and
    /// the reader set, for the test that holds them to the type's.
    static let propertiesSetInPlace = ["byteCount", "hash", "content", "readableSeq", "readableAt", "prev", "readableFamily", "keys", "staged",
                                       "event"]

    private init(byteCount: Int, hash: LineHash?, content: consuming Content, event: consuming Event = .none, keys: LineKeys? = nil,
                 readableSeq: Int64? = nil, readableAt: Timestamp? = nil, prev: LineHead? = nil, readableFamily: String? = nil,
                 staged: StagedTexts = StagedTexts()) {
        self.byteCount = byteCount
        self.hash = hash
        self.content = content
        self.event = event
        self.keys = keys
        self.readableSeq = readableSeq
        self.readableAt = readableAt
        self.prev = prev
        self.readableFamily = readableFamily
        self.staged = staged
    }
}
