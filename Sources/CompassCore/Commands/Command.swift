/// What a family member asks the log to record: one event's worth of intent, before its
/// ids, its time and the rules.
///
/// A command carries what the person entered. Listed values (roles, types, statuses) are
/// kept as text, as a form or the command line gives them, so the one rule set answers a
/// wrong one with the SPEC's message; each command also has an initializer taking the typed
/// values. ``draft(by:at:eventId:in:reusing:)`` turns it into an ``EventDraft`` with the
/// default ids filled in; ``Rules`` then decides it, exactly as replay would.
///
/// ```swift
/// let command = Command.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-ucla",
///                                                     subject: "Camp invite", sentiment: .positive))
/// ```
public enum Command: Sendable, Hashable {
    case addMember(AddMember)
    case addSchool(AddSchool)
    case addCoach(AddCoach)
    case logInteraction(LogInteraction)
    case deleteInteraction(DeleteInteraction)
    case changeStatus(ChangeStatus)
    case uploadDocument(UploadDocument)
    case changeNotificationSettings(ChangeNotificationSettings)
    case markNotificationsRead(MarkNotificationsRead)

    /// The type of the event the command appends.
    public var eventType: EventType {
        switch self {
        case .addMember: .memberJoined
        case .addSchool: .schoolAdded
        case .addCoach: .coachAdded
        case .logInteraction: .interactionLogged
        case .deleteInteraction: .interactionDeleted
        case .changeStatus: .schoolStatusChanged
        case .uploadDocument: .documentUploaded
        case .changeNotificationSettings: .notificationSettingsChanged
        case .markNotificationsRead: .notificationsRead
        }
    }
}

/// Adds a member: to the actor's family, or, with `newFamily`, as the first member of a new
/// family (the actor is then the joining user).
public struct AddMember: Sendable, Hashable {
    /// The user id.
    public var userId: String
    /// The member's full name.
    public var fullName: String
    /// `player` or `parent`.
    public var role: String
    /// The id of a family not yet in the log, for its first member.
    public var newFamily: String?

    public init(userId: String, fullName: String, role: String, newFamily: String? = nil) {
        self.userId = userId
        self.fullName = fullName
        self.role = role
        self.newFamily = newFamily
    }

    public init(userId: String, fullName: String, role: MemberRole, newFamily: String? = nil) {
        self.init(userId: userId, fullName: fullName, role: role.rawValue, newFamily: newFamily)
    }
}

/// Adds a school to the family's list; `schoolId` defaults to a slug of the name.
public struct AddSchool: Sendable, Hashable {
    /// The name shown to people.
    public var name: String
    /// The school's id in the family.
    public var schoolId: String?
    /// The status, a slug such as `interested`.
    public var status: String?

    public init(name: String, schoolId: String? = nil, status: String? = nil) {
        self.name = name
        self.schoolId = schoolId
        self.status = status
    }
}

/// Adds a coach at one of the family's schools; `coachId` defaults to a slug of the name.
public struct AddCoach: Sendable, Hashable {
    /// The school's id in the family.
    public var schoolId: String
    /// The coach's first name.
    public var firstName: String
    /// The coach's last name.
    public var lastName: String
    /// `head`, `assistant` or `recruiting`.
    public var role: String
    /// The coach's id in the family.
    public var coachId: String?

    public init(schoolId: String, firstName: String, lastName: String, role: String, coachId: String? = nil) {
        self.schoolId = schoolId
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
        self.coachId = coachId
    }

    public init(schoolId: String, firstName: String, lastName: String, role: CoachRole, coachId: String? = nil) {
        self.init(schoolId: schoolId, firstName: firstName, lastName: lastName, role: role.rawValue, coachId: coachId)
    }
}

/// Logs an interaction (athletes only); `interactionId` defaults to the family's next `i-N`.
public struct LogInteraction: Sendable, Hashable {
    /// The type.
    public var type: String
    /// `outbound` or `inbound`.
    public var direction: String
    /// The school's id in the family.
    public var schoolId: String?
    /// The coach's id in the family.
    public var coachId: String?
    /// The id of the event that logged it.
    public var eventId: String?
    /// A coach not on the list, by name.
    public var otherCoachName: String?
    /// RFC 3339; absent: the event's `at` stands in.
    public var occurredAt: String?
    /// The subject line, or nil.
    public var subject: String?
    /// The text shown: content with the interest note appended (SPEC §2.1).
    public var content: String?
    /// How it went: very positive, positive, neutral, negative.
    public var sentiment: String?
    /// Six answers to the interest questions (inbound, positive interactions only).
    public var interestAnswers: [Bool]?
    /// The attached files (name, size, MIME type, SHA-256).
    public var attachments: [Attachment]
    /// The interaction's id in the family.
    public var interactionId: String?
    /// A coach not on the list yet, added at the interaction's school in the same all-or-nothing
    /// batch (seed 001 "Add New Coach Inline"); the interaction's `coachId` is then theirs.
    public var newCoach: NewCoach?

    public init(type: String, direction: String, schoolId: String? = nil, coachId: String? = nil, eventId: String? = nil,
                otherCoachName: String? = nil, occurredAt: String? = nil, subject: String? = nil, content: String? = nil,
                sentiment: String? = nil, interestAnswers: [Bool]? = nil, attachments: [Attachment] = [], interactionId: String? = nil,
                newCoach: NewCoach? = nil) {
        self.type = type
        self.direction = direction
        self.schoolId = schoolId
        self.coachId = coachId
        self.eventId = eventId
        self.otherCoachName = otherCoachName
        self.occurredAt = occurredAt
        self.subject = subject
        self.content = content
        self.sentiment = sentiment
        self.interestAnswers = interestAnswers
        self.attachments = attachments
        self.interactionId = interactionId
        self.newCoach = newCoach
    }

    public init(type: InteractionType, direction: Direction, schoolId: String? = nil, coachId: String? = nil,
                otherCoachName: String? = nil, occurredAt: Timestamp? = nil, subject: String? = nil, content: String? = nil,
                sentiment: Sentiment? = nil, interestAnswers: [Bool]? = nil, attachments: [Attachment] = [], interactionId: String? = nil) {
        self.init(type: type.rawValue, direction: direction.rawValue, schoolId: schoolId, coachId: coachId,
                  otherCoachName: otherCoachName, occurredAt: occurredAt?.rfc3339, subject: subject, content: content,
                  sentiment: sentiment?.rawValue, interestAnswers: interestAnswers, attachments: attachments,
                  interactionId: interactionId)
    }
}

/// A coach added while logging an interaction.
public struct NewCoach: Sendable, Hashable {
    /// The coach's first name.
    public var firstName: String
    /// The coach's last name.
    public var lastName: String
    /// `head`, `assistant` or `recruiting`.
    public var role: String

    public init(firstName: String, lastName: String, role: String) {
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
    }
}

/// Turns the actor's inbound-contact alerts on or off (SPEC §3.5).
public struct ChangeNotificationSettings: Sendable, Hashable {
    /// Whether inbound alerts are on.
    public var inboundAlerts: Bool
    public init(inboundAlerts: Bool) { self.inboundAlerts = inboundAlerts }
}

/// Marks the actor's notifications read up to a line (the log's last `seq` for "all").
public struct MarkNotificationsRead: Sendable, Hashable {
    /// Notifications of interactions at lines ≤ this are read.
    public var upToSeq: Int64
    public init(upToSeq: Int64) { self.upToSeq = upToSeq }
}

/// Deletes an interaction (only the athlete who logged it).
public struct DeleteInteraction: Sendable, Hashable {
    /// The interaction's id in the family.
    public var interactionId: String
    public init(interactionId: String) { self.interactionId = interactionId }
}

/// Changes a school's status (a slug such as `offer_received`).
public struct ChangeStatus: Sendable, Hashable {
    /// The school's id in the family.
    public var schoolId: String
    /// The new status, a slug such as `offer_received`.
    public var newStatus: String
    /// Free notes, or nil.
    public var notes: String?

    public init(schoolId: String, newStatus: String, notes: String? = nil) {
        self.schoolId = schoolId
        self.newStatus = newStatus
        self.notes = notes
    }
}

/// Records an uploaded document; `documentId` defaults to the family's next `d-N`.
public struct UploadDocument: Sendable, Hashable {
    /// The title shown.
    public var title: String
    /// The document type, a slug such as `transcript`.
    public var docType: String
    /// The uploaded file's name.
    public var fileName: String?
    /// The size in bytes.
    public var sizeBytes: Int64?
    /// The document's id in the family.
    public var documentId: String?
    /// SHA-256 of the bytes (the store fills it in when it stores a file's bytes).
    public var sha256: String?

    public init(title: String, docType: String, fileName: String? = nil, sizeBytes: Int64? = nil, documentId: String? = nil,
                sha256: String? = nil) {
        self.title = title
        self.docType = docType
        self.fileName = fileName
        self.sizeBytes = sizeBytes
        self.documentId = documentId
        self.sha256 = sha256
    }
}
