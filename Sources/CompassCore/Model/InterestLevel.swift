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
