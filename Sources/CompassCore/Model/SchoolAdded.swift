/// A school was added to the family's list.
public struct SchoolAdded: Hashable, Sendable {
    /// The school's id in the family.
    public var schoolId: String
    /// The name shown to people.
    public var name: String
    /// The status, a slug such as `interested`.
    public var status: String?

    public init(schoolId: String, name: String, status: String? = nil) {
        self.schoolId = schoolId
        self.name = name
        self.status = status
    }
}
