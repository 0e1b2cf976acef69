import CompassCore

/// What a sync did (`pushed P, pulled Q, refused R`).
public struct SyncReport: Equatable, Sendable {
    /// A line of this device the remote refused: dropped from the device's stream.
    public struct Refusal: Equatable, Sendable {
        /// The event's id.
        public var eventId: String
        /// The SPEC's message.
        public var message: String
    }

    /// Whether the device's store was made by this sync (a clone of the remote's stream).
    public var cloned = false
    /// The device's lines the remote took.
    public var pushed = 0
    /// The remote's lines the device did not have (from other devices).
    public var pulled = 0
    /// The device's lines the remote refused.
    public var refused: [Refusal] = []
    /// The family synced.
    public var family = ""
    /// The family's head now (the remote's): a head kept before proves only lines the remote
    /// kept unchanged.
    public var head = ""

    public init() {}
}
