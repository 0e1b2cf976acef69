import Foundation

/// Filters of `compass audit`, combined with AND.
public struct AuditQuery: Equatable, Sendable {
    /// Only entries about this entity (member, school, coach, interaction, document).
    public var entity: String?
    /// The user id of who did it.
    public var actor: String?
    /// Only entries recorded at or after this time.
    public var since: Timestamp?
    /// Only entries recorded at or before this time.
    public var until: Timestamp?

    public init(entity: String? = nil, actor: String? = nil, since: Timestamp? = nil, until: Timestamp? = nil) {
        self.entity = entity
        self.actor = actor
        self.since = since
        self.until = until
    }
}
