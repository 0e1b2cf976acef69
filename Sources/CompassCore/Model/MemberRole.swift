/// A family member's role. Athletes are `player` in data.
public enum MemberRole: String, CaseIterable, Sendable {
    case player, parent
}
