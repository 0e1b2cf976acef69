import CompassCore

/// Where a store's log lives, behind the one door (``CompassStore``): what the store asks of
/// its storage, and nothing about files. ``FileLogBackend`` keeps the log in one JSON-lines
/// file; a database backend keeps the same lines, byte for byte, per family.
///
/// Every method works on committed lines only and throws ``StoreError``; a backend decides
/// appends with the one rule set (``Rules``) under its own lock, so what it stores replays as
/// it was decided.
package protocol LogBackend: AnyObject {
    /// Where the log is, as messages name it.
    var location: String { get }

    /// Whether there is a log (a read of a missing one is ``StoreError/noLog(path:)``).
    func exists() throws(StoreError) -> Bool

    /// Where a read that asks for a version this backend has not replayed yet goes (a
    /// database standby's primary); nil for a backend that is its own primary.
    var primaryAddress: String? { get }

    /// One whole read of the committed log with these options.
    func replay(_ options: CompassStore.ReadOptions) throws(StoreError) -> Replayer

    /// A reader that keeps its place: it folds only what was committed since its last read.
    func makeCursor() -> any LogCursor

    /// A conditional append of a batch: the drafts `build` makes from the state under the
    /// backend's lock are decided in order, given their family's next `seq` and `prev`, and
    /// stored all or nothing (durable before this returns), after `beforeWrite` stored what
    /// they point at.
    func append(_ request: AppendRequest, build: DraftBuilder) throws(StoreError) -> AppendOutcome

    /// Appends whole family streams byte for byte (`import --restore`), all or nothing: only
    /// when they replay after the committed log without a problem and none of their families
    /// has a line yet (``StreamRestore``), and `refused` (problems found before: blobs that
    /// could not be had) is empty. `blobs` are stored first.
    func restore(_ input: [UInt8], blobs: [StagedAttachment], refused: [Problem]) throws(StoreError) -> ImportSummary

    /// Rewrites one family's stream for an erasure (SPEC §5); other families are untouched.
    func erase(_ target: ErasureTarget, requester: String, at: Timestamp, eventId: String,
               dryRun: Bool) throws(StoreError) -> ErasureOutcome

    /// A source of the events committed from now on (`scope`: what its first read keeps), or
    /// of every event of a family after a `seq`.
    func changes(scope: ReplayScope, after: (family: String, seq: Int64)?) throws(StoreError) -> any ChangeSource

    /// Which families new lines are in, read after read (observations read their values from
    /// the store): ``feedChangeSignal()`` for a file; a database reads family ids only.
    func changeSignal() throws(StoreError) -> any FamilyChangeSignal

    /// Every committed line, byte for byte, each ending in `\n` (a file's in its order; a
    /// database's family by family, each in `seq` order).
    func allLines() throws(StoreError) -> [UInt8]

    /// The lines of ``allLines()``, handed to `body` in blocks of whole lines: a database reads
    /// them in blocks within one snapshot, so a whole-store export holds a block, not the store.
    func eachBlockOfLines(_ body: ([UInt8]) throws(StoreError) -> Void) throws(StoreError)

    /// The committed lines of one family, byte for byte, each ending in `\n`, and how many.
    func familyLines(_ family: String) throws(StoreError) -> (lines: [UInt8], count: Int)

    /// Imports decoded blocks all or nothing (`import`): every rejected line is reported and
    /// nothing is written. The default gathers the blocks and appends them as one batch.
    func importLines(from source: inout some ImportSource, expectVersion: Int64?,
                     progress: ReadProgress?) throws(StoreError) -> ImportSummary

    /// For measuring `verify`'s comparison alone: whether the snapshot the backend keeps is
    /// the one `snapshot` encodes; nil when it keeps none.
    func storedSnapshotMatches(_ snapshot: ReplaySnapshot) throws(StoreError) -> Bool?

    /// `verify`, every problem handed to `problems` as it is found.
    func verify(expectHead: String?, problems: (@Sendable (Problem) -> Void)?,
                progress: ReadProgress?) throws(StoreError) -> VerifyReport

    /// The stored bytes with this SHA-256, or nil when there are none.
    func blob(_ sha256: String) throws(StoreError) -> [UInt8]?

    /// Whether bytes with this SHA-256 are stored (without reading them).
    func hasBlob(_ sha256: String) throws(StoreError) -> Bool

    /// Stores blobs durably (those already there are kept); returns what takes back the new ones.
    func saveBlobs(_ blobs: [StagedAttachment]) throws(StoreError) -> () -> Void

    /// Replaces the log with what `make` returns for its committed bytes, under the writers'
    /// lock from the read to the replacement, then runs `committed` (a device's sync, SPEC §7).
    func replaceLog(_ make: ([UInt8]) throws(StoreError) -> [UInt8], committed: () throws(StoreError) -> Void) throws(StoreError)
}
