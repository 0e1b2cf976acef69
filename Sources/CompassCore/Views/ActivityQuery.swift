import Foundation

/// Filters and paging of the activity timeline (SPEC §3.3).
public struct ActivityQuery: Equatable, Sendable {
    /// The type.
    public var type: ActivityType?
    /// How far back: all, a week, a month, a quarter.
    public var range: ActivityRange
    /// Text to look for, case-insensitively.
    public var search: String?
    /// 1-based.
    public var page: Int
    /// Items per page.
    public var pageSize: Int

    public init(type: ActivityType? = nil, range: ActivityRange = .all, search: String? = nil, page: Int = 1, pageSize: Int = 20) {
        self.type = type
        self.range = range
        self.search = search
        self.page = page
        self.pageSize = pageSize
    }

    /// Checks the values a caller chose: a page and a page size of at least 1.
    public func validate() throws(EventError) {
        guard page >= 1 else { throw EventError("Page must be 1 or more, not \(page)", kind: .rule) }
        guard pageSize >= 1 else { throw EventError("Page size must be 1 or more, not \(pageSize)", kind: .rule) }
    }
}
