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

    /// The keys of an event with this id, family and payload.
    package init(id: String, family: String, payload: borrowing Payload) {
        eventId = EventIdKey(id)
        self.family = family.hashValue
        interaction = payload.interactionIdHash
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
    /// The keys of a line whose payload built (or did not: then only its id is looked up).
    init(id: String, family: String, result: borrowing Result<Payload, EventError>) {
        switch result {
        case .success(let payload): self.init(id: id, family: family, payload: payload)
        case .failure: self.init(id: id, family: family)
        }
    }
}
