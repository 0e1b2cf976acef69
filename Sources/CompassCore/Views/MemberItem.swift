/// A member of the family (SPEC §3.4).
public struct MemberItem: Hashable, Sendable, Codable, Identifiable {
    /// The user id.
    public var userId: String
    /// The member's full name.
    public var fullName: String
    /// `player` or `parent`.
    public var role: MemberRole
    /// When they joined.
    public var joinedAt: Timestamp

    public var id: String { userId }
}
