/// Everything the read models need, folded from the applied events of a log.
///
/// Build it with ``apply(_:)`` only after ``Rules/decide(_:in:sanitizing:)`` accepted the event.
public struct CompassState: Equatable, Sendable {
    /// Members of every family, by user id (user ids are global), in the order they joined.
    public internal(set) var members = IdTable<Member>()
    /// Families by family id.
    public internal(set) var families = FamilyTable()
    /// Ids of applied events (for duplicate detection and idempotent appends).
    package internal(set) var eventIds = EventIdSet()
    /// Applied events per type, in the order of `EventType.allCases`.
    private var typeCounts = [Int](repeating: 0, count: EventType.allCases.count)
    /// Live interactions over all families.
    public internal(set) var liveInteractionCount = 0
    /// `Erased` records read (SPEC §5): lines an erasure replaced, skipped by replay.
    public internal(set) var erasedLineCount = 0

    public init() {}

    /// Reads every event id still left in a snapshot's chunks into memory (to write them
    /// again); false when a chunk does not check.
    package mutating func materializeEventIds() -> Bool {
        guard let ids = eventIds.materialized() else { return false }
        eventIds = ids
        return true
    }

    /// Takes a snapshot's event ids (read after a replay that never needed them).
    package mutating func replaceEventIds(_ ids: EventIdSet) { eventIds = ids }

    /// Makes room for about `events` events without growing the id table again.
    public mutating func reserveCapacity(events: Int) {
        eventIds.reserveCapacity(events)
    }

    /// Applied events per type (types with none are left out).
    public var countsByType: [EventType: Int] {
        var counts: [EventType: Int] = [:]
        for (type, count) in zip(EventType.allCases, typeCounts) where count > 0 { counts[type] = count }
        return counts
    }

    /// Sets the count of applied events of a type (a snapshot's header).
    mutating func setCount(_ type: EventType, _ count: Int) {
        typeCounts[type.ordinal] = count
    }

    /// Counts one more applied event of a type.
    mutating func count(_ type: EventType) {
        typeCounts[type.ordinal] += 1
    }

    /// The family a user belongs to, if they are a member.
    public func family(of userId: String) -> Family? {
        guard let member = members[userId] else { return nil }
        return families[member.family]
    }

    /// Applied events over all types.
    public var appliedCount: Int { typeCounts.reduce(0, +) }

    /// Counts an `Erased` record of `family`: not applied, but it keeps its place in the
    /// family's history, so the family's version never goes back after an erasure. (Nil: the
    /// record of a line that was in no stream, counted only in the log's total.)
    mutating func noteErased(family: String?) {
        erasedLineCount += 1
        if let family, let position = families.position(of: family) {
            families.update(at: position) {
                $0.version += 1
                $0.erasedLines += 1
            }
        }
    }

    /// Folds one accepted event into the state.
    ///
    /// - Complexity: O(1) amortized: the family is mutated in place, never copied.
    public mutating func apply(_ event: consuming Event) {
        let keys = LineKeys(id: event.id, actor: event.actor, family: event.family, payload: event.payload)
        apply(event, keys: keys)
    }

    /// ``apply(_:)`` with the keys of its lookups worked out ahead (by the line's preparation).
    ///
    /// - Parameter staged: texts of the event staged outside it (``TextStaging``).
    mutating func apply(_ event: consuming Event, keys: LineKeys, staged: StagedBytes? = nil) {
        var event = event
        apply(taking: &event, keys: keys, staged: staged)
    }

    /// ``apply(_:keys:staged:)`` of an event where it lies (a prepared line's), its parts moved
    /// out of it: the event is left empty. (Moving the event out of the line first copied its
    /// 240 bytes; reading its parts in place without taking them copied each text, a reference
    /// count, and freed the copies.)
    mutating func apply(taking event: inout Event, keys: LineKeys, staged: StagedBytes? = nil) {
        eventIds.insert(event.id, key: keys.eventId)
        let type = event.type
        count(type)
        // Switched on the type, not matched against the payload: each `if case` on the payload
        // copied it (a reference count per text) for every line.
        switch type {
        case .memberJoined:
            if case .memberJoined(let joined) = event.payload {
                members[joined.userId] = Member(userId: joined.userId, family: event.family, fullName: joined.fullName, role: joined.role,
                                                joinedAt: event.at, joinedSeq: event.seq)
            }
        case .interactionLogged: liveInteractionCount += 1
        case .interactionDeleted: liveInteractionCount -= 1
        default: break
        }
        families.apply(taking: &event, keys: keys, staged: staged)
    }
}

extension Family {
    /// Folds one accepted event of this family.
    ///
    /// - Parameters:
    ///   - staged: texts of the event staged outside it (``TextStaging``).
    ///   - idKey: the event id's key when the id was left out of the event
    ///     (``LineKeys/idInKey``: only an interaction event's); its bytes are spelled from it.
    ///   - schoolHash: the `hashValue` of the school id the event names, when worked out ahead.
    mutating func apply(_ event: consuming Event, interactionHash: Int?, schoolHash: Int? = nil, staged: StagedBytes? = nil, idKey: EventIdKey? = nil) {
        var event = event
        apply(taking: &event, interactionHash: interactionHash, schoolHash: schoolHash, staged: staged, idKey: idKey)
    }

    /// ``apply(_:interactionHash:schoolHash:staged:idKey:)`` of an event where it lies, its
    /// parts moved out of it: the event is left empty.
    mutating func apply(taking event: inout Event, interactionHash: Int?, schoolHash: Int? = nil, staged: StagedBytes? = nil,
                        idKey: EventIdKey? = nil) {
        version += 1
        let (seq, id, at, actor, payload) = event.takeParts()
        assert(idKey == nil || payload.type == .interactionLogged || payload.type == .interactionDeleted, "an id left out of a \(payload.type)")
        switch consume payload {
        case .memberJoined(let joined):
            memberIds.append(joined.userId)
        case .schoolAdded(let added):
            schools[added.schoolId] = School(id: added.schoolId, name: added.name, status: added.status, addedAt: at)
        case .coachAdded(let added):
            coaches[added.coachId] = Coach(id: added.coachId, schoolId: added.schoolId, firstName: added.firstName, lastName: added.lastName, role: added.role)
        case .interactionLogged(let logged):
            let hash = interactionHash ?? logged.interactionId.hashValue
            interactions.append(eventId: id, idKey: idKey, seq: seq, at: at, loggedBy: actor, logged: logged, hash: hash, staged: staged)
        case .interactionDeleted(let deleted):
            interactions.delete(deleted.interactionId, Deletion(eventId: id, at: at, by: actor),
                                hash: interactionHash ?? deleted.interactionId.hashValue, idKey: idKey)
        case .schoolStatusChanged(let changed):
            // In place: `schools[id]?.status = …` copies the school out and back.
            schools.update(changed.schoolId, hash: schoolHash ?? changed.schoolId.hashValue) { $0.status = changed.newStatus }
            statusChanges.append(StatusChangeRecord(eventId: id, seq: seq, at: at, actor: actor, change: changed))
        case .documentUploaded(let uploaded):
            documents[uploaded.documentId] = DocumentRecord(eventId: id, seq: seq, at: at, actor: actor, document: uploaded)
            documentOrder.append(uploaded.documentId)
        case .notificationSettingsChanged(let changed):
            alertSettings[actor, default: []].append(AlertSetting(seq: seq, inboundAlerts: changed.inboundAlerts))
        case .notificationsRead(let read):
            readUpTo[actor] = max(readUpTo[actor] ?? 0, read.upToSeq)
        case .erasureRecorded:
            break  // nothing personal, nothing to show: only the version moves on
        }
    }
}

/// One switch of a member's inbound alerts, in effect from its own line on.
public struct AlertSetting: Hashable, Sendable {
    /// The line's `seq`.
    public var seq: Int64
    /// Whether inbound alerts are on from this line.
    public var inboundAlerts: Bool
}

/// A member of a family.
public struct Member: Hashable, Sendable {
    /// The user id.
    public var userId: String
    /// The family id: the access boundary.
    public var family: String
    /// The member's full name.
    public var fullName: String
    /// The role.
    public var role: MemberRole
    /// When they joined (the `at` of their `MemberJoined`).
    public var joinedAt: Timestamp
    /// The `seq` of their `MemberJoined` line: alerts are for interactions after it (SPEC §3.5).
    public var joinedSeq: Int64
}

/// One family: the access boundary. Ids of schools, coaches, interactions and documents
/// are unique within it.
public struct Family: Equatable, Sendable {
    public var id: String
    /// Member user ids in the order they joined.
    public internal(set) var memberIds: [String] = []
    /// Schools by id, in the order they were added.
    public internal(set) var schools = IdTable<School>()
    /// Coaches by id, in the order they were added.
    public internal(set) var coaches = IdTable<Coach>()
    /// Every interaction ever logged, deleted ones included (their ids stay used).
    public internal(set) var interactions = InteractionTable()
    /// Status changes in log order.
    public internal(set) var statusChanges: [StatusChangeRecord] = []
    /// Documents by id.
    public internal(set) var documents: [String: DocumentRecord] = [:]
    /// Document ids in the order they were uploaded.
    public internal(set) var documentOrder: [String] = []
    /// Each member's inbound-alert switches, in log order (SPEC §3.5; on by default).
    public internal(set) var alertSettings: [String: [AlertSetting]] = [:]
    /// For each member, the highest `upToSeq` they marked their notifications read to.
    public internal(set) var readUpTo: [String: Int64] = [:]
    /// The family's version: how many of its events were applied (SPEC §4 `--expect-version`).
    /// Writers of different families never move each other's version.
    public internal(set) var version = 0
    /// How many of its lines are `Erased` records: default ids that count (`i-N`, `d-N`) start
    /// above the live ones by this much, so an id an erased line had is never issued again.
    public internal(set) var erasedLines = 0

    /// An empty family.
    public init(id: String) { self.id = id }

    /// The hashes of every blob the family's lines name: its interactions' attachments
    /// (deleted ones too) and its documents' bytes: the bytes that are this family's in the store.
    public var attachmentHashes: Set<String> {
        var hashes: Set<String> = []
        interactions.forEachHashedAttachmentList { _, attachments in
            for attachment in attachments { if let sha = attachment.sha256 { hashes.insert(sha) } }
        }
        for record in documents.values { if let sha = record.document.sha256 { hashes.insert(sha) } }
        return hashes
    }

    /// The interaction if it is logged and not deleted.
    public func liveInteraction(_ id: String) -> InteractionRecord? {
        guard let record = interactions[id], record.deletion == nil else { return nil }
        return record
    }
}

/// A school on the family's list.
public struct School: Hashable, Sendable {
    public var id: String
    /// The name shown to people.
    public var name: String
    /// The status, a slug such as `interested`.
    public var status: String?
    /// When it was added (the `at` of its `SchoolAdded`).
    public var addedAt: Timestamp
}

/// A coach at one of the family's schools.
public struct Coach: Hashable, Sendable {
    public var id: String
    /// The school's id in the family.
    public var schoolId: String
    /// The coach's first name.
    public var firstName: String
    /// The coach's last name.
    public var lastName: String
    /// The role.
    public var role: CoachRole

    /// `First Last`.
    public var fullName: String { firstName + " " + lastName }
}

/// A logged interaction with who logged it and whether it was deleted.
public struct InteractionRecord: Equatable, Sendable {
    /// The id of the event that logged it.
    public var eventId: String
    /// The line's `seq`.
    public var seq: Int64
    /// When it was recorded (`createdAt`).
    public var at: Timestamp
    /// The user id of the athlete who logged it.
    public var loggedBy: String
    /// The interaction as logged.
    public var logged: InteractionLogged
    /// When and by whom it was deleted, or nil while live.
    public var deletion: Deletion?

    /// `occurredAt`, else `at`.
    public var displayDate: Timestamp { logged.occurredAt ?? at }
}

/// When and by whom an interaction was deleted.
public struct Deletion: Equatable, Sendable {
    /// The id of the `InteractionDeleted` event that deleted it.
    public var eventId: String
    /// When it was recorded.
    public var at: Timestamp
    /// Who deleted it.
    public var by: String
}

/// A school status change as the timeline shows it.
public struct StatusChangeRecord: Equatable, Sendable {
    /// The id of the event that logged it.
    public var eventId: String
    /// The line's `seq`.
    public var seq: Int64
    /// When it was recorded.
    public var at: Timestamp
    /// The user id of who did it.
    public var actor: String
    /// The status change as logged.
    public var change: SchoolStatusChanged
}

/// An uploaded document as the timeline shows it.
public struct DocumentRecord: Equatable, Sendable {
    /// The id of the event that logged it.
    public var eventId: String
    /// The line's `seq`.
    public var seq: Int64
    /// When it was recorded.
    public var at: Timestamp
    /// The user id of who did it.
    public var actor: String
    /// The upload as logged.
    public var document: DocumentUploaded
}
