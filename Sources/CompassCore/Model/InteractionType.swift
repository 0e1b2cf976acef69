/// The channel of an interaction with a coach.
public enum InteractionType: String, CaseIterable, Sendable {
    case email, phoneCall = "phone_call", text, inPersonVisit = "in_person_visit"
    case virtualMeeting = "virtual_meeting", camp, showcase, tweet, dm

    /// The name people read: `Phone Call`, `Direct Message`.
    public var displayName: String {
        switch self {
        case .email: "Email"
        case .phoneCall: "Phone Call"
        case .text: "Text"
        case .inPersonVisit: "In-Person Visit"
        case .virtualMeeting: "Virtual Meeting"
        case .camp: "Camp"
        case .showcase: "Showcase"
        case .tweet: "Tweet"
        case .dm: "Direct Message"
        }
    }

    /// The timeline icon (SPEC §3.3).
    public var icon: String {
        switch self {
        case .email: "📧"
        case .phoneCall: "☎️"
        case .text: "💬"
        case .inPersonVisit: "🤝"
        case .virtualMeeting: "💻"
        case .camp: "⛺"
        case .showcase: "🎬"
        case .tweet: "🐦"
        case .dm: "📱"
        }
    }
}
