/// An uploaded document as the timeline shows it.
public struct DocumentRecord: Equatable, Sendable {
    /// The id of the event that logged it.
    public var eventId: String
    /// The line's `seq`.
    public var seq: Int64
    /// When it was recorded.
    public var at: Timestamp
    /// The user id of who did it.
    public var actor: String
    /// The upload as logged.
    public var document: DocumentUploaded
}
