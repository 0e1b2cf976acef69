/// A person joined a family as an athlete (`player`) or a parent.
public struct MemberJoined: Hashable, Sendable {
    /// The user id.
    public var userId: String
    /// The member's full name.
    public var fullName: String
    /// The role.
    public var role: MemberRole

    public init(userId: String, fullName: String, role: MemberRole) {
        self.userId = userId
        self.fullName = fullName
        self.role = role
    }
}
