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
