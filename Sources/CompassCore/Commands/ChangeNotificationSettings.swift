/// Turns the actor's inbound-contact alerts on or off (SPEC §3.5).
public struct ChangeNotificationSettings: Sendable, Hashable {
    /// Whether inbound alerts are on.
    public var inboundAlerts: Bool
    public init(inboundAlerts: Bool) { self.inboundAlerts = inboundAlerts }
}
