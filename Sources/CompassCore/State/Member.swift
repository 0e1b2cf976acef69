/// A member of a family.
public struct Member: Hashable, Sendable {
    /// The user id.
    public var userId: String
    /// The family id: the access boundary.
    public var family: String
    /// The member's full name.
    public var fullName: String
    /// The role.
    public var role: MemberRole
    /// When they joined (the `at` of their `MemberJoined`).
    public var joinedAt: Timestamp
    /// The `seq` of their `MemberJoined` line: alerts are for interactions after it (SPEC §3.5).
    public var joinedSeq: Int64
}
