/// One inbound alert (SPEC §3.5): a coach reached out.
public struct NotificationItem: Hashable, Sendable, Codable, Identifiable {
    /// `notification-{interactionId}`.
    public var id: String
    /// The interaction it is about.
    public var interactionId: String
    /// `New Contact from {coachName}`.
    public var title: String
    /// `{coachName} reached out via {typeName}. View the interaction to see details.`
    public var message: String
    /// When the interaction was recorded (`at`).
    public var createdAt: Timestamp
    /// Whether the viewer marked it read.
    public var read: Bool
    /// `/interactions/{interactionId}`.
    public var clickUrl: String
    /// The interaction's line (`--mark-read` marks up to the log's last line).
    public var seq: Int64
}
