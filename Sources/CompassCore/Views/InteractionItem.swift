/// One row of the interactions list, every field of SPEC §3.1.
public struct InteractionItem: Hashable, Sendable, Codable {
    public var id: String
    /// The type.
    public var type: InteractionType
    /// `outbound` or `inbound`.
    public var direction: Direction
    /// The subject line, or nil.
    public var subject: String?
    /// The subject, else the type's name.
    public var displaySubject: String
    /// The text shown: content with the interest note appended (SPEC §2.1).
    public var content: String?
    /// How it went: very positive, positive, neutral, negative.
    public var sentiment: Sentiment?
    /// `high`, `medium` or `low` from the answers; nil for none.
    public var interestLevel: InterestLevel?
    /// The display date: `occurredAt`, else `at`.
    public var occurredAt: Timestamp
    /// When it was recorded (`at`).
    public var createdAt: Timestamp
    /// The user id of the athlete who logged it.
    public var loggedBy: String
    /// `You` for the viewer, else the member's name, else `Unknown`.
    public var loggedByName: String
    /// The school's id in the family.
    public var schoolId: String?
    /// The school's name, `Unknown School` when unresolved, nil when none.
    public var schoolName: String?
    /// The coach's id in the family.
    public var coachId: String?
    /// `First Last` of the coach, `Unknown Coach` when unresolved, nil when none.
    public var coachName: String?
    /// A coach not on the list, by name.
    public var otherCoachName: String?
    /// How many files are attached.
    public var attachmentCount: Int
    /// Whether the viewer may delete it: the athlete who logged it.
    public var canDelete: Bool
}
