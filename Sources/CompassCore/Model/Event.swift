/// One applied event of the log: the envelope of SPEC §1 and a typed payload (§2).
public struct Event: Hashable, Sendable {
    /// The line's `seq`.
    public var seq: Int64
    public var id: String
    /// When it was recorded.
    public var at: Timestamp
    /// The user id of who did it.
    public var actor: String
    /// The family id: the access boundary.
    public var family: String
    /// The typed `data` of the event.
    public var payload: Payload
    /// The `prev` hash as written, if any.
    public var prev: String?

    public init(seq: Int64, id: String, at: Timestamp, actor: String, family: String, payload: Payload, prev: String? = nil) {
        self.seq = seq
        self.id = id
        self.at = at
        self.actor = actor
        self.family = family
        self.payload = payload
        self.prev = prev
    }

    /// The `type` field.
    public var type: EventType { payload.type }

    /// An empty event (no ids, no texts): what a prepared line holds when it holds none.
    static var none: Event {
        Event(seq: 0, id: "", at: Timestamp(millisecondsSinceEpoch: 0), actor: "", family: "",
              payload: .notificationsRead(NotificationsRead(upToSeq: 0)))
    }

    /// The event taken apart, its values moved out (the fold keeps them without copying).
    ///
    /// The values are moved out (the ids swapped for empty ones, the payload for an empty
    /// one), not returned from a consumed event: that would copy each text of the payload (a
    /// reference count each) and then free the event's.
    mutating func takeParts() -> (seq: Int64, id: String, at: Timestamp, actor: String, payload: Payload) {
        var taken = (id: "", actor: "")
        swap(&taken.id, &id)
        swap(&taken.actor, &actor)
        // The payload is moved out and an empty one put in its place: a swap moved its 160
        // bytes three times.
        let payload = exchange(&payload, with: .notificationsRead(NotificationsRead(upToSeq: 0)))
        return (seq, taken.id, at, taken.actor, payload)
    }
}

/// The event types of SPEC §2, and `ErasureRecorded` of §5.
public enum EventType: String, CaseIterable, Sendable {
    case memberJoined = "MemberJoined"
    case schoolAdded = "SchoolAdded"
    case coachAdded = "CoachAdded"
    case interactionLogged = "InteractionLogged"
    case interactionDeleted = "InteractionDeleted"
    case schoolStatusChanged = "SchoolStatusChanged"
    case documentUploaded = "DocumentUploaded"
    case notificationSettingsChanged = "NotificationSettingsChanged"
    case notificationsRead = "NotificationsRead"
    case erasureRecorded = "ErasureRecorded"

    /// The position in `allCases` (for per-type counters kept in arrays).
    var ordinal: Int {
        switch self {
        case .memberJoined: 0
        case .schoolAdded: 1
        case .coachAdded: 2
        case .interactionLogged: 3
        case .interactionDeleted: 4
        case .schoolStatusChanged: 5
        case .documentUploaded: 6
        case .notificationSettingsChanged: 7
        case .notificationsRead: 8
        case .erasureRecorded: 9
        }
    }
}

/// An event's payload, one case per event type.
public enum Payload: Hashable, Sendable {
    case memberJoined(MemberJoined)
    case schoolAdded(SchoolAdded)
    case coachAdded(CoachAdded)
    case interactionLogged(InteractionLogged)
    case interactionDeleted(InteractionDeleted)
    case schoolStatusChanged(SchoolStatusChanged)
    case documentUploaded(DocumentUploaded)
    case notificationSettingsChanged(NotificationSettingsChanged)
    case notificationsRead(NotificationsRead)
    case erasureRecorded(ErasureRecorded)

    /// The type.
    public var type: EventType {
        switch self {
        case .memberJoined: .memberJoined
        case .schoolAdded: .schoolAdded
        case .coachAdded: .coachAdded
        case .interactionLogged: .interactionLogged
        case .interactionDeleted: .interactionDeleted
        case .schoolStatusChanged: .schoolStatusChanged
        case .documentUploaded: .documentUploaded
        case .notificationSettingsChanged: .notificationSettingsChanged
        case .notificationsRead: .notificationsRead
        case .erasureRecorded: .erasureRecorded
        }
    }

    /// The id of the entity the event creates or targets (for `compass` output).
    public var entityId: String {
        switch self {
        case .memberJoined(let e): e.userId
        case .schoolAdded(let e): e.schoolId
        case .coachAdded(let e): e.coachId
        case .interactionLogged(let e): e.interactionId
        case .interactionDeleted(let e): e.interactionId
        case .schoolStatusChanged(let e): e.schoolId
        case .documentUploaded(let e): e.documentId
        case .notificationSettingsChanged(let e): e.inboundAlerts ? "inbound-alerts-on" : "inbound-alerts-off"
        case .notificationsRead(let e): "read-up-to-\(e.upToSeq)"
        case .erasureRecorded(let e): "erasure-of-\(e.erased)-lines"
        }
    }
}
