/// Adds a school to the family's list; `schoolId` defaults to a slug of the name.
public struct AddSchool: Sendable, Hashable {
    /// The name shown to people.
    public var name: String
    /// The school's id in the family.
    public var schoolId: String?
    /// The status, a slug such as `interested`.
    public var status: String?

    public init(name: String, schoolId: String? = nil, status: String? = nil) {
        self.name = name
        self.schoolId = schoolId
        self.status = status
    }
}
