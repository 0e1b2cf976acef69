/// The lookups of SPEC §3.4: pure functions of the state, the viewer and the clock. Schools,
/// coaches and members are the family's, for every member; counts and documents follow the
/// viewer's visibility.
public enum LookupViews {
    public static func schools(_ state: CompassState, viewer: Viewer, now: Timestamp) -> [SchoolItem] {
        guard let family = state.families[viewer.family] else { return [] }
        let contacts = lastContacts(family, viewer: viewer) { $0.schoolId }
        return family.schools.values.map { school in
            let change = family.statusChanges.last { $0.change.schoolId == school.id }
            let changedAt = change?.at ?? (school.status == nil ? nil : school.addedAt)
            let contact = contacts[school.id]
            let days = contact.map { daysBetween($0.last, now) }
            return SchoolItem(schoolId: school.id, name: school.name, status: school.status, statusChangedAt: changedAt,
                              interactionCount: contact?.count ?? 0, lastContactAt: contact?.last, daysSinceContact: days,
                              contactGap: days.flatMap { $0 >= 30 ? .high : $0 >= 21 ? .medium : nil })
        }.sorted { $0.name != $1.name ? TextMatch.codePointsPrecede($0.name, $1.name) : $0.schoolId < $1.schoolId }
    }

    /// - Parameter school: only the coaches of this school.
    public static func coaches(_ state: CompassState, viewer: Viewer, now: Timestamp, school: String? = nil) -> [CoachItem] {
        guard let family = state.families[viewer.family] else { return [] }
        let contacts = lastContacts(family, viewer: viewer) { $0.coachId }
        return family.coaches.values.filter { school == nil || $0.schoolId == school }.map { coach in
            let contact = contacts[coach.id]
            return CoachItem(coachId: coach.id, schoolId: coach.schoolId, schoolName: family.schoolName(coach.schoolId) ?? "Unknown School",
                             name: coach.fullName, role: coach.role, roleName: coach.role.displayName,
                             interactionCount: contact?.count ?? 0, lastContactAt: contact?.last,
                             daysSinceContact: contact.map { daysBetween($0.last, now) }, lastName: coach.lastName, firstName: coach.firstName)
        }.sorted { a, b in
            if a.schoolName != b.schoolName { return TextMatch.codePointsPrecede(a.schoolName, b.schoolName) }
            if a.lastName != b.lastName { return TextMatch.codePointsPrecede(a.lastName, b.lastName) }
            if a.firstName != b.firstName { return TextMatch.codePointsPrecede(a.firstName, b.firstName) }
            return a.coachId < b.coachId
        }
    }

    public static func members(_ state: CompassState, viewer: Viewer) -> [MemberItem] {
        guard let family = state.families[viewer.family] else { return [] }
        return family.memberIds.compactMap { state.members[$0] }
            .map { MemberItem(userId: $0.userId, fullName: $0.fullName, role: $0.role, joinedAt: $0.joinedAt) }
            .sorted { $0.fullName != $1.fullName ? TextMatch.codePointsPrecede($0.fullName, $1.fullName) : $0.userId < $1.userId }
    }

    public static func documents(_ state: CompassState, viewer: Viewer) -> [DocumentItem] {
        guard let family = state.families[viewer.family] else { return [] }
        return family.documentOrder.compactMap { family.documents[$0] }.filter { viewer.sees(actor: $0.actor) }.map { record in
            let name = record.actor == viewer.userId ? "You" : state.members[record.actor].flatMap { $0.family == family.id ? $0.fullName : nil } ?? "Unknown"
            return DocumentItem(documentId: record.document.documentId, title: record.document.title, docType: record.document.docType,
                                docTypeName: TextRules.humanize(record.document.docType), fileName: record.document.fileName,
                                sizeBytes: record.document.sizeBytes, uploadedBy: record.actor, uploadedByName: name, uploadedAt: record.at,
                                sha256: record.document.sha256)
        }.sorted { $0.uploadedAt != $1.uploadedAt ? $0.uploadedAt > $1.uploadedAt : $0.documentId < $1.documentId }
    }

    /// ⌊(now − then) / 86,400 s⌋.
    static func daysBetween(_ then: Timestamp, _ now: Timestamp) -> Int64 {
        let ms = now.millisecondsSinceEpoch - then.millisecondsSinceEpoch
        let day: Int64 = 86_400_000
        return ms >= 0 ? ms / day : -((-ms + day - 1) / day)
    }

    /// Per school (or coach) id: how many of the viewer's visible live interactions, and the latest display date.
    static func lastContacts(_ family: Family, viewer: Viewer, key: (InteractionLogged) -> String?) -> [String: (count: Int, last: Timestamp)] {
        var out: [String: (count: Int, last: Timestamp)] = [:]
        family.forEachVisibleInteraction(to: viewer) { record in
            guard let id = key(record.logged) else { return }
            let date = record.displayDate
            if let seen = out[id] { out[id] = (seen.count + 1, max(seen.last, date)) } else { out[id] = (1, date) }
        }
        return out
    }
}
