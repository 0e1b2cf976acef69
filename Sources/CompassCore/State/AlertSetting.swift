/// One switch of a member's inbound alerts, in effect from its own line on.
public struct AlertSetting: Hashable, Sendable {
    /// The line's `seq`.
    public var seq: Int64
    /// Whether inbound alerts are on from this line.
    public var inboundAlerts: Bool
}
