import CompassCore

/// When a read writes `LOG.snapshot` beside the log, so the next cold open folds only what
/// changed since.
public struct SnapshotPolicy: Sendable {
    /// How many bytes a read must fold past the last snapshot before it writes a new one.
    public var minimumNewBytes: Int
    /// Runs the snapshot's writing: at once in an app, after its output in the tool.
    package var afterOutput: @Sendable (@escaping () -> Void) -> Void

    /// The default amount of new bytes before a snapshot is written again: 1 MiB.
    public static let defaultMinimumNewBytes = 1 << 20

    /// A policy that writes a snapshot once a read has folded `minimumNewBytes` new bytes.
    public init(minimumNewBytes: Int = SnapshotPolicy.defaultMinimumNewBytes) {
        self.init(minimumNewBytes: minimumNewBytes, afterOutput: { $0() })
    }

    /// A policy whose snapshot writing is handed to `afterOutput` (the tool runs it once its
    /// output is written).
    package init(minimumNewBytes: Int, afterOutput: @escaping @Sendable (@escaping () -> Void) -> Void) {
        self.minimumNewBytes = max(0, minimumNewBytes)
        self.afterOutput = afterOutput
    }

    /// A policy that reads snapshots and never writes one (a feed's first read).
    package static var readOnly: SnapshotPolicy { SnapshotPolicy(minimumNewBytes: .max, afterOutput: { _ in }) }
}
