/// What the fold's lookups of a line need, worked out while the line is prepared (off the
/// fold thread): the event id's key, and the hashes of the family id, the actor's user id and
/// the interaction, school and coach ids the event names.
package struct LineKeys: Equatable, Sendable {
    package var eventId: EventIdKey
    /// The `hashValue` of the family id.
    package var family: Int
    /// The `hashValue` of the interaction id an `InteractionLogged` or `InteractionDeleted`
    /// names (nil for other events).
    package var interaction: Int?
    /// The `hashValue` of the actor's user id.
    package var actor = 0
    /// The `hashValue` of the school id the event names (nil when it names none).
    package var school: Int?
    /// The `hashValue` of the coach id the event names (nil when it names none).
    package var coach: Int?
    /// Whether the event's id was left out of it (its `id` is empty) and is spelled from
    /// ``eventId`` instead: only an interaction event whose id is in UUID form, prepared for a
    /// replay without observer (``EnvelopeReader/decode(_:_:spellingPrev:keyingInteractionIds:importingAt:)``).
    package var idInKey = false

    /// The keys of an event with this id, actor, family and payload.
    package init(id: String, actor: String, family: String, payload: borrowing Payload) {
        self.init(key: EventIdKey(id), actor: actor, family: family, payload: payload)
    }

    /// The keys of an event whose id's key is worked out already.
    private init(key: EventIdKey, actor: String, family: String, payload: borrowing Payload) {
        eventId = key
        self.family = family.hashValue
        interaction = payload.interactionIdHash
        hashIds(actor: actor, payload: payload)
    }

    /// The keys of an event read straight from its line (``CommonLineReader``), the hashes of
    /// the ids it names already worked out: the id's key when the id was left out of the
    /// event, else its text.
    init(id: String, read: CommonLineReader.Keys) {
        eventId = read.idKey ?? EventIdKey(id)
        family = read.family
        interaction = read.interaction
        actor = read.actor
        school = read.school
        coach = read.coach
        idInKey = read.idKey != nil
    }

    /// The keys of a line whose payload did not build (only its id, actor and family are looked up).
    package init(id: String, actor: String, family: String) {
        self.init(key: EventIdKey(id), actor: actor, family: family)
    }

    /// ``init(id:actor:family:)`` with the id's key worked out already.
    private init(key: EventIdKey, actor: String, family: String) {
        eventId = key
        self.family = family.hashValue
        interaction = nil
        self.actor = actor.hashValue
    }

    /// Works out the hashes of the actor and of the school and coach the payload names.
    private mutating func hashIds(actor: String, payload: borrowing Payload) {
        self.actor = actor.hashValue
        switch payload {
        case .schoolAdded(let e): school = e.schoolId.hashValue
        case .coachAdded(let e):
            school = e.schoolId.hashValue
            coach = e.coachId.hashValue
        case .interactionLogged(let e):
            school = e.schoolId?.hashValue
            coach = e.coachId?.hashValue
        case .schoolStatusChanged(let e): school = e.schoolId.hashValue
        default: break
        }
    }
}

extension Payload {
    /// The `hashValue` of the interaction id an interaction event names.
    var interactionIdHash: Int? {
        switch self {
        case .interactionLogged(let e): e.interactionId.hashValue
        case .interactionDeleted(let e): e.interactionId.hashValue
        default: nil
        }
    }
}

extension LineKeys {
    /// The event's id: its own, or spelled from its key when it was left out (``idInKey``).
    package func eventIdText(_ id: String) -> String {
        idInKey ? eventId.uuidText : id
    }

    /// The keys of an interaction event whose id is kept only as its key (``idInKey``).
    init(idKey: EventIdKey, actor: String, family: String, result: borrowing Result<Payload, EventError>) {
        self.init(key: idKey, actor: actor, family: family, result: result)
        idInKey = true
    }

    /// The keys of a line whose payload built (or did not: then only its id, actor and family
    /// are looked up).
    init(id: String, actor: String, family: String, result: borrowing Result<Payload, EventError>) {
        self.init(key: EventIdKey(id), actor: actor, family: family, result: result)
    }

    /// The keys of a line whose id's key is worked out already.
    private init(key: EventIdKey, actor: String, family: String, result: borrowing Result<Payload, EventError>) {
        switch result {
        case .success(let payload): self.init(key: key, actor: actor, family: family, payload: payload)
        case .failure: self.init(key: key, actor: actor, family: family)
        }
    }
}
