import Foundation
import Testing
import CompassTestSupport
import CompassCore
import CompassStore

/// SPEC §7: devices that write offline and sync with the family's store, in any order,
/// converge: after a final round every device's stream is the remote's, byte for byte, and
/// every view is the same everywhere. The remote is a file, and PostgreSQL when a server is
/// named (as in CI).
@Suite struct SyncConvergenceTests {
    /// One run: `devices` devices (each held by a member), `steps` random offline commands and
    /// syncs, an erasure on the remote halfway, then two rounds of syncs.
    static func converge(remote remotePath: String, seed: UInt64, devices count: Int, steps: Int) throws {
        var rng = SplitMix64(seed: seed)
        let folder = NSTemporaryDirectory() + "sync-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = Clock()
        let configuration = CompassStore.Configuration(clock: { clock.tick() }, makeId: { UUID().uuidString.lowercased() }, snapshots: nil)
        let remote = try CompassStore(path: remotePath, configuration: configuration)
        let family = "fam-sync-\(seed)"
        try remote.append(.addMember(AddMember(userId: "u-pat-\(seed)", fullName: "Pat", role: .parent, newFamily: family)), as: "u-pat-\(seed)")
        let members = ["u-pat-\(seed)"] + (1..<4).map { "u-kid\($0)-\(seed)" }
        for kid in members.dropFirst() {
            try remote.append(.addMember(AddMember(userId: kid, fullName: "Kid \(kid)", role: .player)), as: members[0])
        }
        // A player only the remote knows, erased halfway.
        let ghost = "u-ghost-\(seed)"
        try remote.append(.addMember(AddMember(userId: ghost, fullName: "Ghost Person", role: .player)), as: members[0])
        try remote.append(.addSchool(AddSchool(name: "UCLA Bruins")), as: members[0])
        try remote.append(.logInteraction(LogInteraction(type: "email", direction: "inbound", schoolId: "s-ucla-bruins", subject: "Ghost mail")), as: ghost)
        let devices = try (0..<count).map { index in
            let store = try CompassStore(path: folder + "/device-\(index).jsonl", configuration: configuration)
            let report = try store.sync(with: remote, as: members[index])
            #expect(report.cloned && report.refused.isEmpty)
            return (store: store, user: members[index])
        }
        var pushed = 0, pulled = 0, refused = 0
        let names = ["Rice Owls", "Duke", "UCLA Bruins", "Stanford"]
        let statuses = ["interested", "contacted", "offer_received", "committed"]
        for step in 0..<steps {
            if step == steps / 2 { _ = try remote.erase(member: ghost, as: members[0]) }
            let device = devices[rng.below(count)]
            let state = try device.store.state()
            let schools = state.families[family]?.schools.values.map(\.id) ?? []
            let isPlayer = device.user != members[0]
            switch rng.below(8) {
            case 0:
                _ = try? device.store.append(.addSchool(AddSchool(name: names[rng.below(names.count)])), as: device.user)
            case 1 where !schools.isEmpty:
                _ = try? device.store.append(.changeStatus(ChangeStatus(schoolId: schools[rng.below(schools.count)],
                                                                       newStatus: statuses[rng.below(statuses.count)])), as: device.user)
            case 2 where isPlayer && !schools.isEmpty:
                _ = try? device.store.append(.logInteraction(LogInteraction(type: "email", direction: rng.below(2) == 0 ? "inbound" : "outbound",
                                                                            schoolId: schools[rng.below(schools.count)], subject: "step \(step)")),
                                             as: device.user)
            case 3 where isPlayer:
                let mine = try device.store.interactions(as: device.user).items.map(\.id)
                if !mine.isEmpty { _ = try? device.store.append(.deleteInteraction(DeleteInteraction(interactionId: mine[rng.below(mine.count)])), as: device.user) }
            case 4:
                let bytes = Array("document \(step) of \(device.user)".utf8)
                _ = try? device.store.append(.uploadDocument(UploadDocument(title: "Doc \(step)", docType: "transcript")), as: device.user,
                                             files: [.bytes(name: "doc-\(step).pdf", bytes)])
            case 5 where !schools.isEmpty:
                _ = try? device.store.append(.addCoach(AddCoach(schoolId: schools[rng.below(schools.count)], firstName: "Sam", lastName: "Lee", role: "head")),
                                             as: device.user)
            default:
                let report = try device.store.sync(with: remote, as: device.user)
                for refusal in report.refused { #expect(!refusal.message.isEmpty) }
                pushed += report.pushed
                pulled += report.pulled
                refused += report.refused.count
            }
        }
        // Two rounds: the first pushes what is left, the second brings everyone the last pushes.
        for round in 0..<2 {
            for device in devices {
                let report = try device.store.sync(with: remote, as: device.user)
                pushed += report.pushed
                pulled += report.pulled
                if round == 1 { #expect(report.pushed == 0 && report.refused.isEmpty, "the last round has nothing left to push") }
            }
        }
        #expect(pushed > 0 && pulled > 0, "seed \(seed): pushed \(pushed), pulled \(pulled)")
        print("sync seed \(seed), \(count) devices: pushed \(pushed), pulled \(pulled), refused \(refused)")
        let canonical = try remote.familyStream(of: members[0]).lines
        for (index, device) in devices.enumerated() {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/device-\(index).jsonl"))
            #expect(Array(bytes) == canonical, "device \(index) (seed \(seed)) differs from the remote")
            #expect(try device.store.verify().ok)
        }
        for viewer in members {
            let expected = try remote.views(as: viewer)
            for device in devices {
                let views = try device.store.views(as: viewer)
                #expect(try views.interactions() == expected.interactions(), "interactions of \(viewer)")
                #expect(views.schools() == expected.schools() && views.coaches() == expected.coaches(), "schools of \(viewer)")
                #expect(views.documents() == expected.documents() && views.members() == expected.members())
                #expect(try views.activity(ActivityQuery(pageSize: 1_000)) == expected.activity(ActivityQuery(pageSize: 1_000)))
            }
        }
        #expect(!String(decoding: canonical, as: UTF8.self).contains("Ghost"), "the erasure reached every device")
    }

    @Test(arguments: [(UInt64(1), 2), (2, 3), (3, 4), (4, 2), (5, 3)])
    func devicesWritingOfflineConvergeOnAFileRemote(seed: UInt64, devices: Int) throws {
        let folder = NSTemporaryDirectory() + "sync-remote-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.converge(remote: folder + "/family.jsonl", seed: seed, devices: devices, steps: 60)
    }
}

/// The PostgreSQL remote, in the serialized database suite (no server restart meanwhile).
extension PostgresStoreTests {
    @Test(arguments: [(UInt64(11), 3), (12, 2)])
    func devicesWritingOfflineConvergeOnAPostgreSQLRemote(seed: UInt64, devices: Int) throws {
        guard let address = try Self.database() else { return }
        try SyncConvergenceTests.converge(remote: address, seed: seed, devices: devices, steps: 60)
    }
}

/// A clock that moves a second on each reading (a fixed start: the same run, the same times).
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Int64 = 0
    func tick() -> Timestamp {
        lock.withLock {
            seconds += 1
            return Timestamp(millisecondsSinceEpoch: 1_767_225_600_000 + seconds * 1000)
        }
    }
}
