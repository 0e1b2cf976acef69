/// A coach of one of the family's schools was added.
public struct CoachAdded: Hashable, Sendable {
    /// The coach's id in the family.
    public var coachId: String
    /// The school's id in the family.
    public var schoolId: String
    /// The coach's first name.
    public var firstName: String
    /// The coach's last name.
    public var lastName: String
    /// The role.
    public var role: CoachRole

    public init(coachId: String, schoolId: String, firstName: String, lastName: String, role: CoachRole) {
        self.coachId = coachId
        self.schoolId = schoolId
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
    }
}
