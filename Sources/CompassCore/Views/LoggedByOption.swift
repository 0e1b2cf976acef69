/// A `loggedByOptions` entry: the viewer as `Me`, then each athlete.
public struct LoggedByOption: Hashable, Sendable, Codable {
    /// The user id.
    public var userId: String
    /// The text of the option (`Me`, or the athlete's name).
    public var label: String
}
