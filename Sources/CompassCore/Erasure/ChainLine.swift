/// One log line as the `prev` chain sees it across erasures (SPEC §5): its hash, where its
/// `prev` is, and the hash it had before any erasure.
///
/// An erasure and `verify` walk the chain with the same recurrence, so what one writes the
/// other recomputes: the *original* hash of a line is its `was` when it is an `Erased`
/// record; otherwise, when its `prev` is a correct link, the hash of its bytes with that
/// `prev` set to the previous line's original hash; otherwise the hash of its bytes.
package struct ChainLine {
    /// SHA-256 of the line's bytes as they are.
    package let hash: String
    /// Where the `prev` value is in the line, when it is a plain string.
    package let prevRange: Range<Int>?
    /// The `prev` value, when there is one.
    package let prev: String?
    /// The `was` of an `Erased` record.
    package let was: String?
    /// The `type` field, when it is a plain string.
    package let type: String?

    /// Reads one line (without its `\n`); `tape` is reused from line to line.
    package init(_ line: UnsafeBufferPointer<UInt8>, tape: inout JSONTape) {
        hash = SHA256.hex(line)
        guard let base = line.baseAddress, tape.scan(line) else {
            prevRange = nil; prev = nil; was = nil; type = nil
            return
        }
        let range = tape.plainStringRange(ofKey: "prev", in: base)
        prevRange = range
        prev = range.map { String(decoding: UnsafeBufferPointer(rebasing: line[$0]), as: UTF8.self) }
        type = tape.plainStringRange(ofKey: "type", in: base).map { String(decoding: UnsafeBufferPointer(rebasing: line[$0]), as: UTF8.self) }
        if type == Rules.erasedType,
           case .object(let object) = tape.value(at: 0, in: base), case .object(let data)? = object["data"],
           case .string(let hash)? = data["was"], SHA256.isHex(hash) {
            was = hash
        } else {
            was = nil
        }
    }

    /// Whether the line's `prev` links it to a previous line whose hash is `previous`.
    package func links(to previous: String) -> Bool { prev == previous }

    /// The line with its `prev` set to `hash` (64 hex digits, the same length).
    package static func replacingPrev(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, with hash: String) -> [UInt8] {
        var bytes = Array(line)
        bytes.replaceSubrange(range, with: Array(hash.utf8))
        return bytes
    }

    /// The original hash of this line, given the previous line's hash as it is (`previous`)
    /// and its original hash (`previousOriginal`).
    package func originalHash(_ line: UnsafeBufferPointer<UInt8>, previous: String, previousOriginal: String) -> String {
        if let was { return was }
        guard let prevRange, links(to: previous), previousOriginal != previous else { return hash }
        return SHA256.hex(Self.replacingPrev(line, prevRange, with: previousOriginal))
    }
}
