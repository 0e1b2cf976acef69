/// Adds a member: to the actor's family, or, with `newFamily`, as the first member of a new
/// family (the actor is then the joining user).
public struct AddMember: Sendable, Hashable {
    /// The user id.
    public var userId: String
    /// The member's full name.
    public var fullName: String
    /// `player` or `parent`.
    public var role: String
    /// The id of a family not yet in the log, for its first member.
    public var newFamily: String?

    public init(userId: String, fullName: String, role: String, newFamily: String? = nil) {
        self.userId = userId
        self.fullName = fullName
        self.role = role
        self.newFamily = newFamily
    }

    public init(userId: String, fullName: String, role: MemberRole, newFamily: String? = nil) {
        self.init(userId: userId, fullName: fullName, role: role.rawValue, newFamily: newFamily)
    }
}
