/// Changes a school's status (a slug such as `offer_received`).
public struct ChangeStatus: Sendable, Hashable {
    /// The school's id in the family.
    public var schoolId: String
    /// The new status, a slug such as `offer_received`.
    public var newStatus: String
    /// Free notes, or nil.
    public var notes: String?

    public init(schoolId: String, newStatus: String, notes: String? = nil) {
        self.schoolId = schoolId
        self.newStatus = newStatus
        self.notes = notes
    }
}
