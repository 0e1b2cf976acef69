import Testing
@testable import CompassCore

/// FIPS 180-4 / NIST example vectors.
@Suite struct SHA256Tests {
    #if COMPASS_PORTABLE
    /// The portable build (`-DCOMPASS_PORTABLE`, as `.ci/run` builds it) has every x86 fast
    /// path compiled out, the C ones too: SHA-256 then runs the Swift rounds.
    @Test func thePortableBuildRunsNoAcceleratedPath() {
        #expect(!SHA256.isAccelerated)
    }
    #endif

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func nistVectors(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    @Test func oneMillionAs() {
        #expect(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalUpdatesMatchOneShotAtEveryBlockBoundary() {
        let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for split in [0, 1, 55, 56, 63, 64, 65, 127, 128, 199, 200] {
            var hasher = SHA256()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalizeHex() == SHA256.hex(message), "split at \(split)")
        }
    }

    @Test func rawDigestSpellsTheHexDigest() {
        for length in [0, 3, 55, 64, 200] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let hex = SHA256.digest(message).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
            #expect(hex == SHA256.hex(message), "length \(length)")
        }
    }

    /// Replay keeps a line's hash as words and checks the next `prev` against them in place:
    /// exactly its 64 lowercase digits spell it, nothing else does.
    @Test func aLineHashIsSpelledByItsHexAndNothingElse() {
        let abc = Array("abc".utf8)
        let hash = abc.withUnsafeBufferPointer { LineHash(of: $0) }
        let hex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(hash.hex == hex && hash.isSpelled(by: hex))
        #expect(hash == abc.withUnsafeBufferPointer { LineHash(of: $0) })
        #expect(hash != [UInt8]().withUnsafeBufferPointer { LineHash(of: $0) })
        var digits = Array(hex.utf8)
        for at in [0, 7, 8, 31, 32, 63] {
            let original = digits[at]
            for other in Array("0123456789abcdefA".utf8) where other != original {
                digits[at] = other
                #expect(!hash.isSpelled(by: String(decoding: digits, as: UTF8.self)), "digit \(at) as \(other)")
            }
            digits[at] = original
        }
        for wrong in ["", String(hex.dropLast()), hex + "0", hex.uppercased(), " " + hex.dropLast()] {
            #expect(!hash.isSpelled(by: wrong), "\(wrong)")
        }
    }

    @Test func emptyHexIsTheHashOfNothing() {
        #expect(SHA256.emptyHex == SHA256.hex([UInt8]()))
    }
}

@Suite struct SHA256PathsTests {
    @Test func portableAndAcceleratedPathsAgree() {
        var rng = SplitMix64(seed: 180)
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 1000, 4096, 10_007] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(SHA256.portableHex(bytes) == SHA256.hex(bytes), "length \(length)")
        }
        #expect(SHA256.portableHex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// Lines hashed two at a time (their blocks interleaved on the SHA unit, the next line
    /// taking a lane as soon as one ends) give each line's own hash, the portable path's: lines
    /// of every length around the block and padding edges in many orders, random lengths up to
    /// a long line's, one line, none.
    @Test func linesHashedTwoAtATimeGiveEachLinesOwnHash() {
        var rng = SplitMix64(seed: 181)
        let edges = [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 121, 127, 128, 129, 191, 192, 600, 1000, 70_001]
        var batches: [[Int]] = [[], [5], edges, edges.reversed(), [70_001, 3, 3, 3, 3], [3, 70_001, 3]]
        for _ in 0..<40 { batches.append((0..<Int(rng.next() % 40)).map { _ in Int(rng.next() % 5_000) }) }
        for lengths in batches {
            var bytes: [UInt8] = []
            var ranges: [Range<Int>] = []
            for length in lengths {
                ranges.append(bytes.count..<(bytes.count + length))
                for _ in 0..<length { bytes.append(UInt8(truncatingIfNeeded: rng.next())) }
            }
            let hashes = [LineHash](unsafeUninitializedCapacity: ranges.count) { out, count in
                bytes.withUnsafeBufferPointer { all in
                    ranges.withUnsafeBufferPointer { SHA256.lineHashes(of: $0, in: all, into: out.baseAddress!) }
                }
                count = ranges.count
            }
            let expected = ranges.map { SHA256.portableHex(Array(bytes[$0])) }
            #expect(hashes.map(\.hex) == expected, "lengths \(lengths)")
        }
    }
}

extension SHA256PathsTests {
    /// Two hashers fed together in parts (`verify` hashes two families' sections a part at a
    /// time) end where each fed alone would: parts of every length around the block edges,
    /// each hasher part-way through a block or not when a part comes.
    @Test func twoHashersFedTogetherInPartsEndWhereEachWouldAlone() {
        var rng = SplitMix64(seed: 183)
        let edges = [0, 1, 31, 63, 64, 65, 127, 128, 129, 200, 4_097]
        for _ in 0..<60 {
            var together = (SHA256(), SHA256()), alone = (SHA256(), SHA256())
            var all: ([UInt8], [UInt8]) = ([], [])
            for _ in 0..<(1 + rng.below(5)) {
                let a = (0..<edges[rng.below(edges.count)]).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                let b = (0..<edges[rng.below(edges.count)]).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in SHA256.update(&together.0, a, &together.1, b) } }
                alone.0.update(a)
                alone.1.update(b)
                all.0 += a
                all.1 += b
            }
            let digests = (together.0.finalize(), together.1.finalize())
            #expect(digests.0 == alone.0.finalize() && digests.1 == alone.1.finalize())
            #expect(digests.0 == SHA256.digest(all.0) && digests.1 == SHA256.digest(all.1))
        }
    }
}

@Suite struct LineHashSpellingTests {
    @Test func aHashReadsBackFromItsSpellingAndNothingElseReads() {
        var rng = SplitMix64(seed: 41)
        for n in 0..<2_000 {
            let line = Array("line \(n) \(rng.next())".utf8)
            let hash = line.withUnsafeBufferPointer { LineHash(of: $0) }
            let digits = Array(hash.hex.utf8)
            #expect(digits.withUnsafeBufferPointer { LineHash(hex: $0) } == hash)
            #expect(LineHead.words(hash).isSpelled(by: .words(digits.withUnsafeBufferPointer { LineHash(hex: $0)! })))
            var wrong = digits
            wrong[rng.below(64)] = Array("G:/`gA F".utf8)[rng.below(8)]
            #expect(wrong.withUnsafeBufferPointer { LineHash(hex: $0) } == nil)
        }
        for bad in ["", String(repeating: "a", count: 63), String(repeating: "a", count: 65), String(repeating: "A", count: 64)] {
            #expect(Array(bad.utf8).withUnsafeBufferPointer { LineHash(hex: $0) } == nil, "\(bad)")
        }
    }
}

/// A snapshot writes a choice as its position in `allCases`; the positions worked out without
/// searching the list are those positions.
@Suite struct CasePositionTests {
    @Test func everyPositionIsTheCasesIndexInAllCases() {
        for type in InteractionType.allCases { #expect(type.position == InteractionType.allCases.firstIndex(of: type)) }
        for direction in Direction.allCases { #expect(direction.position == Direction.allCases.firstIndex(of: direction)) }
        for sentiment in Sentiment.allCases { #expect(sentiment.position == Sentiment.allCases.firstIndex(of: sentiment)) }
    }
}
