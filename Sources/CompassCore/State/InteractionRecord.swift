/// A logged interaction with who logged it and whether it was deleted.
public struct InteractionRecord: Equatable, Sendable {
    /// The id of the event that logged it.
    public var eventId: String
    /// The line's `seq`.
    public var seq: Int64
    /// When it was recorded (`createdAt`).
    public var at: Timestamp
    /// The user id of the athlete who logged it.
    public var loggedBy: String
    /// The interaction as logged.
    public var logged: InteractionLogged
    /// When and by whom it was deleted, or nil while live.
    public var deletion: Deletion?

    /// `occurredAt`, else `at`.
    public var displayDate: Timestamp { logged.occurredAt ?? at }
}
