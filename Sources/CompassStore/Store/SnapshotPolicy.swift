import CompassCore

/// When to write snapshots, and how to run work after the command's output.
package struct SnapshotPolicy {
    /// How many bytes a read must fold past the last snapshot before it writes a new one.
    package var minimumNewBytes: Int
    /// Runs the snapshot's writing: at once in an app, after its output in the tool.
    package var afterOutput: (@escaping () -> Void) -> Void

    /// The default amount of new bytes before a snapshot is written again: 1 MiB.
    package static let defaultMinimumNewBytes = 1 << 20

    package init(minimumNewBytes: Int = SnapshotPolicy.defaultMinimumNewBytes,
                 afterOutput: @escaping (@escaping () -> Void) -> Void = { $0() }) {
        self.minimumNewBytes = minimumNewBytes
        self.afterOutput = afterOutput
    }

    /// A policy that reads snapshots and never writes one (a feed's first read).
    package static var readOnly: SnapshotPolicy { SnapshotPolicy(minimumNewBytes: .max, afterOutput: { _ in }) }
}
