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
