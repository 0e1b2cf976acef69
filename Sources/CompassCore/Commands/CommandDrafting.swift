extension Command {
    /// The event draft of this command by `actor` at `at`, its payload built from the
    /// command's fields and default ids filled from the actor's family: slugs of names for
    /// schools and coaches (`s-arizona-state`, `c-sofia-ramirez`, then `-2`…), the family's
    /// next number for interactions and documents (`i-12`, `d-3`), counted above every number
    /// issued before, erased lines included (SPEC §4): the count of the family's `Erased`
    /// records is added, since each erased line could have held one.
    ///
    /// - Parameters:
    ///   - reusing: the entity id of an event already logged under the same event id (an
    ///     idempotent retry reuses it, so the two compare equal).
    ///   - deviceTag: the tag of a store that syncs with others (SPEC §7): default interaction,
    ///     document and coach ids end in `.TAG` (`i-3.k2x9f4`), so two devices never make the same.
    /// - Throws: `Unknown user U` when the actor is not a member (a new family's first member
    ///   excepted). Every other rule is the ``Rules``' to decide.
    package func draft(by actor: String, at: Timestamp, eventId: String, in state: CompassState,
                      reusing entityId: String? = nil, deviceTag: String? = nil) throws(EventError) -> EventDraft {
        let tag = deviceTag.map { "." + $0 } ?? ""
        var data = JSONObject()
        func put(_ key: String, _ value: String?) {
            if let value { data.append(key, .string(value)) }
        }
        let familyId: String
        if case .addMember(let member) = self {
            familyId = state.members[actor]?.family ?? member.newFamily ?? "f-\(member.userId)"
            put("userId", member.userId)
            put("fullName", member.fullName)
            put("role", member.role)
            return EventDraft(seq: 1, id: eventId, type: eventType.rawValue, at: at, actor: actor, family: familyId, data: data)
        }
        guard let member = state.members[actor] else { throw EventError("Unknown user \(actor)", kind: .notFound) }
        familyId = member.family
        let family = state.families[familyId] ?? Family(id: familyId)
        switch self {
        case .addMember:
            break  // handled above
        case .addSchool(let school):
            put("schoolId", school.schoolId ?? entityId ?? DefaultIds.unique("s-" + Identifier.slug(school.name)) { family.schools[$0] != nil })
            put("name", school.name)
            put("status", school.status)
        case .addCoach(let coach):
            let name = coach.firstName + " " + coach.lastName
            put("coachId", coach.coachId ?? entityId ?? DefaultIds.unique("c-" + Identifier.slug(name), suffix: tag) { family.coaches[$0] != nil })
            put("schoolId", coach.schoolId)
            put("firstName", coach.firstName)
            put("lastName", coach.lastName)
            put("role", coach.role)
        case .logInteraction(let logged):
            put("interactionId", logged.interactionId ?? entityId
                ?? DefaultIds.numbered("i-", after: family.interactions.count + family.erasedLines, suffix: tag) { family.interactions.contains($0) })
            put("schoolId", logged.schoolId)
            put("coachId", logged.coachId)
            put("eventId", logged.eventId)
            put("otherCoachName", logged.otherCoachName)
            put("type", logged.type)
            put("direction", logged.direction)
            put("occurredAt", logged.occurredAt)
            put("subject", logged.subject)
            put("content", logged.content)
            put("sentiment", logged.sentiment)
            if let answers = logged.interestAnswers { data.append("interestAnswers", .array(answers.map(JSONValue.bool))) }
            if !logged.attachments.isEmpty { data.append("attachments", .array(logged.attachments.map(\.json))) }
        case .deleteInteraction(let deletion):
            put("interactionId", deletion.interactionId)
        case .changeStatus(let change):
            put("schoolId", change.schoolId)
            put("newStatus", change.newStatus)
            put("notes", change.notes)
        case .uploadDocument(let document):
            put("documentId", document.documentId ?? entityId
                ?? DefaultIds.numbered("d-", after: family.documents.count + family.erasedLines, suffix: tag) { family.documents[$0] != nil })
            put("title", document.title)
            put("docType", document.docType)
            put("fileName", document.fileName)
            if let size = document.sizeBytes { data.append("sizeBytes", .int(size)) }
            put("sha256", document.sha256)
        case .changeNotificationSettings(let settings):
            data.append("inboundAlerts", .bool(settings.inboundAlerts))
        case .markNotificationsRead(let read):
            data.append("upToSeq", .int(read.upToSeq))
        }
        return EventDraft(seq: 1, id: eventId, type: eventType.rawValue, at: at, actor: actor, family: familyId, data: data)
    }
}

extension Attachment {
    /// The attachment as it is written in `data.attachments`.
    var json: JSONValue {
        var object = JSONObject()
        object.append("name", .string(name))
        object.append("sizeBytes", .int(sizeBytes))
        object.append("mimeType", .string(mimeType))
        if let sha256 { object.append("sha256", .string(sha256)) }
        return .object(object)
    }
}

/// Readable default ids for new entities: `s-arizona-state`, `c-jane-doe`, `i-12`, `d-3`.
enum DefaultIds {
    /// `base`, or `base-2`, `base-3`… when taken, each followed by `suffix`.
    static func unique(_ base: String, suffix: String = "", isTaken: (String) -> Bool) -> String {
        let trimmed = base.hasSuffix("-") ? base + "1" : base
        guard isTaken(trimmed + suffix) else { return trimmed + suffix }
        var n = 2
        while isTaken("\(trimmed)-\(n)\(suffix)") { n += 1 }
        return "\(trimmed)-\(n)\(suffix)"
    }

    /// `prefix(count+1)` followed by `suffix`, moving on while taken.
    static func numbered(_ prefix: String, after count: Int, suffix: String = "", isTaken: (String) -> Bool) -> String {
        var n = count + 1
        while isTaken("\(prefix)\(n)\(suffix)") { n += 1 }
        return "\(prefix)\(n)\(suffix)"
    }
}
