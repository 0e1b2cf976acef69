/// A school on the family's list with its status and last contact (SPEC §3.4).
public struct SchoolItem: Hashable, Sendable, Codable, Identifiable {
    /// The school's id in the family.
    public var schoolId: String
    /// The school's name.
    public var name: String
    /// The latest status, else the status it was added with, else nil.
    public var status: String?
    /// When that status was set.
    public var statusChangedAt: Timestamp?
    /// The viewer's visible live interactions with the school.
    public var interactionCount: Int
    /// The latest display date of those, or nil.
    public var lastContactAt: Timestamp?
    /// Whole days since the last contact, or nil.
    public var daysSinceContact: Int64?
    /// `high` after 30 days without contact, `medium` after 21, else nil.
    public var contactGap: ContactGap?

    public var id: String { schoolId }
}
