import Foundation

/// The activity timeline: interactions, status changes and documents merged (seed 002).
public enum ActivityViews {
    /// Descriptions longer than this many characters are cut and end in `…`.
    public static let descriptionLimit = 50

    /// Every item the viewer may see, newest first (ties by id), before filters and paging.
    public static func items(_ state: CompassState, viewer: Viewer, now: Timestamp, zone: TimeZone) -> [ActivityItem] {
        guard let family = state.families[viewer.family] else { return [] }
        var items: [ActivityItem] = []
        family.forEachVisibleInteraction(to: viewer) { record in
            items.append(item(for: record, family: family, now: now, zone: zone))
        }
        for change in family.statusChanges where viewer.sees(actor: change.actor) {
            items.append(item(for: change, family: family, now: now, zone: zone))
        }
        for id in family.documentOrder {
            guard let document = family.documents[id], viewer.sees(actor: document.actor) else { continue }
            items.append(item(for: document, now: now, zone: zone))
        }
        return items.indices.sorted { newestFirst(items[$0], items[$1]) }.map { items[$0] }  // positions, not items, are moved
    }

    /// The filtered, paged timeline.
    public static func page(_ state: CompassState, viewer: Viewer, query: ActivityQuery, now: Timestamp, zone: TimeZone) -> ActivityPage {
        let filtered = filter(items(state, viewer: viewer, now: now, zone: zone), query: query, now: now)
        let pageSize = max(1, query.pageSize)
        let totalPages = max(1, (filtered.count + pageSize - 1) / pageSize)
        let start = (max(1, query.page) - 1) * pageSize
        let pageItems = start < filtered.count ? Array(filtered[start..<min(filtered.count, start + pageSize)]) : []
        return ActivityPage(page: max(1, query.page), pageSize: pageSize, totalPages: totalPages, totalCount: filtered.count, items: pageItems)
    }

    /// Items that pass the type, range and search filters (AND).
    public static func filter(_ items: [ActivityItem], query: ActivityQuery, now: Timestamp) -> [ActivityItem] {
        let since = query.range.days.map { now.adding(seconds: -$0 * 86_400) }
        let search = query.search?.lowercased() ?? ""
        return items.filter { item in
            if let type = query.type, item.type != type { return false }
            if let since, item.timestamp < since { return false }
            if !search.isEmpty, !TextMatch.contains(item.title, search), !TextMatch.contains(item.description, search) { return false }
            return true
        }
    }

    static func newestFirst(_ a: ActivityItem, _ b: ActivityItem) -> Bool {
        a.timestamp != b.timestamp ? a.timestamp > b.timestamp : a.id < b.id
    }

    /// The item a just-applied event adds to the viewer's timeline, if any, built on its own
    /// (a live feed must not rebuild the whole timeline per event). An interaction already
    /// deleted, or one the viewer may not see, adds none.
    public static func newItem(for event: Event, in state: CompassState, viewer: Viewer, now: Timestamp, zone: TimeZone) -> ActivityItem? {
        guard event.family == viewer.family, let family = state.families[event.family] else { return nil }
        switch event.payload {
        case .interactionLogged(let logged):
            guard let record = family.liveInteraction(logged.interactionId), viewer.sees(actor: record.loggedBy) else { return nil }
            return item(for: record, family: family, now: now, zone: zone)
        case .schoolStatusChanged:
            guard viewer.sees(actor: event.actor),
                  let change = family.statusChanges.last(where: { $0.seq == event.seq }) else { return nil }
            return item(for: change, family: family, now: now, zone: zone)
        case .documentUploaded(let uploaded):
            guard viewer.sees(actor: event.actor), let record = family.documents[uploaded.documentId], record.seq == event.seq else { return nil }
            return item(for: record, now: now, zone: zone)
        default:
            return nil
        }
    }

    /// The timeline item of an interaction.
    public static func item(for record: InteractionRecord, family: Family, now: Timestamp, zone: TimeZone) -> ActivityItem {
        let logged = record.logged
        let schoolName = family.schoolName(logged.schoolId) ?? "Unknown School"
        let description = logged.shownContent ?? logged.subject ?? ""
        return ActivityItem(
            id: "interaction-\(logged.interactionId)", type: .interaction, timestamp: record.displayDate,
            title: "\(logged.type.displayName) with \(schoolName)", description: cut(description),
            icon: logged.type.icon, entityType: "school", entityId: logged.schoolId, entityName: schoolName,
            relativeTime: relativeTime(record.displayDate, now: now, zone: zone), isClickable: true,
            clickUrl: "/interactions/\(logged.interactionId)", seq: record.seq)
    }

    static func item(for change: StatusChangeRecord, family: Family, now: Timestamp, zone: TimeZone) -> ActivityItem {
        let schoolName = family.schoolName(change.change.schoolId) ?? "Unknown School"
        return ActivityItem(
            id: "status-\(change.eventId)", type: .schoolStatusChange, timestamp: change.at,
            title: "\(schoolName) → \(TextRules.humanize(change.change.newStatus))", description: cut(change.change.notes ?? ""),
            icon: "📍", entityType: "school", entityId: change.change.schoolId, entityName: schoolName,
            relativeTime: relativeTime(change.at, now: now, zone: zone), isClickable: true,
            clickUrl: "/schools/\(change.change.schoolId)", seq: change.seq)
    }

    static func item(for record: DocumentRecord, now: Timestamp, zone: TimeZone) -> ActivityItem {
        let document = record.document
        return ActivityItem(
            id: "doc-\(document.documentId)", type: .documentUpload, timestamp: record.at, title: document.title,
            description: cut("\(TextRules.humanize(document.docType)) uploaded"), icon: "📄", entityType: "document",
            entityId: document.documentId, entityName: document.title,
            relativeTime: relativeTime(record.at, now: now, zone: zone), isClickable: false, clickUrl: nil, seq: record.seq)
    }

    /// The first 50 characters and `…` when longer; no trimming, newlines kept.
    public static func cut(_ text: String) -> String {
        var index = text.startIndex
        var count = 0
        while index < text.endIndex {
            if count == descriptionLimit { return String(text[..<index]) + "…" }
            text.formIndex(after: &index)
            count += 1
        }
        return text
    }

    /// `just now`, `{m}m ago`, `{h}h ago`, `{d}d ago`, else `MMM d` in the zone.
    public static func relativeTime(_ time: Timestamp, now: Timestamp, zone: TimeZone) -> String {
        let seconds = (now.millisecondsSinceEpoch - time.millisecondsSinceEpoch) / 1000
        if seconds < 60 { return "just now" }
        if seconds < 3600 { return "\(seconds / 60)m ago" }
        if seconds < 86_400 { return "\(seconds / 3600)h ago" }
        if seconds < 7 * 86_400 { return "\(seconds / 86_400)d ago" }
        return DateText.short(time, in: zone)
    }
}
