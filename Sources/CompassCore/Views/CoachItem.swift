/// A coach of one of the family's schools with their last contact (SPEC §3.4).
public struct CoachItem: Hashable, Sendable, Codable, Identifiable {
    /// The coach's id in the family.
    public var coachId: String
    /// The coach's school.
    public var schoolId: String
    /// That school's name (`Unknown School` when unresolved).
    public var schoolName: String
    /// `First Last`.
    public var name: String
    /// `head`, `assistant` or `recruiting`.
    public var role: CoachRole
    /// `Head Coach`, `Assistant Coach`, `Recruiting Coordinator`.
    public var roleName: String
    /// The viewer's visible live interactions with the coach.
    public var interactionCount: Int
    /// The latest display date of those, or nil.
    public var lastContactAt: Timestamp?
    /// Whole days since the last contact, or nil.
    public var daysSinceContact: Int64?
    /// The coach's last name (the list is ordered by it).
    public var lastName: String
    /// The coach's first name.
    public var firstName: String

    public var id: String { coachId }
}
