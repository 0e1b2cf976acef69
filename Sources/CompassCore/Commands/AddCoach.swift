/// Adds a coach at one of the family's schools; `coachId` defaults to a slug of the name.
public struct AddCoach: Sendable, Hashable {
    /// The school's id in the family.
    public var schoolId: String
    /// The coach's first name.
    public var firstName: String
    /// The coach's last name.
    public var lastName: String
    /// `head`, `assistant` or `recruiting`.
    public var role: String
    /// The coach's id in the family.
    public var coachId: String?

    public init(schoolId: String, firstName: String, lastName: String, role: String, coachId: String? = nil) {
        self.schoolId = schoolId
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
        self.coachId = coachId
    }

    public init(schoolId: String, firstName: String, lastName: String, role: CoachRole, coachId: String? = nil) {
        self.init(schoolId: schoolId, firstName: firstName, lastName: lastName, role: role.rawValue, coachId: coachId)
    }
}
