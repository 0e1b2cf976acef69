import Testing
@testable import CompassCore

/// The interaction index finds records by their id's hash and confirms each match against
/// the record: equal hashes never merge two records, and growing keeps every position.
@Suite struct PositionIndexTests {
    @Test func equalHashesAreToldApartByTheRecordsOwnId() {
        var index = PositionIndex()
        let ids = (0..<1_000).map { "i-\($0)" }
        for (position, _) in ids.enumerated() {
            index.insert(hash: position % 7, position: position)  // seven hashes for a thousand ids
        }
        for (position, id) in ids.enumerated() {
            #expect(index.position(hash: position % 7, where: { ids[$0] == id }) == position)
            #expect(index.position(hash: (position + 1) % 7, where: { ids[$0] == id }) == nil)
        }
        #expect(index.position(hash: 3, where: { _ in false }) == nil)
        #expect(PositionIndex().position(hash: 0, where: { _ in true }) == nil)
    }

    @Test func aTableAgreesWithADictionaryWhateverItHolds() {
        var table = InteractionTable()
        var reference: [String: Int] = [:]
        var rng = SplitMix64(seed: 31)
        for n in 0..<3_000 {
            let id = "i-\(rng.below(5_000))"
            guard reference[id] == nil else {
                #expect(table.contains(id))
                continue
            }
            let logged = InteractionLogged(interactionId: id, schoolId: "s", type: .email, direction: .inbound)
            table.append(InteractionRecord(eventId: "e-\(n)", seq: Int64(n + 1), at: Timestamp(rfc3339: "2026-01-01T00:00:00Z")!,
                                           loggedBy: "u", logged: logged))
            reference[id] = table.count - 1
        }
        for k in 0..<5_000 {
            let id = "i-\(k)"
            #expect(table[id]?.logged.interactionId == reference[id].map { _ in id })
            #expect(table.contains(id) == (reference[id] != nil))
        }
        #expect(table.ids == reference.sorted { $0.value < $1.value }.map(\.key))
    }
}
