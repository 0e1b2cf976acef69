/// A school on the family's list.
public struct School: Hashable, Sendable {
    public var id: String
    /// The name shown to people.
    public var name: String
    /// The status, a slug such as `interested`.
    public var status: String?
    /// When it was added (the `at` of its `SchoolAdded`).
    public var addedAt: Timestamp
}
