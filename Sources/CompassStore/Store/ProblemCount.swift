import CompassCore
import Foundation

/// How many problems a read folded past, and the first (``CompassStore/problems(as:)``).
public struct ProblemCount: Hashable, Sendable, Codable {
    /// How many lines were unreadable or refused.
    public var count: Int
    /// The first of them (its line and message), if any.
    public var first: Problem?

    public init(count: Int, first: Problem?) {
        self.count = count
        self.first = first
    }
}
