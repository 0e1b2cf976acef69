import Foundation

/// One page of the timeline.
public struct ActivityPage: Hashable, Sendable, Codable {
    /// The 1-based page.
    public var page: Int
    /// Items per page.
    public var pageSize: Int
    /// Pages after the filters (at least 1).
    public var totalPages: Int
    /// Items after the filters.
    public var totalCount: Int
    /// The items, in the view's order.
    public var items: [ActivityItem]
}
