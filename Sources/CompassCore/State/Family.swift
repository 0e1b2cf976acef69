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

/// One family: the access boundary. Ids of schools, coaches, interactions and documents
/// are unique within it.
public struct Family: Equatable, Sendable {
    public var id: String
    /// Member user ids in the order they joined.
    public internal(set) var memberIds: [String] = []
    /// Schools by id, in the order they were added.
    package internal(set) var schools = IdTable<School>()
    /// Coaches by id, in the order they were added.
    package internal(set) var coaches = IdTable<Coach>()
    /// Every interaction ever logged, deleted ones included (their ids stay used).
    package internal(set) var interactions = InteractionTable()
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
    /// Where its lines are in the log (``FamilyLines``).
    package internal(set) var lines = FamilyLines()

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

    /// A school by id, if the family added it.
    public func school(_ id: String) -> School? { schools[id] }

    /// The family's schools, in the order they were added.
    public var schoolList: [School] { schools.values }

    /// A coach by id, if the family added them.
    public func coach(_ id: String) -> Coach? { coaches[id] }

    /// The family's coaches, in the order they were added.
    public var coachList: [Coach] { coaches.values }

    /// Every interaction logged, deleted ones too (with their deletion), in log order.
    public var interactionRecords: [InteractionRecord] { Array(interactions.records) }

    /// The interaction if it is logged and not deleted.
    public func liveInteraction(_ id: String) -> InteractionRecord? {
        guard let record = interactions[id], record.deletion == nil else { return nil }
        return record
    }
}
