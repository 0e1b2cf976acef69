import CompassCore
import Foundation

/// One family's stream at the end of the log: its last `seq` (its version) and its head.
public struct FamilyHead: Sendable, Hashable {
    public var family: String
    public var seq: Int64
    /// SHA-256 of the family's last line.
    public var head: String
}
