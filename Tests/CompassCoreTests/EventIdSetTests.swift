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
}
