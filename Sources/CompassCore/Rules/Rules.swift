/// The one rule set of SPEC §2: it decides every append and every replayed line.
///
/// `decide` checks, in order: duplicate event id, known type, supported version, then for
/// every type but `MemberJoined` that the actor is a member of the event's family, then the
/// payload's shape, then the type's rules in the order the SPEC writes them. The first
/// failure wins and carries the SPEC's message.
package enum Rules {
    /// Accepts a draft as an event, or throws the first rule it breaks.
    ///
    /// - Parameter sanitizing: strip markup from subject and content first (appends only).
    /// - Complexity: O(size of the payload); every state lookup is a hash lookup.
    package static func decide(_ draft: EventDraft, in state: CompassState, sanitizing: Bool = false) throws(EventError) -> Event {
        guard !state.eventIds.contains(draft.id) else { throw EventError("duplicate event id \(draft.id)", kind: .duplicate) }
        return try build(draft, state: state, sanitizing: sanitizing)
    }

    /// ``decide(_:in:sanitizing:)`` for a draft whose payload was already built without the
    /// state (by ``payloadIgnoringState(_:sanitizing:)`` with the same `sanitizing`), possibly
    /// on another thread: only the state rules run when it built; otherwise the step-by-step
    /// path finds the first failure in the SPEC's order.
    package static func decide(_ draft: EventDraft, prebuilt: Result<Payload, EventError>, in state: CompassState,
                              sanitizing: Bool = false) throws(EventError) -> Event {
        guard case .success(let payload) = prebuilt else { return try decide(draft, in: state, sanitizing: sanitizing) }
        let event = Event(seq: draft.seq, id: draft.id, at: draft.at, actor: draft.actor, family: draft.family,
                          payload: payload, prev: draft.prev)
        try accept(event, in: state)
        return event
    }

    /// ``decide(_:prebuilt:in:sanitizing:)`` moving the draft's texts and the built payload
    /// into the event (a batch whose drafts are dropped once decided: copying them would take
    /// a reference count per text). Both are left empty when the payload had built.
    package static func decide(taking draft: inout EventDraft, prebuilt: inout Result<Payload, EventError>, in state: CompassState,
                               sanitizing: Bool = false) throws(EventError) -> Event {
        guard case .success = prebuilt else { return try decide(draft, in: state, sanitizing: sanitizing) }
        var taken = Result<Payload, EventError>.failure(EventError("taken"))
        swap(&taken, &prebuilt)
        guard case .success(let payload) = consume taken else { preconditionFailure("a built payload") }
        let event = draft.takeEvent(payload: payload)
        try accept(event, in: state)
        return event
    }

    /// Decides an event whose shape already passed (its payload built without the state):
    /// the duplicate-id check, then ``check(_:in:)``.
    package static func accept(_ event: Event, in state: CompassState) throws(EventError) {
        try accept(event, keys: LineKeys(id: event.id, actor: event.actor, family: event.family, payload: event.payload), in: state)
    }

    /// ``accept(_:in:)`` with the keys of its lookups worked out ahead.
    package static func accept(_ event: Event, keys: LineKeys, in state: CompassState) throws(EventError) {
        guard !state.eventIds.contains(event.id, key: keys.eventId) else {
            throw EventError("duplicate event id \(keys.eventIdText(event.id))", kind: .duplicate)
        }
        try check(event, in: state, keys: keys)
    }

    /// The payload a draft would produce if the state allowed it: its shape and field
    /// messages only. Idempotent retries compare this with the event already in the log.
    package static func payloadIgnoringState(_ draft: EventDraft, sanitizing: Bool) throws(EventError) -> Payload {
        try payload(draft, data: draft.data, state: nil, sanitizing: sanitizing)
    }

    /// ``payloadIgnoringState(_:sanitizing:)`` with the payload read from `data` instead of the
    /// draft's (replay reads it in place from the line's tape). Without a state only the
    /// draft's `type` and `version` matter, so only they are taken (not a copy of the draft).
    static func payloadIgnoringState(type: String, version: Int64, data: some JSONFields, sanitizing: Bool) throws(EventError) -> Payload {
        try payload(type: type, version: version, data: data, rules: nil, sanitizing: sanitizing)
    }

    /// The envelope rules replay applies to a line (SPEC §1), for a draft built in memory
    /// (an append): `id`, `actor` and `family` are ids and `at` is a time of years 0000–9999.
    /// Replay reads these through ``EnvelopeReader``, which refuses the same drafts with the
    /// same messages, so what an append acknowledges, replay applies.
    package static func checkEnvelope(_ draft: EventDraft) throws(EventError) {
        guard Identifier.isValid(draft.id) else { throw .mustBe("id", "an id") }
        guard Timestamp.validRange.contains(draft.at) else { throw .mustBe("at", "an RFC 3339 time") }
        guard Identifier.isValid(draft.actor) else { throw .mustBe("actor", "an id") }
        guard Identifier.isValid(draft.family) else { throw .mustBe("family", "an id") }
    }

    /// The `type` of the records that replace erased lines (SPEC §5).
    package static let erasedType = "Erased"

    /// What deciding an `Erased` record gives: never an event. A well-formed one is
    /// ``ProblemKind/erased`` (replay skips it without a problem; an append refuses it); a
    /// malformed one is a shape problem.
    private static func erasedRecord<Fields: JSONFields>(_ reader: PayloadReader<Fields>) throws(EventError) -> EventError {
        _ = try reader.hash("was")
        return EventError("Erased lines are written only by compass erase", kind: .erased)
    }

    private static func build(_ draft: EventDraft, state: CompassState?, sanitizing: Bool) throws(EventError) -> Event {
        let payload = try payload(draft, data: draft.data, state: state, sanitizing: sanitizing)
        return Event(seq: draft.seq, id: draft.id, at: draft.at, actor: draft.actor, family: draft.family,
                     payload: payload, prev: draft.prev)
    }

    /// The payload of a draft: its shape and field rules, and the state rules when there is a
    /// state, in the SPEC's order. (Returned alone: taking it out of an `Event` would copy it.)
    private static func payload<Fields: JSONFields>(_ draft: EventDraft, data: Fields, state: CompassState?,
                                                    sanitizing: Bool) throws(EventError) -> Payload {
        guard let state else { return try payload(type: draft.type, version: draft.version, data: data, rules: nil, sanitizing: sanitizing) }
        return try StateRules.with(state, actor: draft.actor, family: draft.family) { (rules) throws(EventError) in
            try payload(type: draft.type, version: draft.version, data: data, rules: rules, sanitizing: sanitizing)
        }
    }

    private static func payload<Fields: JSONFields>(type name: String, version: Int64, data: Fields, rules: StateRules?,
                                                    sanitizing: Bool) throws(EventError) -> Payload {
        if name == Rules.erasedType { throw try erasedRecord(PayloadReader(data: data)) }
        guard let type = EventType.known(name) else { throw EventError("unknown event type \(name)", kind: .unknownType) }
        guard version == 1 else { throw EventError("unsupported version \(version)", kind: .unsupportedVersion) }
        let context = RuleContext(rules: rules, reader: PayloadReader(data: data))
        let payload: Payload
        switch type {
        case .memberJoined: payload = .memberJoined(try context.memberJoined())
        case .schoolAdded: payload = .schoolAdded(try context.schoolAdded())
        case .coachAdded: payload = .coachAdded(try context.coachAdded())
        case .interactionLogged: payload = .interactionLogged(try context.interactionLogged(sanitizing: sanitizing))
        case .interactionDeleted: payload = .interactionDeleted(try context.interactionDeleted())
        case .schoolStatusChanged: payload = .schoolStatusChanged(try context.schoolStatusChanged())
        case .documentUploaded: payload = .documentUploaded(try context.documentUploaded())
        case .notificationSettingsChanged: payload = .notificationSettingsChanged(try context.notificationSettingsChanged())
        case .notificationsRead: payload = .notificationsRead(try context.notificationsRead())
        case .erasureRecorded: payload = .erasureRecorded(try context.erasureRecorded())
        }
        return payload
    }
}

/// A draft's payload fields and the state rules it is decided against. With no state, only
/// shape and field rules run.
struct RuleContext<Fields: JSONFields> {
    let rules: StateRules?
    let reader: PayloadReader<Fields>

    /// `Unknown user U` unless the actor is a member of the event's family; their role.
    func actorMember() throws(EventError) -> MemberRole? {
        try rules?.actorMember()
    }

    func memberJoined() throws(EventError) -> MemberJoined {
        let userId = try reader.requiredId("userId")
        try rules?.userIsNew(userId)
        let fullName = try reader.nonBlank("fullName", else: "Name is required")
        let role = try reader.choice("role", MemberRole.self, else: "Invalid role")
        try rules?.actorMayAddMember(userId)
        return MemberJoined(userId: userId, fullName: fullName, role: role)
    }

    func schoolAdded() throws(EventError) -> SchoolAdded {
        _ = try actorMember()
        let schoolId = try reader.requiredId("schoolId")
        try rules?.schoolIsNew(schoolId)
        let name = try reader.nonBlank("name", else: "School name is required")
        guard TextRules.fits(name, 200) else { throw EventError("School name must be 200 characters or less") }
        let status = try reader.optionalText("status", else: RuleMessage.invalidStatus)
        if let status, !TextRules.isSlug(status) { throw EventError(RuleMessage.invalidStatus) }
        return SchoolAdded(schoolId: schoolId, name: name, status: status)
    }

    func coachAdded() throws(EventError) -> CoachAdded {
        _ = try actorMember()
        let coachId = try reader.requiredId("coachId")
        try rules?.coachIsNew(coachId)
        guard let schoolId = try reader.reference("schoolId", else: RuleMessage.selectSchool) else {
            throw EventError(RuleMessage.selectSchool)
        }
        try rules?.schoolExists(schoolId)
        let firstName = try reader.nonBlank("firstName", else: "First name is required")
        let lastName = try reader.nonBlank("lastName", else: "Last name is required")
        let role = try reader.choice("role", CoachRole.self, else: "Invalid coach role")
        return CoachAdded(coachId: coachId, schoolId: schoolId, firstName: firstName, lastName: lastName, role: role)
    }

    func interactionDeleted() throws(EventError) -> InteractionDeleted {
        let member = try actorMember()
        if let member { try StateRules.playerDeletes(member) }
        guard let interactionId = try reader.reference("interactionId", else: RuleMessage.interactionNotFound) else {
            throw EventError(RuleMessage.interactionNotFound, kind: .notFound)
        }
        try rules?.actorLoggedLive(interactionId)
        return InteractionDeleted(interactionId: interactionId)
    }

    func schoolStatusChanged() throws(EventError) -> SchoolStatusChanged {
        _ = try actorMember()
        let notes = try reader.optionalText("notes")
        guard let schoolId = try reader.reference("schoolId", else: RuleMessage.selectSchool) else {
            throw EventError(RuleMessage.selectSchool)
        }
        try rules?.schoolExists(schoolId)
        guard case .string(let status)? = reader.data["newStatus"], TextRules.isSlug(status) else {
            throw EventError(RuleMessage.invalidStatus)
        }
        return SchoolStatusChanged(schoolId: schoolId, newStatus: status, notes: notes)
    }

    func documentUploaded() throws(EventError) -> DocumentUploaded {
        _ = try actorMember()
        let documentId = try reader.requiredId("documentId")
        let fileName = try reader.optionalText("fileName")
        let sizeBytes = try reader.optionalCount("sizeBytes")
        try rules?.documentIsNew(documentId)
        let title = try reader.nonBlank("title", else: "Title is required")
        guard TextRules.fits(title, 200) else { throw EventError("Title must be 200 characters or less") }
        guard case .string(let docType)? = reader.data["docType"], TextRules.isSlug(docType) else {
            throw EventError("Invalid document type")
        }
        // v3: the bytes' hash, with their size (SPEC §2).
        let sha256 = try reader.optionalText("sha256", else: "Invalid file hash")
        if let sha256 {
            guard SHA256.isHex(sha256) else { throw EventError("Invalid file hash") }
            guard sizeBytes != nil else { throw EventError("missing field sizeBytes", kind: .shape) }
        }
        return DocumentUploaded(documentId: documentId, title: title, docType: docType, fileName: fileName, sizeBytes: sizeBytes,
                                sha256: sha256)
    }

    /// The actor's own setting: any member may change it (SPEC §2, §3.5).
    func notificationSettingsChanged() throws(EventError) -> NotificationSettingsChanged {
        _ = try actorMember()
        return NotificationSettingsChanged(inboundAlerts: try reader.bool("inboundAlerts"))
    }

    /// An erasure's record (SPEC §5): the head and line count before it, how many lines it
    /// erased and its scope; applied without a membership check (its actor is `-`).
    func erasureRecorded() throws(EventError) -> ErasureRecorded {
        let erased = try reader.count("erased")
        return ErasureRecorded(oldHead: try reader.hash("oldHead"), oldLines: try reader.count("oldLines"), erased: erased,
                               scope: try reader.choice("scope", ErasureScope.self, else: "field data.scope must be member or family"),
                               erasedSeqs: try erasedSeqs(count: erased))
    }

    /// `data.erasedSeqs`, when present: `erased` seqs, each ≥ 1, strictly ascending.
    private func erasedSeqs(count: Int64) throws(EventError) -> [Int64]? {
        guard let value = reader.data["erasedSeqs"], value != .null else { return nil }
        let shape = EventError.mustBe("data.erasedSeqs", "the erased lines' seqs, ascending, one per erased line")
        guard case .array(let items) = value, Int64(items.count) == count else { throw shape }
        var seqs: [Int64] = []
        seqs.reserveCapacity(items.count)
        for item in items {
            guard case .int(let seq) = item, seq >= 1, seq > (seqs.last ?? 0) else { throw shape }
            seqs.append(seq)
        }
        return seqs
    }

    /// Marks the actor's notifications read up to a line.
    func notificationsRead() throws(EventError) -> NotificationsRead {
        _ = try actorMember()
        return NotificationsRead(upToSeq: try reader.count("upToSeq"))
    }
}
