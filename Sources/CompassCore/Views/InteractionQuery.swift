/// The filters of the interactions list (SPEC §3.1), combined with AND.
public struct InteractionQuery: Equatable, Sendable {
    /// Text to look for, case-insensitively.
    public var search: String?
    /// The type.
    public var type: InteractionType?
    /// `outbound` or `inbound`.
    public var direction: Direction?
    /// How it went: very positive, positive, neutral, negative.
    public var sentiment: Sentiment?
    /// 7, 14, 30 or 90: only interactions whose display date is within the last N days.
    public var periodDays: Int?
    /// A user id, or `me`. Parents only.
    public var loggedBy: String?

    public init(search: String? = nil, type: InteractionType? = nil, direction: Direction? = nil,
                sentiment: Sentiment? = nil, periodDays: Int? = nil, loggedBy: String? = nil) {
        self.search = search
        self.type = type
        self.direction = direction
        self.sentiment = sentiment
        self.periodDays = periodDays
        self.loggedBy = loggedBy
    }

    /// Whether any filter is set (an empty search is no filter).
    public var isFiltering: Bool {
        (search.map { !$0.isEmpty } ?? false) || type != nil || direction != nil || sentiment != nil
            || periodDays != nil || loggedBy != nil
    }

    /// The periods the list offers (SPEC §3.1): 7, 14, 30 or 90 days.
    public static let periods = [7, 14, 30, 90]

    /// Checks the values a caller chose: a period of 7, 14, 30 or 90 days.
    public func validate() throws(EventError) {
        if let periodDays, !Self.periods.contains(periodDays) {
            throw EventError("Period must be 7, 14, 30 or 90 days, not \(periodDays)", kind: .rule)
        }
    }
}
