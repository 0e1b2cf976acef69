/// A viewer's notifications and how many are unread.
public struct NotificationList: Hashable, Sendable, Codable {
    /// Unread notifications (counted with or without the unread filter).
    public var unread: Int
    /// Newest first, ties by id.
    public var items: [NotificationItem]
}
