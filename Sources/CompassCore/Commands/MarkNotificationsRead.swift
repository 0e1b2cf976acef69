/// Marks the actor's notifications read up to a line (the log's last `seq` for "all").
public struct MarkNotificationsRead: Sendable, Hashable {
    /// Notifications of interactions at lines ≤ this are read.
    public var upToSeq: Int64
    public init(upToSeq: Int64) { self.upToSeq = upToSeq }
}
