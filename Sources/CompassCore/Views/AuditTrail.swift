import Foundation

/// Builds the recruiting history while a log replays: feed it every line outcome with the
/// state right after that line.
public struct AuditTrail: Sendable {
    /// The entries recorded so far, in line order.
    public private(set) var entries: [AuditEntry] = []
    /// Time zone for dates inside summaries (`of Feb 3`).
    public let zone: TimeZone

    public init(zone: TimeZone) { self.zone = zone }

    /// Records one line.
    package mutating func record(_ outcome: LineOutcome, state: CompassState) {
        switch outcome {
        case .applied(let line, let event):
            let member = state.members[event.actor]
            entries.append(AuditEntry(
                line: line, seq: event.seq, at: event.at, actor: event.actor, actorName: member?.fullName,
                actorRole: member?.role, family: event.family, type: event.type.rawValue,
                summary: AuditSummary.sentence(event, state: state, zone: zone), rejection: nil,
                entityIds: AuditSummary.entityIds(event, state: state)))
        case .rejected(let line, let draft, let message):
            let member = draft.flatMap { state.members[$0.actor] }
            let known = member?.family == draft?.family ? member : nil
            entries.append(AuditEntry(
                line: line, seq: draft?.seq, at: draft?.at, actor: draft?.actor, actorName: known?.fullName,
                actorRole: known?.role, family: draft?.family, type: draft?.type,
                summary: "rejected: \(message)", rejection: message,
                entityIds: draft.map(AuditSummary.referencedIds) ?? []))
        case .erased(let line, let draft):
            // Its seq and time only: nothing else of the line is left (SPEC §5). The record of a
            // line that was in no stream has neither, and no family: shown only without a viewer.
            entries.append(AuditEntry(
                line: line, seq: draft?.seq, at: draft?.at, actor: draft?.actor, actorName: nil, actorRole: nil, family: draft?.family,
                type: Rules.erasedType, summary: "erased", rejection: nil, entityIds: []))
        }
    }

    /// The entries a viewer may see (nil: everything), filtered.
    ///
    /// A parent sees every line of their family, an athlete only lines they are the actor of;
    /// lines that could not be read (no envelope) are shown only without a viewer.
    public func entries(for viewer: Viewer?, query: AuditQuery) -> [AuditEntry] {
        entries.filter { Self.shows($0, to: viewer, query: query) }
    }

    /// Takes the entries recorded so far out of the trail (a caller streaming the audit
    /// writes them and lets them go, so memory does not grow with the log).
    public mutating func takeEntries() -> [AuditEntry] {
        defer { entries.removeAll(keepingCapacity: true) }
        return entries
    }

    /// Whether an entry is in the viewer's audit and passes the query's filters.
    public static func shows(_ entry: AuditEntry, to viewer: Viewer?, query: AuditQuery) -> Bool {
        if let viewer {
            guard entry.family == viewer.family, let actor = entry.actor, viewer.sees(actor: actor) else { return false }
        }
        if let entity = query.entity, !entry.entityIds.contains(entity) { return false }
        if let actor = query.actor, entry.actor != actor { return false }
        if let since = query.since { guard let at = entry.at, at >= since else { return false } }
        if let until = query.until { guard let at = entry.at, at <= until else { return false } }
        return true
    }
}

/// The sentences of the audit, written for a parent reading the family's history.
enum AuditSummary {
    static func sentence(_ event: Event, state: CompassState, zone: TimeZone) -> String {
        let family = state.families[event.family] ?? Family(id: event.family)
        let who = state.members[event.actor]?.fullName ?? event.actor
        switch event.payload {
        case .memberJoined(let e):
            let role = e.role == .player ? "athlete" : "parent"
            return e.userId == event.actor ? "\(e.fullName) started the family as \(role)" : "\(who) added \(e.fullName) as \(role)"
        case .schoolAdded(let e):
            return "\(who) added \(e.name)" + (e.status.map { " as \(TextRules.humanize($0))" } ?? "")
        case .coachAdded(let e):
            return "\(who) added coach \(e.firstName) \(e.lastName) (\(e.role.rawValue)) at \(family.schoolName(e.schoolId) ?? "Unknown School")"
        case .interactionLogged(let e):
            var text = "\(who) logged \(e.direction == .inbound ? "an inbound" : "an outbound") \(e.type.displayName) with \(counterpart(e, family))"
            if let subject = e.subject { text += ": \"\(subject)\"" }
            return text
        case .interactionDeleted(let e):
            guard let record = family.interactions[e.interactionId] else { return "\(who) deleted interaction \(e.interactionId)" }
            return "\(who) deleted the \(record.logged.type.displayName) with \(counterpart(record.logged, family)) of \(DateText.short(record.displayDate, in: zone))"
        case .schoolStatusChanged(let e):
            var text = "\(who) moved \(family.schoolName(e.schoolId) ?? "Unknown School") to \(TextRules.humanize(e.newStatus))"
            if let notes = e.notes { text += ": \"\(notes)\"" }
            return text
        case .documentUploaded(let e):
            return "\(who) uploaded \(e.title) (\(TextRules.humanize(e.docType)))"
        case .notificationSettingsChanged(let e):
            return "\(who) turned inbound alerts \(e.inboundAlerts ? "on" : "off")"
        case .notificationsRead(let e):
            return "\(who) marked notifications read up to #\(e.upToSeq)"
        case .erasureRecorded(let e):
            let what = e.scope == .family ? "the family's data" : "a member's data"
            return "\(what) was erased: \(e.erased) line\(e.erased == 1 ? "" : "s") of \(e.oldLines)"
        }
    }

    /// The school, else the coach, else the other coach's name.
    static func counterpart(_ e: InteractionLogged, _ family: Family) -> String {
        family.schoolName(e.schoolId) ?? family.coachName(e.coachId) ?? e.otherCoachName ?? "Unknown School"
    }

    static func entityIds(_ event: Event, state: CompassState) -> [String] {
        var ids: [String] = []
        switch event.payload {
        case .memberJoined(let e): ids = [e.userId]
        case .schoolAdded(let e): ids = [e.schoolId]
        case .coachAdded(let e): ids = [e.coachId, e.schoolId]
        case .interactionLogged(let e): ids = [e.interactionId] + references(e, state.families[event.family])
        case .interactionDeleted(let e):
            ids = [e.interactionId]
            if let logged = state.families[event.family]?.interactions[e.interactionId]?.logged {
                ids += references(logged, state.families[event.family])
            }
        case .schoolStatusChanged(let e): ids = [e.schoolId]
        case .documentUploaded(let e): ids = [e.documentId]
        case .notificationSettingsChanged, .notificationsRead, .erasureRecorded: ids = []
        }
        return [event.actor] + ids
    }

    /// An interaction's school and coach, and the coach's school: a coach's interaction
    /// belongs to the history of the coach's school too.
    static func references(_ e: InteractionLogged, _ family: Family?) -> [String] {
        var ids = [e.schoolId, e.coachId].compactMap { $0 }
        if let coachId = e.coachId, let school = family?.coaches[coachId]?.schoolId, school != e.schoolId { ids.append(school) }
        return ids
    }

    /// The ids a rejected draft names, as far as its payload can be read.
    static func referencedIds(_ draft: EventDraft) -> [String] {
        var ids = [draft.actor]
        for key in ["userId", "schoolId", "coachId", "interactionId", "documentId"] {
            if case .string(let id)? = draft.data[key] { ids.append(id) }
        }
        return ids
    }
}
