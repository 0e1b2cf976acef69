/// An erasure rewrote the log (SPEC §5): what the log was before it, and nothing personal.
///
/// Written by `erase` with actor `-`, after the erased lines were replaced by `Erased`
/// records; applied without a membership check.
public struct ErasureRecorded: Hashable, Sendable {
    /// SHA-256 of the last line before the erasure (of the empty string for an empty log).
    public var oldHead: String
    /// How many lines the log had before the erasure.
    public var oldLines: Int64
    /// How many lines the erasure replaced by `Erased` records.
    public var erased: Int64
    /// What was erased: one member's data or a whole family's.
    public var scope: ErasureScope
    /// The family `seq`s of the lines this erasure replaced by `Erased` records, ascending
    /// (`data.erasedSeqs`): which records are this erasure's when erasures interleave. Nil in
    /// records written before the field existed (their records are counted in file order).
    public var erasedSeqs: [Int64]?

    public init(oldHead: String, oldLines: Int64, erased: Int64, scope: ErasureScope, erasedSeqs: [Int64]? = nil) {
        self.oldHead = oldHead
        self.oldLines = oldLines
        self.erased = erased
        self.scope = scope
        self.erasedSeqs = erasedSeqs
    }
}
