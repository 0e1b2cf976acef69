import CompassCore

/// What an erasure forgot (SPEC §5), or what a dry run would forget: counts only, nothing
/// personal.
public struct ErasureReport: Sendable, Hashable {
    /// One member's data or a whole family's.
    public var scope: ErasureScope
    /// The family the erasure was in.
    public var family: String
    /// The erased member (nil for a family erasure).
    public var member: String?
    /// How many lines were replaced by `Erased` records.
    public var erasedLines: Int
    /// The 1-based lines among them that were in no family's stream (their `family` missing or
    /// not an id), taken by their actor: their records are in no stream, so `ErasureRecorded`
    /// does not count them and no head proves them (nor did one cover the lines).
    public var erasedOutsideStreams: [Int]
    /// Erased lines per event type (`InteractionLogged`, …).
    public var erasedByType: [String: Int]
    /// Attachment blobs removed: no remaining line refers to them.
    public var attachments: Int
    /// Cut-off fragments of erased lines removed from `LOG.torn`.
    public var tornFragments: Int
    /// Whether a snapshot (a cache that held the data) was removed.
    public var snapshotRemoved: Bool
    /// The head before the erasure: keep it to prove later that nothing else changed.
    public var oldHead: String
    /// How many lines the log had before the erasure.
    public var oldLines: Int
    /// Whether `verify --expect-head` proves `oldHead` after the erasure (the same rule
    /// `verify` applies, run on the new log).
    public var oldHeadProvable: Bool
    /// The family seqs whose heads (each line's hash when it was the family's last) can no
    /// longer be proven: this erasure changed (erased or re-sealed) a line from before an
    /// earlier erasure's record, whose bytes of then are gone. Empty when every head kept
    /// before still verifies as it did.
    public var headsLost: [Int64]
    /// The head after it (the `ErasureRecorded` line's hash).
    public var newHead: String
    /// The `seq` of the `ErasureRecorded` line.
    public var seq: Int64
    /// Lines kept as they are because nothing says whose they are (not a JSON object, or no
    /// readable actor).
    public var unreadableLinesKept: [Int]
    /// True for a dry run: nothing was changed.
    public var dryRun: Bool
    /// What could not be finished after the erasure was in place (its folder made durable,
    /// its blobs removed); the next write to the log finishes it. Nil when all went well.
    public var warning: String?

    init(_ outcome: ErasureOutcome, target: ErasureTarget) {
        let plan = outcome.plan
        scope = target.scope
        family = plan.family
        if case .member(let user) = target { member = user }
        erasedLines = plan.erasedLines.count
        erasedOutsideStreams = plan.erasedOutsideStreams
        erasedByType = plan.erasedByType
        attachments = outcome.blobs
        tornFragments = outcome.tornFragments
        snapshotRemoved = outcome.snapshot
        if case .erasureRecorded(let recorded) = plan.record.payload {
            oldHead = recorded.oldHead
            oldLines = Int(recorded.oldLines)
        } else {
            oldHead = ""
            oldLines = 0
        }
        newHead = plan.newHead
        oldHeadProvable = plan.oldHeadProvable
        headsLost = plan.headsLost
        seq = plan.record.seq
        unreadableLinesKept = plan.unreadableLines
        dryRun = !outcome.committed
        warning = outcome.warning
    }
}
