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
