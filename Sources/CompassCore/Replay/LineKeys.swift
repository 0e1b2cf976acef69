/// What the fold's lookups of a line need, worked out while the line is prepared (off the
/// fold thread): the event id's key, the family id's hash, and the hash of the interaction id
/// the event names.
package struct LineKeys: Equatable, Sendable {
    package var eventId: EventIdKey
    /// The `hashValue` of the family id.
    package var family: Int
    /// The `hashValue` of the interaction id an `InteractionLogged` or `InteractionDeleted`
    /// names (nil for other events).
    package var interaction: Int?
    /// Whether the event's id was left out of it (its `id` is empty) and is spelled from
    /// ``eventId`` instead: only an interaction event whose id is in UUID form, prepared for a
    /// replay without observer (``EnvelopeFastPath/decode(_:_:spellingPrev:keyingInteractionIds:)``).
    package var idInKey = false

    /// The keys of an event with this id, family and payload.
    package init(id: String, family: String, payload: borrowing Payload) {
        eventId = EventIdKey(id)
        self.family = family.hashValue
        interaction = payload.interactionIdHash
    }

    /// The keys of an event read straight from its line (``CommonLineReader``), its hashes
    /// already worked out: the id's key when the id was left out of the event, else its text.
    init(idKey: EventIdKey?, id: String, familyHash: Int, interaction: Int?) {
        eventId = idKey ?? EventIdKey(id)
        family = familyHash
        self.interaction = interaction
        idInKey = idKey != nil
    }

    /// The keys of a line whose payload did not build (only its id and family are looked up).
    package init(id: String, family: String) {
        eventId = EventIdKey(id)
        self.family = family.hashValue
        interaction = nil
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
    init(idKey: EventIdKey, family: String, result: borrowing Result<Payload, EventError>) {
        eventId = idKey
        self.family = family.hashValue
        switch result {
        case .success(let payload): interaction = payload.interactionIdHash
        case .failure: interaction = nil
        }
        idInKey = true
    }

    /// The keys of a line whose payload built (or did not: then only its id is looked up).
    init(id: String, family: String, result: borrowing Result<Payload, EventError>) {
        switch result {
        case .success(let payload): self.init(id: id, family: family, payload: payload)
        case .failure: self.init(id: id, family: family)
        }
    }
}
