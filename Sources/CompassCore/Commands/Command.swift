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
