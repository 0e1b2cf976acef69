import Foundation
import Testing
import CompassCore
import CompassTestSupport
@testable import CompassStore

/// Reads that queue on a store's lock together share one poll of the log (issue 57 §3: 15
/// observations' first values on PostgreSQL): a read is answered by a poll that began after
/// it was asked for, and by no older one. Attacked by another process's appends (another
/// store on the same log) with readers started the moment each append returns: every reader
/// sees it, whichever reader polled.
@Suite struct SharedPollTests {
    final class Misses: @unchecked Sendable {
        let lock = NSLock()
        var list: [String] = []
        func add(_ miss: String) { lock.withLock { list.append(miss) } }
    }

    @Test func aReadAskedForAfterAnAppendSeesItWhoeverPolled() throws {
        let folder = NSTemporaryDirectory() + "shared-poll-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/events.jsonl"
        let writer = try CompassStore(path: log, configuration: .init(snapshots: nil))
        try writer.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "f")), as: "u-pat")
        let reader = try CompassStore(path: log, configuration: .init(snapshots: nil))
        _ = try reader.schools(as: "u-pat")
        let misses = Misses()
        for round in 0..<200 {
            try writer.append(.addSchool(AddSchool(name: "School \(round)")), as: "u-pat")
            // Readers asked for now, queued on the reader's lock together.
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                let names = (try? reader.schools(as: "u-pat").map(\.name)) ?? []
                if !names.contains("School \(round)") { misses.add("round \(round): \(names.count) schools") }
            }
        }
        #expect(misses.list.isEmpty, "\(misses.list.prefix(5))")
    }
}
