/// A member marked their notifications read up to a line (SPEC §3.5).
public struct NotificationsRead: Hashable, Sendable {
    /// Notifications of interactions with `seq` ≤ this are read.
    public var upToSeq: Int64

    public init(upToSeq: Int64) { self.upToSeq = upToSeq }
}
