/// The rules of SPEC §2 that read the state, one function per rule with its message.
///
/// Both ways of deciding call these and only these: the step-by-step path of
/// ``Rules/decide(_:in:sanitizing:)`` (shape and state rules interleaved in the SPEC's order)
/// and ``Rules/check(_:in:)`` (the state rules of an event whose shape already passed, in the
/// same relative order). Replay uses the second for lines decoded ahead on another core.
///
/// It reads the state through ``RuleTables``: the members, and the event's family looked up
/// once, where they lie in the state.
struct StateRules {
    let tables: RuleTables
    let actor: String
    let familyId: String
    /// The `hashValue` of the interaction id the event names, when worked out ahead.
    let interactionHash: Int?
    /// The `hashValue` of the actor's user id.
    let actorHash: Int
    /// The `hashValue`s of the school and coach ids the event names, when worked out ahead.
    let schoolHash: Int?, coachHash: Int?

    /// Calls `body` with the rules of an event of `actor` in `family`, read against `state`.
    @inline(__always) static func with<R>(_ state: borrowing CompassState, actor: String, family: String, keys: LineKeys? = nil,
                                          _ body: (StateRules) throws(EventError) -> R) throws(EventError) -> R {
        try state.withRuleTables(family: family, hash: keys?.family ?? family.hashValue) { (tables) throws(EventError) -> R in
            try body(StateRules(tables: tables, actor: actor, familyId: family, interactionHash: keys?.interaction,
                                actorHash: keys?.actor ?? actor.hashValue, schoolHash: keys?.school, coachHash: keys?.coach))
        }
    }

    /// `Unknown user U` unless the actor is a member of the event's family.
    /// Returns their role.
    func actorMember() throws(EventError) -> MemberRole {
        guard let role = tables.role(of: actor, hash: actorHash, in: familyId) else {
            throw EventError("Unknown user \(actor)", kind: .notFound)
        }
        return role
    }

    func userIsNew(_ userId: String) throws(EventError) {
        guard !tables.isMember(userId, hash: userId.hashValue) else { throw EventError("User \(userId) is already a member") }
    }

    /// The first member joins by themselves; later ones are added by a member of the family.
    func actorMayAddMember(_ userId: String) throws(EventError) {
        let allowed = tables.familyHasMembers ? tables.role(of: actor, hash: actorHash, in: familyId) != nil : actor == userId
        guard allowed else { throw EventError("Only family members can add members", kind: .forbidden) }
    }

    func schoolIsNew(_ schoolId: String) throws(EventError) {
        guard !tables.familyHasSchool(schoolId, hash: schoolHash ?? schoolId.hashValue) else { throw EventError("School \(schoolId) already exists") }
    }

    func schoolExists(_ schoolId: String) throws(EventError) {
        guard tables.familyHasSchool(schoolId, hash: schoolHash ?? schoolId.hashValue) else {
            throw EventError(RuleMessage.selectSchool, field: "schoolId", value: schoolId)
        }
    }

    func coachIsNew(_ coachId: String) throws(EventError) {
        guard !tables.familyHasCoach(coachId, hash: coachHash ?? coachId.hashValue) else { throw EventError("Coach \(coachId) already exists") }
    }

    /// The coach exists and, when a school is named too, coaches there.
    func coachMatches(_ coachId: String, school schoolId: String?) throws(EventError) {
        guard tables.familyHasCoach(coachId, hash: coachHash ?? coachId.hashValue, at: schoolId) else {
            throw EventError("Invalid coach selection", field: "coachId", value: coachId)
        }
    }

    static func playerLogs(_ role: MemberRole) throws(EventError) {
        guard role == .player else { throw EventError("Only players can create interactions", kind: .forbidden) }
    }

    func interactionIsNew(_ interactionId: String) throws(EventError) {
        guard !tables.familyHasInteraction(interactionId, hash: interactionHash ?? interactionId.hashValue) else {
            throw EventError("Interaction \(interactionId) already exists")
        }
    }

    static func playerDeletes(_ role: MemberRole) throws(EventError) {
        guard role != .parent else { throw EventError("Only the player who logged this interaction can delete it", kind: .forbidden) }
    }

    /// The interaction is live and the actor logged it.
    func actorLoggedLive(_ interactionId: String) throws(EventError) {
        guard tables.interactionIsLive(interactionId, loggedBy: actor, hash: interactionHash ?? interactionId.hashValue) else {
            throw EventError(RuleMessage.interactionNotFound, kind: .notFound, field: "interactionId", value: interactionId)
        }
    }

    func documentIsNew(_ documentId: String) throws(EventError) {
        guard !tables.familyHasDocument(documentId) else { throw EventError("Document \(documentId) already exists") }
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
