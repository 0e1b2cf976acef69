/// Where to end a replay: before the first line whose readable `seq` is greater than
/// `atSeq`, or whose readable `at` is later than `asOf` (SPEC §4).
package struct ReplayCut: Equatable, Sendable {
    package var atSeq: Int64?
    package var asOf: Timestamp?

    package init(atSeq: Int64? = nil, asOf: Timestamp? = nil) {
        self.atSeq = atSeq
        self.asOf = asOf
    }

    func ends(seq: Int64?, at: Timestamp?) -> Bool {
        if let atSeq, let seq, seq > atSeq { return true }
        if let asOf, let at, at > asOf { return true }
        return false
    }
}
