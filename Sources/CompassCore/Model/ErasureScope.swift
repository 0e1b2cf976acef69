/// What an erasure forgets (SPEC §5).
public enum ErasureScope: String, CaseIterable, Hashable, Sendable {
    /// One member: their lines, their `MemberJoined` and what depends on what they created.
    case member
    /// Every line of a family.
    case family
}
