/// A proposed event: a well-formed envelope with its payload still raw JSON.
///
/// Replay decodes each line into a draft; `compass` builds one from its arguments. Either way
/// ``Rules/decide(_:in:sanitizing:)`` turns it into an ``Event`` or rejects it.
package struct EventDraft: Equatable, Sendable {
    package var seq: Int64
    package var id: String
    package var type: String
    package var at: Timestamp
    package var actor: String
    package var family: String
    package var data: JSONObject
    package var version: Int64
    package var prev: String?

    package init(seq: Int64, id: String, type: String, at: Timestamp, actor: String, family: String,
                data: JSONObject, version: Int64 = 1, prev: String? = nil) {
        self.seq = seq
        self.id = id
        self.type = type
        self.at = at
        self.actor = actor
        self.family = family
        self.data = data
        self.version = version
        self.prev = prev
    }
}

extension EventDraft {
    /// The envelope of an event with an empty `data` (what a rejected line shows when its raw
    /// payload was not kept).
    init(envelopeOf event: Event) {
        self.init(seq: event.seq, id: event.id, type: event.type.rawValue, at: event.at, actor: event.actor,
                  family: event.family, data: JSONObject(), prev: event.prev)
    }

    /// The event this draft makes with `payload`, its texts moved out of the draft (which is
    /// left with empty ones): building the event from a draft that is dropped next would copy
    /// each of them.
    mutating func takeEvent(payload: consuming Payload) -> Event {
        var taken = (id: "", actor: "", family: "", prev: String?.none)
        swap(&taken.id, &id)
        swap(&taken.actor, &actor)
        swap(&taken.family, &family)
        swap(&taken.prev, &prev)
        return Event(seq: seq, id: taken.id, at: at, actor: taken.actor, family: taken.family, payload: payload, prev: taken.prev)
    }
}

/// What `import` fills in for the envelope fields a line leaves out (absent or `null`); a
/// field that is there is read exactly as replay reads it.
package struct ImportDefaults {
    /// A new event id for a line without `id`.
    package var makeId: () -> String
    /// `at` for a line without one.
    package var at: Timestamp

    package init(makeId: @escaping () -> String, at: Timestamp) {
        self.makeId = makeId
        self.at = at
    }
}
