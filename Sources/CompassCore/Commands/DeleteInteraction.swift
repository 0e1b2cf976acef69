/// Deletes an interaction (only the athlete who logged it).
public struct DeleteInteraction: Sendable, Hashable {
    /// The interaction's id in the family.
    public var interactionId: String
    public init(interactionId: String) { self.interactionId = interactionId }
}
