/// `total`, `outbound`, `inbound`, `thisWeek` over the filtered list.
public struct InteractionAnalytics: Hashable, Sendable, Codable {
    /// Interactions in the filtered list.
    public var total = 0
    /// Outbound interactions.
    public var outbound = 0
    /// Inbound interactions.
    public var inbound = 0
    /// Interactions in the last seven days.
    public var thisWeek = 0

    /// Counts one interaction of the list.
    mutating func count(direction: Direction, date: Timestamp, weekStart: Timestamp) {
        total += 1
        if direction == .outbound { outbound += 1 } else { inbound += 1 }
        if date >= weekStart { thisWeek += 1 }
    }
}
