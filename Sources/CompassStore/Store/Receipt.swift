import CompassCore
import Foundation

/// What an append wrote: where, under which ids, and the family's version after it.
public struct Receipt: Sendable, Hashable, Identifiable {
    /// The line's `seq` in its family's stream (SPEC §1.1).
    public var seq: Int64
    /// The event's id (the idempotency key when one was given).
    public var eventId: String
    /// The id of the entity the event adds or changes (`s-ucla`, `i-3`, …).
    public var entityId: String
    /// The family's version after the event: its last `seq`, this line's (SPEC §1.1).
    public var version: Int64 { seq }

    public var id: String { eventId }

    public init(seq: Int64, eventId: String, entityId: String) {
        self.seq = seq
        self.eventId = eventId
        self.entityId = entityId
    }
}
