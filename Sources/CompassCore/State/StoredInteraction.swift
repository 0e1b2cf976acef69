/// One interaction as an ``InteractionTable`` keeps it: plain values only, its texts as spans
/// into the table's ``TextArena`` (no reference-counted field, so storing, growing and freeing a
/// million of them never touches a reference count).
///
/// ``InteractionTable`` turns it back into an ``InteractionRecord`` when someone reads it.
struct StoredInteraction: Sendable {
    var eventId: TextSpan
    var loggedBy: TextSpan
    var interactionId: TextSpan
    var schoolId: TextSpan
    var coachId: TextSpan
    var loggedEventId: TextSpan
    var otherCoachName: TextSpan
    var subject: TextSpan
    var content: TextSpan
    var seq: Int64
    /// `at`, in milliseconds since the epoch.
    var at: Int64
    /// `occurredAt` in milliseconds, when ``hasOccurredAt``.
    var occurredAt: Int64
    /// The deleting event's id, or ``TextSpan/none`` while live.
    var deletedEventId: TextSpan
    var deletedBy: TextSpan
    var deletedAt: Int64
    /// 1 + the index of its attachment list in the table, or 0 for none.
    var attachments: Int32
    var type: InteractionType
    var direction: Direction
    var sentiment: Sentiment?
    /// Bit 6 set when there are interest answers; bits 0–5 are the six answers.
    var answers: UInt8
    var hasOccurredAt: Bool

    var isDeleted: Bool { !deletedEventId.isNone }

    /// The six interest answers packed as ``answers`` holds them.
    static func packed(_ answers: [Bool]?) -> UInt8 {
        guard let answers else { return 0 }
        var bits: UInt8 = 1 << 6
        for (index, answer) in answers.prefix(6).enumerated() where answer { bits |= 1 << index }
        return bits
    }

    /// The answers ``packed(_:)`` packed (only ever six: the rules refuse any other count).
    static func unpacked(_ bits: UInt8) -> [Bool]? {
        guard bits & (1 << 6) != 0 else { return nil }
        return (0..<6).map { bits & (1 << $0) != 0 }
    }
}
