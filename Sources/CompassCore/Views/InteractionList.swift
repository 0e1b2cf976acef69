/// The interactions page for one viewer (SPEC §3.1).
public struct InteractionList: Hashable, Sendable, Codable {
    /// Who is looking.
    public var viewer: Viewer
    /// Whether to tell an athlete their parents can see the list.
    public var privacyNotice: Bool
    /// Parents only; nil for athletes.
    public var loggedByOptions: [LoggedByOption]?
    /// Counts over the filtered list (SPEC §3.1).
    public var analytics: InteractionAnalytics
    /// The items, in the view's order.
    public var items: [InteractionItem]
}
