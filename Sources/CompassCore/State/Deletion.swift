/// When and by whom an interaction was deleted.
public struct Deletion: Equatable, Sendable {
    /// The id of the `InteractionDeleted` event that deleted it.
    public var eventId: String
    /// When it was recorded.
    public var at: Timestamp
    /// Who deleted it.
    public var by: String
}
