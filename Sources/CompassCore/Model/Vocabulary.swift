/// A family member's role. Athletes are `player` in data.
public enum MemberRole: String, CaseIterable, Sendable {
    case player, parent
}

/// A coach's role at a school.
public enum CoachRole: String, CaseIterable, Sendable {
    case head, assistant, recruiting

    /// The name people read: `Head Coach`, `Assistant Coach`, `Recruiting Coordinator`.
    public var displayName: String {
        switch self {
        case .head: "Head Coach"
        case .assistant: "Assistant Coach"
        case .recruiting: "Recruiting Coordinator"
        }
    }
}

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

/// Who started an interaction.
public enum Direction: String, CaseIterable, Sendable {
    case outbound, inbound

    /// The name shown to people.
    public var displayName: String { self == .outbound ? "Outbound" : "Inbound" }
}

/// How an interaction felt.
public enum Sentiment: String, CaseIterable, Sendable {
    case veryPositive = "very_positive", positive, neutral, negative

    /// The name shown to people.
    public var displayName: String {
        switch self {
        case .veryPositive: "Very Positive"
        case .positive: "Positive"
        case .neutral: "Neutral"
        case .negative: "Negative"
        }
    }
}

/// The coach interest level computed from the six calibration answers.
public enum InterestLevel: String, CaseIterable, Sendable {
    case low, medium, high

    /// The level for a set of answers: 0 yes → none, 1 → low, 2–3 → medium, 4–6 → high.
    public static func from(answers: [Bool]?) -> InterestLevel? {
        guard let answers else { return nil }
        switch answers.lazy.filter({ $0 }).count {
        case 0: return nil
        case 1: return .low
        case 2, 3: return .medium
        default: return .high
        }
    }

    /// The note appended to shown content: `[Coach Interest Level: HIGH]`.
    public var note: String { "[Coach Interest Level: \(rawValue.uppercased())]" }
}

/// The MIME types an attachment may have (SPEC §2.1).
public enum AttachmentRules {
    /// The largest attachment, 10 MB (SPEC §2.1).
    public static let maxSizeBytes: Int64 = 10_485_760

    /// The MIME types an attachment may have (SPEC §2.1).
    public static let allowedMimeTypes: Set<String> = [
        "application/pdf", "image/jpeg", "image/png", "image/gif", "text/plain", "application/msword",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ]

    /// The MIME type for a file name's lower-cased extension, or nil when unsupported.
    public static func mimeType(forFileName name: String) -> String? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "pdf": return "application/pdf"
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "txt": return "text/plain"
        case "doc": return "application/msword"
        case "docx": return "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        default: return nil
        }
    }
}
