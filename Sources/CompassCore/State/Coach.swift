/// A coach at one of the family's schools.
public struct Coach: Hashable, Sendable {
    public var id: String
    /// The school's id in the family.
    public var schoolId: String
    /// The coach's first name.
    public var firstName: String
    /// The coach's last name.
    public var lastName: String
    /// The role.
    public var role: CoachRole

    /// `First Last`.
    public var fullName: String { firstName + " " + lastName }
}
