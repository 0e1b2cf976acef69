/// The rules of SPEC §2 that read the state, one function per rule with its message.
///
/// Both ways of deciding call these and only these: the step-by-step path of
/// ``Rules/decide(_:in:sanitizing:)`` (shape and state rules interleaved in the SPEC's order)
/// and ``Rules/check(_:in:)`` (the state rules of an event whose shape already passed, in the
/// same relative order). Replay uses the second for lines decoded ahead on another core.
///
/// It reads the two tables it needs (the members, and the list of families) where they lie
/// in the state, through pointers valid while ``with(_:actor:family:keys:_:)`` runs: holding
/// copies of them cost a reference count on each of their arrays and a release, on every line
/// (about 300 instructions, a fifteenth of the folding thread's).
struct StateRules {
    let members: UnsafePointer<IdTable<Member>>
    let families: UnsafeBufferPointer<Family>
    let actor: String
    let familyId: String
    /// Where the event's family is in the state, looked up once.
    let familyPosition: Int?
    /// The `hashValue` of the interaction id the event names, when worked out ahead.
    let interactionHash: Int?
    /// The `hashValue` of the actor's user id.
    let actorHash: Int
    /// The `hashValue`s of the school and coach ids the event names, when worked out ahead.
    let schoolHash: Int?, coachHash: Int?

    /// Calls `body` with the rules of an event of `actor` in `family`, read against `state`.
    @inline(__always) static func with<R>(_ state: borrowing CompassState, actor: String, family: String, keys: LineKeys? = nil,
                                          _ body: (StateRules) throws(EventError) -> R) throws(EventError) -> R {
        try withUnsafePointer(to: state) { (state) throws(EventError) -> R in
            let members = state.pointer(to: \.members)!
            let table = state.pointer(to: \.families)!
            let position = FamilyTable.position(in: table, of: family, hash: keys?.family ?? family.hashValue)
            // The family list is read where it lies: a copy of it takes a reference count and a
            // release for every line.
            return try table.pointer(to: \.list)!.withElements { (families) throws(EventError) -> R in
                try body(StateRules(members: members, families: families, actor: actor, familyId: family, familyPosition: position,
                                    interactionHash: keys?.interaction, actorHash: keys?.actor ?? actor.hashValue,
                                    schoolHash: keys?.school, coachHash: keys?.coach))
            }
        }
    }

    /// Whether the event's family exists and passes `test` (read in place).
    @inline(__always) private func familyHas(_ test: (UnsafePointer<Family>) -> Bool) -> Bool {
        family { test($0) ? true : nil } ?? false
    }

    /// Reads the event's family in place (nil when the family has no events yet).
    ///
    /// The family is handed over as a pointer so a rule reads the one table it needs where it
    /// lies (`$0.pointer(to: \.schools)`, read by ``IdTable/read(in:_:hash:_:)``): passing the
    /// `Family` value itself would copy it, one reference count per table, on every line.
    @inline(__always) private func family<R>(_ read: (UnsafePointer<Family>) -> R?) -> R? {
        guard let familyPosition else { return nil }
        return read(families.baseAddress! + familyPosition)
    }

    /// `Unknown user U` unless the actor is a member of the event's family.
    /// Returns their role.
    func actorMember() throws(EventError) -> MemberRole {
        // The member is read once: each read of the dictionary's value copies the member (a
        // reference count per text).
        guard let role = IdTable.read(in: members, actor, hash: actorHash, { $0.pointee.family == familyId ? $0.pointee.role : nil }) ?? nil else {
            throw EventError("Unknown user \(actor)", kind: .notFound)
        }
        return role
    }

    func userIsNew(_ userId: String) throws(EventError) {
        guard !IdTable.contains(in: members, userId, hash: userId.hashValue) else { throw EventError("User \(userId) is already a member") }
    }

    /// The first member joins by themselves; later ones are added by a member of the family.
    func actorMayAddMember(_ userId: String) throws(EventError) {
        let allowed: Bool
        if familyHas({ !$0.pointee.memberIds.isEmpty }) {
            allowed = IdTable.read(in: members, actor, hash: actorHash) { $0.pointee.family == familyId } ?? false
        } else {
            allowed = actor == userId
        }
        guard allowed else { throw EventError("Only family members can add members", kind: .forbidden) }
    }

    func schoolIsNew(_ schoolId: String) throws(EventError) {
        let hash = schoolHash ?? schoolId.hashValue
        guard !familyHas({ IdTable.contains(in: $0.pointer(to: \.schools)!, schoolId, hash: hash) }) else { throw EventError("School \(schoolId) already exists") }
    }

    func schoolExists(_ schoolId: String) throws(EventError) {
        let hash = schoolHash ?? schoolId.hashValue
        guard familyHas({ IdTable.contains(in: $0.pointer(to: \.schools)!, schoolId, hash: hash) }) else {
            throw EventError(RuleMessage.selectSchool, field: "schoolId", value: schoolId)
        }
    }

    func coachIsNew(_ coachId: String) throws(EventError) {
        let hash = coachHash ?? coachId.hashValue
        guard !familyHas({ IdTable.contains(in: $0.pointer(to: \.coaches)!, coachId, hash: hash) }) else { throw EventError("Coach \(coachId) already exists") }
    }

    /// The coach exists and, when a school is named too, coaches there.
    func coachMatches(_ coachId: String, school schoolId: String?) throws(EventError) {
        // Compared where the coach lies: `coaches[coachId]?.schoolId` copied the whole coach out.
        let hash = coachHash ?? coachId.hashValue
        let matches = familyHas { family in
            IdTable.read(in: family.pointer(to: \.coaches)!, coachId, hash: hash) { schoolId == nil || $0.pointee.schoolId == schoolId } ?? false
        }
        guard matches else {
            throw EventError("Invalid coach selection", field: "coachId", value: coachId)
        }
    }

    static func playerLogs(_ role: MemberRole) throws(EventError) {
        guard role == .player else { throw EventError("Only players can create interactions", kind: .forbidden) }
    }

    func interactionIsNew(_ interactionId: String) throws(EventError) {
        let found = familyHas { family in
            family.pointer(to: \.interactions).map { InteractionTable.contains(in: $0, interactionId, hash: interactionHash ?? interactionId.hashValue) } ?? false
        }
        guard !found else { throw EventError("Interaction \(interactionId) already exists") }
    }

    static func playerDeletes(_ role: MemberRole) throws(EventError) {
        guard role != .parent else { throw EventError("Only the player who logged this interaction can delete it", kind: .forbidden) }
    }

    /// The interaction is live and the actor logged it.
    func actorLoggedLive(_ interactionId: String) throws(EventError) {
        let hash = interactionHash ?? interactionId.hashValue
        guard familyHas({ InteractionTable.isLive(in: $0.pointer(to: \.interactions)!, interactionId, loggedBy: actor, hash: hash) }) else {
            throw EventError(RuleMessage.interactionNotFound, kind: .notFound, field: "interactionId", value: interactionId)
        }
    }

    func documentIsNew(_ documentId: String) throws(EventError) {
        guard !familyHas({ $0.pointee.documents.index(forKey: documentId) != nil }) else { throw EventError("Document \(documentId) already exists") }
    }
}

extension Rules {
    /// The state rules for an event whose shape already passed (it came from
    /// ``payloadIgnoringState(_:sanitizing:)``), in the order the step-by-step path runs them.
    ///
    /// For such an event, `check` throws exactly what ``decide(_:in:sanitizing:)`` throws after
    /// its duplicate-id check, and accepts exactly what it accepts (a property test holds both
    /// to it on adversarial logs).
    package static func check(_ event: Event, in state: CompassState) throws(EventError) {
        try check(event, in: state, keys: nil)
    }

    /// ``check(_:in:)`` with the keys of the event's lookups worked out ahead (they must be
    /// the event's: ``LineKeys/init(id:actor:family:payload:)``).
    static func check(_ event: Event, in state: CompassState, keys: LineKeys?) throws(EventError) {
        try StateRules.with(state, actor: event.actor, family: event.family, keys: keys) { (rules) throws(EventError) in
            try check(event.payload, rules)
        }
    }

    /// The state rules of a payload, in the order the step-by-step path runs them.
    @inline(__always) private static func check(_ payload: borrowing Payload, _ rules: StateRules) throws(EventError) {
        switch payload {
        case .memberJoined(let e):
            try rules.userIsNew(e.userId)
            try rules.actorMayAddMember(e.userId)
        case .schoolAdded(let e):
            _ = try rules.actorMember()
            try rules.schoolIsNew(e.schoolId)
        case .coachAdded(let e):
            _ = try rules.actorMember()
            try rules.coachIsNew(e.coachId)
            try rules.schoolExists(e.schoolId)
        case .interactionLogged(let e):
            try StateRules.playerLogs(try rules.actorMember())
            try rules.interactionIsNew(e.interactionId)
            if let schoolId = e.schoolId { try rules.schoolExists(schoolId) }
            if let coachId = e.coachId { try rules.coachMatches(coachId, school: e.schoolId) }
        case .interactionDeleted(let e):
            try StateRules.playerDeletes(try rules.actorMember())
            try rules.actorLoggedLive(e.interactionId)
        case .schoolStatusChanged(let e):
            _ = try rules.actorMember()
            try rules.schoolExists(e.schoolId)
        case .documentUploaded(let e):
            _ = try rules.actorMember()
            try rules.documentIsNew(e.documentId)
        case .notificationSettingsChanged, .notificationsRead:
            _ = try rules.actorMember()
        case .erasureRecorded:
            break  // applied without a membership check (SPEC §5)
        }
    }
}
