/// The interactions list, its analytics and the detail page, as pure functions of the state.
public enum InteractionViews {
    /// The privacy notice athletes see.
    public static let privacyNotice = "Your recruiting interactions are visible to your linked parent(s)"

    /// The list for `viewer`, filtered by `query`, newest first (ties by id).
    ///
    /// - Throws: a `.forbidden` error when an athlete filters by logger (only parents may).
    /// - Complexity: O(n log n) in the viewer's visible interactions.
    public static func list(_ state: CompassState, viewer: Viewer, query: InteractionQuery, now: Timestamp) throws(EventError) -> InteractionList {
        try query.validate()
        let family = state.families[viewer.family] ?? Family(id: viewer.family)
        var items: [InteractionItem] = []
        items.reserveCapacity(family.interactions.count)
        try forEachMatch(family, viewer: viewer, query: query, now: now) { record, shown in
            items.append(item(record, shownContent: shown, family: family, state: state, viewer: viewer))
        }
        items = sortedNewestFirst(items)
        return InteractionList(
            viewer: viewer, privacyNotice: viewer.role == .player,
            loggedByOptions: viewer.role == .parent ? loggedByOptions(family, state: state, viewer: viewer) : nil,
            analytics: analytics(items, now: now), items: items)
    }

    /// One page of the list: the items at `offset..<offset + limit` in the list's order, with
    /// the analytics of the whole filtered list (`analytics.total` items). Only the page's
    /// items are built: the matches are ordered by their date and id alone. Equal to the
    /// same slice of ``list(_:viewer:query:now:)`` (a differential test holds it so).
    ///
    /// - Complexity: O(n log n) comparisons of two fields in the viewer's visible
    ///   interactions, and O(limit) items built.
    public static func page(_ state: CompassState, viewer: Viewer, query: InteractionQuery, now: Timestamp,
                            offset: Int, limit: Int) throws(EventError) -> InteractionList {
        try query.validate()
        guard offset >= 0, limit >= 0 else { throw EventError("offset and limit must not be negative", kind: .rule) }
        let family = state.families[viewer.family] ?? Family(id: viewer.family)
        let weekStart = now.adding(seconds: -7 * 86_400)
        var analytics = InteractionAnalytics()
        var matches: [(record: InteractionRecord, shown: String?)] = []
        try forEachMatch(family, viewer: viewer, query: query, now: now) { record, shown in
            analytics.count(direction: record.logged.direction, date: record.displayDate, weekStart: weekStart)
            matches.append((record, shown))
        }
        let order = matches.indices.sorted { a, b in
            let (x, y) = (matches[a].record, matches[b].record)
            return x.displayDate != y.displayDate ? x.displayDate > y.displayDate : x.logged.interactionId < y.logged.interactionId
        }
        let start = min(offset, order.count), end = min(order.count, start + min(limit, order.count))
        let items = order[start..<end].map { item(matches[$0].record, shownContent: matches[$0].shown, family: family, state: state, viewer: viewer) }
        return InteractionList(
            viewer: viewer, privacyNotice: viewer.role == .player,
            loggedByOptions: viewer.role == .parent ? loggedByOptions(family, state: state, viewer: viewer) : nil,
            analytics: analytics, items: items)
    }

    /// The analytics of the list for `viewer` filtered by `query`, without building the list.
    public static func analytics(_ state: CompassState, viewer: Viewer, query: InteractionQuery, now: Timestamp) throws(EventError) -> InteractionAnalytics {
        try query.validate()
        let family = state.families[viewer.family] ?? Family(id: viewer.family)
        let weekStart = now.adding(seconds: -7 * 86_400)
        var result = InteractionAnalytics()
        if (query.search ?? "").isEmpty {
            // Nothing to search in the texts: counted from the rows, no record built.
            try family.forEachVisibleFacts(to: viewer, where: filter(query, viewer: viewer, now: now)) { facts in
                result.count(direction: facts.direction, date: facts.displayDate, weekStart: weekStart)
            }
            return result
        }
        try forEachMatch(family, viewer: viewer, query: query, now: now) { record, _ in
            result.count(direction: record.logged.direction, date: record.displayDate, weekStart: weekStart)
        }
        return result
    }

    /// Calls `body` with each interaction of the list (visible to the viewer, passing every
    /// filter of the query) and its shown content, in logging order.
    static func forEachMatch(_ family: Family, viewer: Viewer, query: InteractionQuery, now: Timestamp,
                             _ body: (InteractionRecord, String?) -> Void) throws(EventError) {
        let loweredSearch = query.search?.lowercased() ?? ""
        family.forEachVisibleInteraction(to: viewer, where: try filter(query, viewer: viewer, now: now)) { record in
            let logged = record.logged
            let shown = logged.shownContent
            if !loweredSearch.isEmpty,
               !TextMatch.contains(logged.subject, loweredSearch), !TextMatch.contains(shown, loweredSearch) { return }
            body(record, shown)
        }
    }

    /// Every filter of the query but the text search, as a test of a row's facts and who
    /// logged it.
    ///
    /// - Throws: a `.forbidden` error when an athlete filters by logger (only parents may).
    static func filter(_ query: InteractionQuery, viewer: Viewer, now: Timestamp) throws(EventError)
        -> (InteractionTable.RowFacts, (String) -> Bool) -> Bool {
        if query.loggedBy != nil, viewer.role != .parent {
            throw EventError("Filtering by who logged is available to parents only", kind: .forbidden)
        }
        let loggedBy = query.loggedBy == "me" ? viewer.userId : query.loggedBy
        let periodStart = query.periodDays.map { now.adding(seconds: -Int64($0) * 86_400) }
        return { facts, isLoggedBy in
            if let type = query.type, facts.type != type { return false }
            if let direction = query.direction, facts.direction != direction { return false }
            if let sentiment = query.sentiment, facts.sentiment != sentiment { return false }
            if let loggedBy, !isLoggedBy(loggedBy) { return false }
            if let periodStart, facts.displayDate < periodStart { return false }
            return true
        }
    }

    /// Display date descending, ties by interaction id ascending.
    static func newestFirst(_ a: InteractionItem, _ b: InteractionItem) -> Bool {
        a.occurredAt != b.occurredAt ? a.occurredAt > b.occurredAt : a.id < b.id
    }

    /// The items in ``newestFirst(_:_:)`` order. Positions are sorted, not the items: an item
    /// is a few hundred bytes, and a family's list has thousands.
    static func sortedNewestFirst(_ items: [InteractionItem]) -> [InteractionItem] {
        let order = items.indices.sorted { newestFirst(items[$0], items[$1]) }
        return order.map { items[$0] }
    }

    /// Analytics over a (filtered) list.
    public static func analytics(_ items: [InteractionItem], now: Timestamp) -> InteractionAnalytics {
        let weekStart = now.adding(seconds: -7 * 86_400)
        var result = InteractionAnalytics()
        for item in items { result.count(direction: item.direction, date: item.occurredAt, weekStart: weekStart) }
        return result
    }

    static func loggedByOptions(_ family: Family, state: CompassState, viewer: Viewer) -> [LoggedByOption] {
        let players = family.memberIds.compactMap { state.members[$0] }.filter { $0.role == .player }
            .sorted { a, b in
                a.fullName != b.fullName ? TextMatch.codePointsPrecede(a.fullName, b.fullName) : a.userId < b.userId
            }
        return [LoggedByOption(userId: viewer.userId, label: "Me")] + players.map { LoggedByOption(userId: $0.userId, label: $0.fullName) }
    }

    static func item(_ record: InteractionRecord, shownContent: String?, family: Family, state: CompassState, viewer: Viewer) -> InteractionItem {
        let logged = record.logged
        let loggedByName = record.loggedBy == viewer.userId ? "You" : (family.memberName(record.loggedBy, in: state) ?? "Unknown")
        return InteractionItem(
            id: logged.interactionId, type: logged.type, direction: logged.direction, subject: logged.subject,
            displaySubject: logged.subject ?? logged.type.displayName, content: shownContent, sentiment: logged.sentiment,
            interestLevel: logged.interestLevel, occurredAt: record.displayDate, createdAt: record.at,
            loggedBy: record.loggedBy, loggedByName: loggedByName,
            schoolId: logged.schoolId, schoolName: family.schoolName(logged.schoolId),
            coachId: logged.coachId, coachName: family.coachName(logged.coachId), otherCoachName: logged.otherCoachName,
            attachmentCount: logged.attachments?.count ?? 0,
            canDelete: viewer.role == .player && record.loggedBy == viewer.userId)
    }
}
