import Foundation
import Testing
import CompassCore
@testable import CompassStore
import CompassTestSupport

/// One rule decides what an erasure's old head proves (SPEC §5): what `erase` reports is what
/// `verify --expect-head` then finds, however erasures and appends interleave. Random families
/// of athletes each log, are erased one by one or with the family, while the others keep
/// logging; after each erasure, its old head verifies exactly when the report says so, and
/// every head it says is lost (kept since an earlier erasure it changed lines before) fails.
@Suite struct ErasureProvabilityTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func eraseReportsWhatVerifyThenProves(seed: UInt64) throws {
        let folder = NSTemporaryDirectory() + "compass-prove-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var rng = SplitMix64(seed: seed)
        let store = try CompassStore(path: folder + "/events.jsonl")
        try store.append(.addMember(AddMember(userId: "u-p", fullName: "Parent", role: .parent, newFamily: "fam")), as: "u-p")
        try store.append(.addSchool(AddSchool(name: "UCLA", schoolId: "s-ucla")), as: "u-p")
        var athletes = (1...5).map { "u-a\($0)" }
        for athlete in athletes { try store.append(.addMember(AddMember(userId: athlete, fullName: athlete, role: .player)), as: "u-p") }
        // Every head the family had, with the seq it was kept at.
        var kept: [(head: String, seq: Int64)] = []
        func keep() throws { if let family = try store.verify().families.first { kept.append((family.head, family.seq)) } }
        var erasures = 0
        var lostSome = false
        while !athletes.isEmpty {
            for _ in 0..<(1 + rng.below(3)) {
                let athlete = athletes[rng.below(athletes.count)]
                try store.append(.logInteraction(LogInteraction(type: .email, direction: .outbound, schoolId: "s-ucla",
                                                                subject: "note \(rng.below(1000))")), as: athlete)
                try keep()
            }
            let before = try kept.map { try store.verify(expectHead: $0.head).ok }
            let report: ErasureReport
            if athletes.count == 1 || rng.below(6) == 0 {
                report = try store.erase(familyOf: "u-p")
                athletes = []
            } else {
                let athlete = athletes.remove(at: rng.below(athletes.count))
                report = try store.erase(member: athlete, as: "u-p")
            }
            erasures += 1
            let verified = try store.verify(expectHead: report.oldHead)
            #expect(verified.ok == report.oldHeadProvable,
                    "seed \(seed), erasure \(erasures): erase said provable \(report.oldHeadProvable), verify said \(verified.ok)")
            // Every head it says is lost fails now; every other head that verified still does.
            for (index, head) in kept.enumerated() {
                let ok = try store.verify(expectHead: head.head).ok
                if report.headsLost.contains(head.seq) {
                    #expect(!ok, "seed \(seed), erasure \(erasures): the head kept at seq \(head.seq), said lost, verifies")
                } else if before[index] {
                    #expect(ok, "seed \(seed), erasure \(erasures): the head kept at seq \(head.seq) no longer verifies, and erase did not say so")
                }
            }
            lostSome = lostSome || !report.headsLost.isEmpty
            // Each erasure's record lists exactly the seqs it replaced, each taken once.
            let steps = try store.verify().erasures
            #expect(steps.allSatisfy { $0.seqsListed && Int64($0.erasedSeqs.count) == $0.erased })
            #expect(Set(steps.flatMap(\.erasedSeqs)).count == steps.reduce(0) { $0 + $1.erasedSeqs.count })
            kept.append((report.newHead, report.seq))
        }
        #expect(erasures >= 1)
        print("seed \(seed): \(erasures) erasures, heads lost: \(lostSome)")
    }
}
