/// Who started an interaction.
public enum Direction: String, CaseIterable, Sendable {
    case outbound, inbound

    /// The name shown to people.
    public var displayName: String { self == .outbound ? "Outbound" : "Inbound" }
}
