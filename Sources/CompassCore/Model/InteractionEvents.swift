/// An athlete logged a communication with a college coach.
public struct InteractionLogged: Hashable, Sendable {
    /// The interaction's id in the family.
    public var interactionId: String
    /// The school's id in the family.
    public var schoolId: String?
    /// The coach's id in the family.
    public var coachId: String?
    /// The id of the event that logged it.
    public var eventId: String?
    /// A coach not on the list, by name.
    public var otherCoachName: String?
    /// The type.
    public var type: InteractionType
    /// `outbound` or `inbound`.
    public var direction: Direction
    /// When it happened: `occurredAt`, else `at`.
    public var occurredAt: Timestamp?
    /// The subject line, or nil.
    public var subject: String?
    /// The text shown: content with the interest note appended (SPEC §2.1).
    public var content: String?
    /// How it went: very positive, positive, neutral, negative.
    public var sentiment: Sentiment?
    /// The six answers to the interest questions.
    public var interestAnswers: [Bool]?
    /// The attached files (name, size, MIME type, SHA-256).
    public var attachments: [Attachment]?

    public init(
        interactionId: String, schoolId: String? = nil, coachId: String? = nil, eventId: String? = nil,
        otherCoachName: String? = nil, type: InteractionType, direction: Direction, occurredAt: Timestamp? = nil,
        subject: String? = nil, content: String? = nil, sentiment: Sentiment? = nil,
        interestAnswers: [Bool]? = nil, attachments: [Attachment]? = nil
    ) {
        self.interactionId = interactionId
        self.schoolId = schoolId
        self.coachId = coachId
        self.eventId = eventId
        self.otherCoachName = otherCoachName
        self.type = type
        self.direction = direction
        self.occurredAt = occurredAt
        self.subject = subject
        self.content = content
        self.sentiment = sentiment
        self.interestAnswers = interestAnswers
        self.attachments = attachments
    }

    /// The coach interest level from the calibration answers, if any.
    public var interestLevel: InterestLevel? { InterestLevel.from(answers: interestAnswers) }

    /// The content as read models show it: with the interest note appended (SPEC §2.1).
    public var shownContent: String? {
        guard let level = interestLevel else { return content }
        guard let content else { return level.note }
        return content + "\n\n" + level.note
    }
}

/// A file attached to an interaction; its bytes are stored by SHA-256 beside the log.
public struct Attachment: Hashable, Sendable, Codable {
    /// The name shown to people.
    public var name: String
    /// The size in bytes.
    public var sizeBytes: Int64
    /// The file's MIME type.
    public var mimeType: String
    /// The SHA-256 of the bytes, their key in the attachment store.
    public var sha256: String?

    public init(name: String, sizeBytes: Int64, mimeType: String, sha256: String? = nil) {
        self.name = name
        self.sizeBytes = sizeBytes
        self.mimeType = mimeType
        self.sha256 = sha256
    }
}

/// An athlete deleted an interaction they had logged.
public struct InteractionDeleted: Hashable, Sendable {
    /// The interaction's id in the family.
    public var interactionId: String

    public init(interactionId: String) { self.interactionId = interactionId }
}
