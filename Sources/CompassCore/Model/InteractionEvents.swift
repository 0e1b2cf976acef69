/// An athlete logged a communication with a college coach.
public struct InteractionLogged: Hashable, Sendable {
    public var interactionId: String
    public var schoolId: String?
    public var coachId: String?
    public var eventId: String?
    public var otherCoachName: String?
    public var type: InteractionType
    public var direction: Direction
    public var occurredAt: Timestamp?
    public var subject: String?
    public var content: String?
    public var sentiment: Sentiment?
    public var interestAnswers: [Bool]?
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
public struct Attachment: Hashable, Sendable {
    public var name: String
    public var sizeBytes: Int64
    public var mimeType: String
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
    public var interactionId: String

    public init(interactionId: String) { self.interactionId = interactionId }
}
