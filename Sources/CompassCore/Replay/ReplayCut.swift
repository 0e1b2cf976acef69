/// Where to cut a replay (SPEC §4): each family's stream after its line with `seq` `atSeq`
/// (a line of the family whose readable `seq` is greater, and every later line of it, is left
/// out while other families go on), and the whole log before the first line whose readable
/// `at` is later than `asOf`.
package struct ReplayCut: Equatable, Sendable {
    package var atSeq: Int64?
    package var asOf: Timestamp?

    package init(atSeq: Int64? = nil, asOf: Timestamp? = nil) {
        self.atSeq = atSeq
        self.asOf = asOf
    }

    /// Whether a line recorded at `at` ends the whole replay.
    func ends(at: Timestamp?) -> Bool {
        if let asOf, let at, at > asOf { return true }
        return false
    }
}
