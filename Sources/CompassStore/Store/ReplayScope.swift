import CompassCore
import Dispatch
import Foundation

/// How much of the replayed state a command reads.
package enum ReplayScope: Equatable {
    /// Every family (the state is iterated, compared or written back whole).
    case everything
    /// Members, counts and problems, and the family of this user when they are a member.
    case familyOf(String)
    /// Members, counts and problems only.
    case summary
}
