// Result types an app puts in lists (all of them `Hashable` where declared) with a stable
// `id` where they have one: `Identifiable`, for SwiftUI's `ForEach` and `List`.

extension InteractionItem: Identifiable {}
extension InteractionDetail: Identifiable {
    /// The interaction's id.
    public var id: String { item.id }
}
extension LoggedByOption: Identifiable {
    /// The user id the option filters by.
    public var id: String { userId }
}
extension ActivityItem: Identifiable {}
extension AuditEntry: Identifiable {
    /// The entry's line in the log (one entry per line).
    public var id: Int { line }
}
extension Member: Identifiable {
    /// The user id.
    public var id: String { userId }
}
extension School: Identifiable {}
extension Coach: Identifiable {}
extension Event: Identifiable {}
