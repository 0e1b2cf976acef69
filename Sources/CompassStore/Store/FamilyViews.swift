import CompassCore
import Foundation

/// Every read model of one viewer's family, read from one state: now, or at a point of its
/// history (SPEC §3, §4 time travel). What an app's screen and each `compass` read command
/// show comes from these methods (``CompassStore/views(as:atSeq:asOf:)``).
///
/// The viewer sees what SPEC §3 lets them see: a parent the whole family, an athlete their
/// own records; nobody another family. A value: it does not change as the log grows.
///
/// ```swift
/// let family = try store.views(as: "u-maya")
/// let schools = family.schools()
/// let list = try family.interactions(InteractionQuery(direction: .inbound))
/// ```
public struct FamilyViews: Sendable {
    /// Who is looking.
    public let viewer: Viewer
    /// The time views count from ("this week", days since contact, relative times).
    public let now: Timestamp
    /// The state read (the viewer's family, as of the point read).
    package let state: CompassState

    /// The family's version these views show: its last `seq` (SPEC §1.1).
    public var version: Int64 { Int64(state.family(id: viewer.family)?.version ?? 0) }

    package init(state: CompassState, viewer: Viewer, now: Timestamp) {
        self.state = state
        self.viewer = viewer
        self.now = now
    }

    /// The interactions list with its analytics (SPEC §3.1).
    public func interactions(_ query: InteractionQuery = InteractionQuery()) throws(StoreError) -> InteractionList {
        try rejecting { () throws(EventError) in try InteractionViews.list(state, viewer: viewer, query: query, now: now) }
    }

    /// A page of the interactions list: `limit` items from `offset`, with the analytics of the
    /// whole filtered list; only the page's items are built.
    public func interactions(_ query: InteractionQuery = InteractionQuery(), offset: Int, limit: Int) throws(StoreError) -> InteractionList {
        try rejecting { () throws(EventError) in
            try InteractionViews.page(state, viewer: viewer, query: query, now: now, offset: offset, limit: limit)
        }
    }

    /// The list's analytics alone (SPEC §3.1): total, outbound, inbound, this week.
    public func analytics(_ query: InteractionQuery = InteractionQuery()) throws(StoreError) -> InteractionAnalytics {
        try rejecting { () throws(EventError) in try InteractionViews.analytics(state, viewer: viewer, query: query, now: now) }
    }

    /// One interaction's detail (SPEC §3.2).
    public func interaction(_ id: String) throws(StoreError) -> InteractionDetail {
        try rejecting { () throws(EventError) in try InteractionViews.detail(state, viewer: viewer, interactionId: id) }
    }

    /// A page of the activity timeline (SPEC §3.3), its dates in `zone`.
    public func activity(_ query: ActivityQuery = ActivityQuery(), zone: TimeZone = TimeZone(secondsFromGMT: 0)!) throws(StoreError) -> ActivityPage {
        try rejecting { () throws(EventError) in
            try query.validate()
            return ActivityViews.page(state, viewer: viewer, query: query, now: now, zone: zone)
        }
    }

    /// The family's schools with status, interactions and last contact (SPEC §3.4).
    public func schools() -> [SchoolItem] { LookupViews.schools(state, viewer: viewer, now: now) }

    /// The family's coaches (SPEC §3.4), optionally one school's.
    public func coaches(school: String? = nil) -> [CoachItem] { LookupViews.coaches(state, viewer: viewer, now: now, school: school) }

    /// The family's members (SPEC §3.4).
    public func members() -> [MemberItem] { LookupViews.members(state, viewer: viewer) }

    /// The documents the viewer can see (SPEC §3.4).
    public func documents() -> [DocumentItem] { LookupViews.documents(state, viewer: viewer) }

    /// The viewer's inbound-contact alerts (SPEC §3.5).
    public func notifications(unreadOnly: Bool = false) -> NotificationList {
        NotificationViews.list(state, viewer: viewer, unreadOnly: unreadOnly)
    }

    /// The self-contained HTML report (SPEC §3.6), its dates in `zone`.
    public func report(_ query: InteractionQuery = InteractionQuery(), zone: TimeZone = TimeZone(secondsFromGMT: 0)!) throws(StoreError) -> String {
        try rejecting { () throws(EventError) in try ReportView.html(state, viewer: viewer, query: query, now: now, zone: zone) }
    }

    /// A view's refusal (an unknown filter value, a forbidden filter) as the store's error.
    private func rejecting<T>(_ body: () throws(EventError) -> T) throws(StoreError) -> T {
        do throws(EventError) { return try body() } catch { throw .rejected(error) }
    }
}
