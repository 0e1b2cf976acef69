import Testing
@testable import CompassCore
@testable import CompassStore

/// A batch's lines are sealed one family per core when the batch is large and holds several
/// families: every line, `prev`, hash and family head is the one sealing the lines one by one
/// in order gives, at every size and mix of families; a line too long is refused before any
/// is sealed.
@Suite struct BatchSealerTests {
    /// Sealing in order, line by line: each line chained to its family's last hash.
    static func reference(_ unsealed: [[UInt8]], families: [String], heads: [String: String])
        -> (output: [UInt8], prevs: [String], hashes: [String], heads: [String: String]) {
        var heads = heads
        var output: [UInt8] = []
        var prevs: [String] = []
        var hashes: [String] = []
        for index in unsealed.indices {
            var line = unsealed[index]
            let prev = heads[families[index]]!
            EventEncoder.seal(&line, prev: prev)
            let hash = SHA256.hex(line)
            output += line + [0x0A]
            prevs.append(prev)
            hashes.append(hash)
            heads[families[index]] = hash
        }
        return (output, prevs, hashes, heads)
    }

    @Test(arguments: [(0, 1), (1, 1), (7, 3), (255, 4), (256, 1), (256, 5), (1_000, 2), (3_000, 9), (5_000, 51)])
    func everyLineIsSealedAsSealingInOrderWould(count: Int, familyCount: Int) throws {
        var rng = SplitMix64(seed: UInt64(count * 31 + familyCount))
        let names = (0..<familyCount).map { "f-\($0)" }
        // Uneven families: one takes most lines, as real batches do.
        let families = (0..<count).map { _ in names[rng.below(4) == 0 ? rng.below(familyCount) : 0] }
        let unsealed = (0..<count).map { index in
            Array(#"{"seq":\#(index + 1),"data":{"n":"\#(String(repeating: "x", count: rng.below(300)))"}"#.utf8)
        }
        var heads: [String: String] = [:]
        for name in names { heads[name] = SHA256.hex(Array(name.utf8)) }

        let sealed = try BatchSealer(unsealed: unsealed, families: { families[$0] }, head: { heads[$0]! })
        let expected = Self.reference(unsealed, families: families, heads: heads)
        // (Compared first and reported by name: the arrays are megabytes long.)
        let sameOutput = sealed.output == expected.output, samePrevs = sealed.prevs.map(\.hex) == expected.prevs
        let sameHashes = sealed.hashes.map(\.hex) == expected.hashes
        let sameLines = sealed.lines.map { Array(sealed.output[$0]) + [0x0A] }.reduce([], +) == expected.output
        #expect(sameOutput, "the sealed bytes differ from sealing in order")
        #expect(samePrevs, "a prev differs from sealing in order")
        #expect(sameHashes, "a hash differs from sealing in order")
        #expect(sameLines, "the lines' ranges do not cut the output into its lines")
        var newHeads = heads
        for (family, hash) in sealed.heads { newHeads[family] = hash }
        #expect(newHeads == expected.heads)
    }

    @Test func aLineTooLongIsRefusedBeforeAnyIsSealed() {
        let unsealed = [Array(#"{"a":1"#.utf8), Array(#"{"a":"\#(String(repeating: "y", count: 100))""#.utf8)]
        #expect(throws: EventError.self) {
            _ = try BatchSealer(unsealed: unsealed, families: { _ in "f" }, head: { _ in SHA256.emptyHex }, maxLineBytes: 100)
        }
        do {
            _ = try BatchSealer(unsealed: unsealed, families: { _ in "f" }, head: { _ in SHA256.emptyHex }, maxLineBytes: 100)
        } catch {
            #expect(error.message == "Event too large: \(unsealed[1].count + BatchSealer.suffixBytes) bytes (a log line is at most 100 bytes)")
        }
    }
}
