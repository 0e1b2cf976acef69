import Foundation

/// One row of the timeline.
public struct ActivityItem: Hashable, Sendable, Codable {
    public var id: String
    /// The type.
    public var type: ActivityType
    /// When the item happened.
    public var timestamp: Timestamp
    /// The title shown.
    public var title: String
    public var description: String
    /// An emoji for the kind of item.
    public var icon: String
    /// `school` or `document`.
    public var entityType: String
    /// The id of the entity the item is about.
    public var entityId: String?
    /// The name of that entity.
    public var entityName: String
    /// `just now`, `5m ago`, `3d ago` or `Jan 15`, against the view's now.
    public var relativeTime: String
    /// Whether the item opens something.
    public var isClickable: Bool
    /// Where a click leads (web route), or nil.
    public var clickUrl: String?
    /// The `seq` of the event the item comes from (append order, for `follow`).
    public var seq: Int64
}
