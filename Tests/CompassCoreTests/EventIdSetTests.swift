@testable import CompassCore
import CompassTestSupport
import Testing

/// The set of applied event ids: UUID-form ids as 128-bit keys, every other id as text.
@Suite struct EventIdSetTests {
    @Test func uuidAndOtherIdsAreKeptApartAndExactly() {
        var ids = EventIdSet()
        let uuid = "71c18690-ee42-490b-b1bb-54d8d101b5b9"
        let first = ids.insert(uuid), again = ids.insert(uuid)
        #expect(first && !again)
        #expect(ids.contains(uuid))
        #expect(!ids.contains(uuid.uppercased()))       // ids are compared by their bytes
        let upper = ids.insert(uuid.uppercased())          // kept as text
        let other = ids.insert("e-1")
        let zero = ids.insert("00000000-0000-0000-0000-000000000000")
        let zeroAgain = ids.insert("00000000-0000-0000-0000-000000000000")
        #expect(upper && other && zero && !zeroAgain)
        #expect(!ids.contains("71c18690-ee42-490b-b1bb-54d8d101b5b8"))
        #expect(!ids.contains("71c18690-ee42-490b-b1bb-54d8d101b5bg"))
        #expect(!ids.contains("71c18690xee42-490b-b1bb-54d8d101b5b9"))
        #expect(ids.count == 4)
        #expect(ids.sorted() == ["00000000-0000-0000-0000-000000000000", uuid, uuid.uppercased(), "e-1"].sorted())
    }

    /// Replay keeps an interaction event's UUID id only as its key and spells the id back from
    /// it: every key spells the one lowercase id it was made from, and only ids in that form
    /// have a key (an uppercase or misplaced-dash id is kept as text).
    @Test func aUUIDKeySpellsBackTheExactIdItWasMadeFrom() {
        var rng = SplitMix64(seed: 21)
        let hex = Array("0123456789abcdef")
        var ids = ["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "71c18690-ee42-490b-b1bb-54d8d101b5b9"]
        for _ in 0..<500 {
            let digits = (0..<32).map { _ in hex[rng.below(16)] }
            var id = ""
            for (index, digit) in digits.enumerated() {
                if [8, 12, 16, 20].contains(index) { id.append("-") }
                id.append(digit)
            }
            ids.append(id)
        }
        for id in ids {
            let bytes = Array(id.utf8)
            let key = bytes.withUnsafeBufferPointer { EventIdKey(uuidBytes: $0) }
            #expect(key == EventIdKey(id) && key?.isUUID == true, "\(id)")
            #expect(key?.uuidText == id)
            var spelled = [UInt8](repeating: 0, count: 36)
            spelled.withUnsafeMutableBufferPointer { key?.spell(into: $0.baseAddress!) }
            #expect(spelled == bytes)
        }
        for notUUID in ["71C18690-ee42-490b-b1bb-54d8d101b5b9", "71c18690-ee42-490b-b1bb-54d8d101b5b", "71c18690-ee42-490bb-1bb-54d8d101b5b9",
                        "71c18690-ee42-490b-b1bb-54d8d101b5b9a", "e-1", ""] {
            #expect(Array(notUUID.utf8).withUnsafeBufferPointer { EventIdKey(uuidBytes: $0) } == nil, "\(notUUID)")
        }
    }

    /// The key read eight digits at a time equals the one read a digit at a time, for ids in
    /// UUID form and for every byte of one changed to every other value (a digit out of range,
    /// a letter's case, a dash moved or lost, a byte with its high bit set).
    @Test func theWordAtATimeKeyEqualsTheDigitByDigitOne() {
        var rng = SplitMix64(seed: 22)
        let hex = Array("0123456789abcdef".utf8)
        func same(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { buffer in
                let fast = EventIdSet.uuidKey(bytes: buffer), reference = Self.uuidKeyDigitByDigit(buffer)
                return fast?.0 == reference?.0 && fast?.1 == reference?.1
            }
        }
        var keyed = 0
        for round in 0..<40 {
            var id = (0..<36).map { [8, 13, 18, 23].contains($0) ? UInt8(ascii: "-") : hex[rng.below(16)] }
            if round == 0 { id = Array("00000000-0000-0000-0000-000000000000".utf8) }
            if round == 1 { id = Array("ffffffff-ffff-ffff-ffff-ffffffffffff".utf8) }
            #expect(same(id))
            if id.withUnsafeBufferPointer({ EventIdSet.uuidKey(bytes: $0) }) != nil { keyed += 1 }
            for position in 0..<36 {
                for value in 0...255 {
                    var changed = id
                    changed[position] = UInt8(value)
                    #expect(same(changed), "\(String(decoding: changed, as: UTF8.self))")
                }
            }
        }
        #expect(keyed == 40)
    }

    /// The key a digit at a time (how `uuidKey(bytes:)` read it before): the reference.
    static func uuidKeyDigitByDigit(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        var bad: UInt8 = 0
        var digits = 0
        for index in 0..<36 {
            let byte = bytes[index]
            if index == 8 || index == 13 || index == 18 || index == 23 {
                bad |= byte ^ 0x2D
                continue
            }
            let decimal = byte &- 0x30, letter = byte &- 0x61
            let nibble = decimal < 10 ? decimal : letter < 6 ? letter &+ 10 : 0x10
            bad |= nibble & 0x10
            if digits < 16 { high = high << 4 | UInt64(nibble & 0x0F) } else { low = low << 4 | UInt64(nibble & 0x0F) }
            digits += 1
        }
        return bad == 0 ? (high, low) : nil
    }

    @Test func agreesWithASetOfStringsThroughGrowth() {
        var rng = SplitMix64(seed: 0x1D5)
        var ids = EventIdSet()
        var reference: Set<String> = []
        func uuid() -> String {
            let hex = (0..<32).map { _ in String(rng.below(16), radix: 16) }.joined()
            let c = Array(hex)
            return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
        }
        var made: [String] = []
        for step in 0..<20_000 {
            let id: String
            switch rng.below(10) {
            case 0 where !made.isEmpty: id = made[rng.below(made.count)]   // a repeat
            case 1: id = "e-\(step)"
            default: id = uuid()
            }
            made.append(id)
            let inserted = ids.insert(id)
            #expect(inserted == reference.insert(id).inserted)
        }
        #expect(ids.count == reference.count)
        #expect(ids.sorted() == reference.sorted())
        #expect(ids == EventIdSet(reference.shuffled()))
        for id in made.prefix(500) { #expect(ids.contains(id)) }
    }

    /// A table of several megabytes (its memory advised for huge pages when the system has
    /// them) holds every key it was given and no other: reserved ahead, then grown past it.
    @Test func aTableOfMegabytesKeepsEveryKeyExactly() {
        var ids = EventIdSet()
        ids.reserveCapacity(100_000)  // 262,144 slots: 4 MiB, two huge pages' worth
        func id(_ n: Int) -> String {
            let hex = String(UInt64(n) &* 0x9E37_79B9_7F4A_7C15, radix: 16)
            let digits = Array(String(repeating: "0", count: 16 - hex.count) + hex)
            return String(digits[0..<8]) + "-" + String(digits[8..<12]) + "-4000-8000-" + String(digits[12..<16]) + "00000000"
        }
        let refused = (0..<150_000).filter { !ids.insert(id($0)) }
        #expect(refused.isEmpty)
        #expect(ids.count == 150_000)
        #expect((0..<150_000).allSatisfy { ids.contains(id($0)) })
        #expect(!(150_000..<160_000).contains { ids.contains(id($0)) })
        let insertedAgain = ids.insert(id(7))
        #expect(!insertedAgain)
    }

    /// A snapshot's ids, left on disk: a lookup reads one checked chunk, the answers are the
    /// in-memory set's, and a damaged chunk is noticed instead of answered from.
    @Test func storedIdsAreLookedUpAChunkAtATimeAndADamagedChunkIsNotTrusted() throws {
        var rng = SplitMix64(seed: 0x5EED)
        func uuid() -> String {
            let hex = (0..<32).map { _ in String(rng.below(16), radix: 16) }.joined()
            let c = Array(hex)
            return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
        }
        let inside = (0..<10_000).map { _ in uuid() } + ["e-1", "00000000-0000-0000-0000-000000000000"]
        let outside = (0..<2_000).map { _ in uuid() } + ["e-2"]
        var state = CompassState()
        for id in inside { state.eventIds.insert(id) }
        let snapshot = ReplaySnapshot(state: state, problems: ProblemSummary(), linesRead: 0, streams: StreamTable(), lastLineHash: SHA256.emptyHex,
                                      lastLineLength: 0, sealedLines: 0, consumedBytes: 0)
        let bytes = SnapshotCodec.encode(snapshot)
        let counter = ReadCounter()
        let read: (Range<Int>) -> [UInt8]? = { range in
            counter.add(range.count)
            return range.upperBound <= bytes.count ? Array(bytes[range]) : nil
        }
        let index = try #require(SnapshotIndex.open(size: bytes.count, read: read))
        let lazy = try #require(index.lazyEventIds(read: read))
        #expect(lazy.count == inside.count)
        let opened = counter.total
        #expect(lazy.contains(inside[1234]))
        #expect(counter.total - opened <= StoredKeys.chunkPairs * 16 + 16, "one lookup read \(counter.total - opened) bytes")
        for id in inside { #expect(lazy.contains(id)) }
        for id in outside { #expect(!lazy.contains(id)) }
        #expect(!lazy.storedFailed)
        #expect(lazy.materialized() == state.eventIds)
        #expect(index.eventIds(read: read) == state.eventIds)

        // One byte of one chunk changed: lookups there fail loudly, the whole set is refused.
        var damaged = bytes
        damaged[bytes.count - 100] ^= 0x01
        let readDamaged: (Range<Int>) -> [UInt8]? = { Array(damaged[$0]) }
        let broken = try #require(SnapshotIndex.open(size: damaged.count, read: readDamaged)?.lazyEventIds(read: readDamaged))
        _ = inside.map(broken.contains)
        #expect(broken.storedFailed)
        #expect(broken.materialized() == nil)
    }
}

/// Counts the bytes a reader was asked for.
final class ReadCounter: @unchecked Sendable {
    private(set) var total = 0
    func add(_ count: Int) { total += count }
}

/// The keys a snapshot stores are sorted by distributing them over their top bits first: the
/// order is the comparison sort's for spread keys, keys crowding one bucket, and repeats of a
/// high half.
@Suite struct EventIdKeySortTests {
    @Test func theBucketSortOrdersAsTheComparisonSortDoes() {
        var rng = SplitMix64(seed: 31)
        func word() -> UInt64 { rng.next() }
        let spread = (0..<50_000).map { _ in (word(), word()) }
        let crowded = (0..<20_000).map { _ in (0x1234 << 48 | word() >> 40, word()) }  // one bucket
        let sameHigh = (0..<10_000).map { _ in (UInt64(7), word()) }
        for pairs in [spread, crowded, sameHigh, spread + crowded + sameHigh, Array(spread.prefix(100)), Array(crowded.prefix(40)), Array(spread.prefix(20)), []] {
            let words = pairs.flatMap { [$0.0, $0.1] }, expected = pairs.sorted { $0 < $1 }.flatMap { [$0.0, $0.1] }
            #expect(EventIdSet.sortedPairs(words) == expected)
        }
    }
}
