import Foundation

/// One line of the recruiting history: an applied event, or a line the rules rejected.
public struct AuditEntry: Hashable, Sendable, Codable {
    /// The 1-based line of the log.
    public var line: Int
    /// The line's `seq`.
    public var seq: Int64?
    /// When it was recorded.
    public var at: Timestamp?
    /// The user id of who did it.
    public var actor: String?
    /// The actor's name and role when they were (or became) a member; nil otherwise.
    public var actorName: String?
    /// The actor's role, when they are a member.
    public var actorRole: MemberRole?
    /// The family id: the access boundary.
    public var family: String?
    /// The type.
    public var type: String?
    /// A one-line sentence for a parent reading the history.
    public var summary: String
    /// Why the line was not applied; nil for applied events.
    public var rejection: String?
    /// Every member, school, coach, interaction and document id the event touches.
    public var entityIds: [String]
}
