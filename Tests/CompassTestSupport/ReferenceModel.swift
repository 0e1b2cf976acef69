import CompassCore
import Foundation

/// A naive reference for the read models, computed by scanning a plain array of applied
/// events for every question, with no indexes and no shared code with the views beyond the
/// value types. Model-based properties compare the real views against it.
package enum ReferenceModel {
    package struct Row: Equatable, CustomStringConvertible {
        package var id: String
        package var displaySubject: String
        package var content: String?
        package var schoolName: String?
        package var coachName: String?
        package var loggedByName: String
        package var occurredAt: Timestamp

        package var description: String { "\(id) \(occurredAt) \(displaySubject)" }

        package init(id: String, displaySubject: String, content: String?, schoolName: String?, coachName: String?,
                    loggedByName: String, occurredAt: Timestamp) {
            self.id = id
            self.displaySubject = displaySubject
            self.content = content
            self.schoolName = schoolName
            self.coachName = coachName
            self.loggedByName = loggedByName
            self.occurredAt = occurredAt
        }
    }

    static func member(_ events: [Event], _ user: String) -> (family: String, name: String, role: MemberRole)? {
        for e in events { if case .memberJoined(let m) = e.payload, m.userId == user { return (e.family, m.fullName, m.role) } }
        return nil
    }

    static func schoolName(_ events: [Event], family: String, _ id: String?) -> String? {
        guard let id else { return nil }
        for e in events where e.family == family { if case .schoolAdded(let s) = e.payload, s.schoolId == id { return s.name } }
        return "Unknown School"
    }

    static func coachName(_ events: [Event], family: String, _ id: String?) -> String? {
        guard let id else { return nil }
        for e in events where e.family == family { if case .coachAdded(let c) = e.payload, c.coachId == id { return c.firstName + " " + c.lastName } }
        return "Unknown Coach"
    }

    static func shown(_ i: InteractionLogged) -> String? {
        let yes = (i.interestAnswers ?? []).filter { $0 }.count
        let note: String? = yes == 0 ? nil : "[Coach Interest Level: \(yes == 1 ? "LOW" : yes <= 3 ? "MEDIUM" : "HIGH")]"
        switch (i.content, note) {
        case (nil, nil): return nil
        case (let c?, nil): return c
        case (nil, let n?): return n
        case (let c?, let n?): return c + "\n\n" + n
        }
    }

    /// Live interactions visible to `viewer` in the family, with who logged each.
    static func visible(_ events: [Event], viewer: String) -> [(InteractionLogged, Event)] {
        guard let me = member(events, viewer) else { return [] }
        var out: [(InteractionLogged, Event)] = []
        for e in events where e.family == me.family {
            guard case .interactionLogged(let i) = e.payload else { continue }
            let deleted = events.contains { d in
                if case .interactionDeleted(let x) = d.payload { return d.family == e.family && x.interactionId == i.interactionId }
                return false
            }
            if deleted { continue }
            if me.role == .player && e.actor != viewer { continue }
            out.append((i, e))
        }
        return out
    }

    /// The interactions list rows and analytics (total, outbound, inbound, thisWeek).
    package static func list(_ events: [Event], viewer: String, query: InteractionQuery, now: Timestamp) -> ([Row], [Int]) {
        guard let me = member(events, viewer) else { return ([], [0, 0, 0, 0]) }
        let loggedBy = query.loggedBy == "me" ? viewer : query.loggedBy
        let q = (query.search ?? "").lowercased()
        var rows: [Row] = []
        var directions: [Direction] = []
        for (i, e) in visible(events, viewer: viewer) {
            let date = i.occurredAt ?? e.at
            if let t = query.type, t != i.type { continue }
            if let d = query.direction, d != i.direction { continue }
            if let s = query.sentiment, s != i.sentiment { continue }
            if let l = loggedBy, l != e.actor { continue }
            if let p = query.periodDays, date.millisecondsSinceEpoch < now.millisecondsSinceEpoch - Int64(p) * 86_400_000 { continue }
            if !q.isEmpty {
                let inSubject = i.subject.map { $0.lowercased().contains(q) } ?? false
                let inContent = shown(i).map { $0.lowercased().contains(q) } ?? false
                if !inSubject && !inContent { continue }
            }
            let name = e.actor == viewer ? "You" : (member(events, e.actor)?.name ?? "Unknown")
            rows.append(Row(id: i.interactionId, displaySubject: i.subject ?? i.type.displayName, content: shown(i),
                            schoolName: schoolName(events, family: me.family, i.schoolId),
                            coachName: coachName(events, family: me.family, i.coachId), loggedByName: name, occurredAt: date))
            directions.append(i.direction)
        }
        let order = rows.indices.sorted { a, b in
            rows[a].occurredAt == rows[b].occurredAt ? rows[a].id < rows[b].id : rows[a].occurredAt > rows[b].occurredAt
        }
        let sorted = order.map { rows[$0] }
        let week = now.millisecondsSinceEpoch - 7 * 86_400_000
        let analytics = [rows.count, directions.filter { $0 == .outbound }.count, directions.filter { $0 == .inbound }.count,
                         rows.filter { $0.occurredAt.millisecondsSinceEpoch >= week }.count]
        return (sorted, analytics)
    }

    /// Timeline ids and titles, newest first, ties by id.
    package static func timeline(_ events: [Event], viewer: String) -> [String] {
        guard let me = member(events, viewer) else { return [] }
        var items: [(String, Timestamp, String)] = []
        for (i, e) in visible(events, viewer: viewer) {
            let school = schoolName(events, family: me.family, i.schoolId) ?? "Unknown School"
            items.append(("interaction-\(i.interactionId)", i.occurredAt ?? e.at, "\(i.type.displayName) with \(school)"))
        }
        for e in events where e.family == me.family && (me.role == .parent || e.actor == viewer) {
            switch e.payload {
            case .schoolStatusChanged(let c):
                let school = schoolName(events, family: me.family, c.schoolId) ?? "Unknown School"
                items.append(("status-\(e.id)", e.at, "\(school) → \(TextRules.humanize(c.newStatus))"))
            case .documentUploaded(let d):
                items.append(("doc-\(d.documentId)", e.at, d.title))
            default:
                break
            }
        }
        items.sort { $0.1 == $1.1 ? $0.0 < $1.0 : $0.1 > $1.1 }
        return items.map { "\($0.0) \($0.2)" }
    }

    /// The viewer's notifications, naively: `id read`, newest first (SPEC §3.5).
    package static func notifications(_ events: [Event], viewer: String) -> [String] {
        guard let me = member(events, viewer) else { return [] }
        let joined = events.first { event in
            if case .memberJoined(let j) = event.payload { return j.userId == viewer }
            return false
        }?.seq ?? 0
        var items: [(id: String, at: Timestamp, read: Bool)] = []
        for (i, e) in visible(events, viewer: viewer) where i.direction == .inbound && e.seq > joined {
            // The viewer's last switch on a line before this one, else on.
            var on = true
            var read = false
            for s in events where s.family == me.family && s.actor == viewer {
                if case .notificationSettingsChanged(let c) = s.payload, s.seq < e.seq { on = c.inboundAlerts }
                if case .notificationsRead(let r) = s.payload, r.upToSeq >= e.seq { read = true }
            }
            if on { items.append(("notification-\(i.interactionId)", e.at, read)) }
        }
        items.sort { $0.at == $1.at ? $0.id < $1.id : $0.at > $1.at }
        return items.map { "\($0.id) \($0.read)" }
    }

    /// The family's schools, naively: `id count lastContact gap`, by name (SPEC §3.4).
    package static func schools(_ events: [Event], viewer: String, now: Timestamp) -> [String] {
        guard let me = member(events, viewer) else { return [] }
        var rows: [(name: String, id: String, text: String)] = []
        for e in events where e.family == me.family {
            guard case .schoolAdded(let s) = e.payload else { continue }
            let dates = visible(events, viewer: viewer).filter { $0.0.schoolId == s.schoolId }.map { $0.0.occurredAt ?? $0.1.at }
            let last = dates.max()
            let days = last.map { Int64((Double(now.millisecondsSinceEpoch - $0.millisecondsSinceEpoch) / 86_400_000).rounded(.down)) }
            let gap = days.map { $0 >= 30 ? "high" : $0 >= 21 ? "medium" : "-" } ?? "-"
            rows.append((s.name, s.schoolId, "\(s.schoolId) \(dates.count) \(last?.rfc3339 ?? "-") \(gap)"))
        }
        rows.sort { $0.name != $1.name ? $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) { $0.value < $1.value } : $0.id < $1.id }
        return rows.map(\.text)
    }

    /// Every member of every family in the log.
    package static func members(_ events: [Event]) -> [String] {
        events.compactMap { if case .memberJoined(let m) = $0.payload { m.userId } else { nil } }
    }
}

/// Every view of a state, for every member, as the bytes `compass … --json` prints.
package enum AllViews {
    package static let now = Timestamp(rfc3339: "2026-02-15T12:00:00Z")!
    package static let utc = TimeZone(identifier: "UTC")!

    /// List, analytics, each detail and the activity timeline for `viewer`.
    package static func json(_ state: CompassState, viewer id: String, includeAudit trail: AuditTrail? = nil) -> [UInt8] {
        guard let viewer = try? Viewer(id, in: state) else { return Array("unknown \(id)\n".utf8) }
        var out: [UInt8] = []
        if let list = try? InteractionViews.list(state, viewer: viewer, query: InteractionQuery(), now: now) {
            out += InteractionJSON.list(list)
            for item in list.items {
                if let detail = try? InteractionViews.detail(state, viewer: viewer, interactionId: item.id) { out += InteractionJSON.detail(detail) }
            }
        }
        out += ActivityJSON.page(ActivityViews.page(state, viewer: viewer, query: ActivityQuery(pageSize: 1000), now: now, zone: utc))
        out += LookupJSON.schools(LookupViews.schools(state, viewer: viewer, now: now))
        out += LookupJSON.coaches(LookupViews.coaches(state, viewer: viewer, now: now))
        out += LookupJSON.members(LookupViews.members(state, viewer: viewer))
        out += LookupJSON.documents(LookupViews.documents(state, viewer: viewer))
        // Notifications without their read state: a read mark is a log position (`upToSeq`), so
        // the properties that re-interleave or remove lines move interactions past it by design.
        // The reference-model property checks read flags exactly.
        var alerts = NotificationViews.list(state, viewer: viewer)
        alerts.unread = 0
        for index in alerts.items.indices { alerts.items[index].read = false }
        out += LookupJSON.notifications(alerts)
        if let trail { for entry in trail.entries(for: viewer, query: AuditQuery()) { out += AuditJSON.line(entry) } }
        return out
    }

    /// Every member's views, in user-id order.
    package static func json(_ state: CompassState) -> [UInt8] {
        state.members.keys.sorted().flatMap { json(state, viewer: $0) }
    }
}

/// What a family writes: names, subjects, contents, notes, titles, user and event ids
/// (isolation properties look for these in other families' views).
package enum FamilyText {
    package static func freeText(_ events: [Event]) -> Set<String> {
        var out: Set<String> = []
        for e in events {
            out.insert(e.id)
            switch e.payload {
            case .memberJoined(let m): out.formUnion([m.fullName, m.userId])
            case .schoolAdded(let s): out.insert(s.name)
            case .coachAdded(let c): out.formUnion([c.firstName, c.lastName])
            case .interactionLogged(let i): out.formUnion([i.subject, i.content, i.otherCoachName].compactMap { $0 })
            case .schoolStatusChanged(let c): if let notes = c.notes { out.insert(notes) }
            case .documentUploaded(let d): out.insert(d.title)
            case .interactionDeleted, .notificationSettingsChanged, .notificationsRead, .erasureRecorded: break
            }
        }
        return out
    }
}
