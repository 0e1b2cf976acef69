#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CompassCore
import Dispatch
import Foundation

/// When to write snapshots, and how to run work after the command's output.
package struct SnapshotPolicy {
    package var minimumNewBytes: Int
    package var afterOutput: (@escaping () -> Void) -> Void

    package init(minimumNewBytes: Int, afterOutput: @escaping (@escaping () -> Void) -> Void) {
        self.minimumNewBytes = minimumNewBytes
        self.afterOutput = afterOutput
    }
}
