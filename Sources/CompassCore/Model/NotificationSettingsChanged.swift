/// A member turned their inbound-contact alerts on or off (SPEC §3.5), from this line on.
public struct NotificationSettingsChanged: Hashable, Sendable {
    /// Whether the member is alerted of inbound interactions.
    public var inboundAlerts: Bool

    public init(inboundAlerts: Bool) { self.inboundAlerts = inboundAlerts }
}
