/// The envelope's limits (SPEC §1); ``EnvelopeReader`` reads a line's envelope.
package enum Envelope {
    /// The largest `seq` (SPEC §1): 2^53 − 1, so `seq + 1` never overflows and every reader
    /// of JSON numbers reads it exactly.
    package static let maxSeq: Int64 = (1 << 53) - 1

    /// The `seq` of the line after one with `seq` `last`; refused past ``maxSeq``, so no
    /// writer ever acknowledges a line that replay would refuse.
    package static func seq(after last: Int64) throws(EventError) -> Int64 {
        guard last < maxSeq else {
            throw EventError("The log is full: its last seq is \(last), the largest a line can have (\(maxSeq)); nothing more can be appended",
                             kind: .rule)
        }
        return last + 1
    }
}
