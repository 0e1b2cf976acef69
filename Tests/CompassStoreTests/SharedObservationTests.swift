import Foundation
import Testing
import CompassCore
@testable import CompassStore

/// Issue 57 §3: every observation of a store shares one change feed (one thread, one read of
/// the log's changes, one `LISTEN` on PostgreSQL); it stops when the last one ends.
@Suite struct SharedObservationTests {
    final class Values: @unchecked Sendable {
        let lock = NSLock()
        var seen: [Int: [Int]] = [:]
        func add(_ index: Int, _ value: Int) { lock.withLock { seen[index, default: []].append(value) } }
        func last(_ index: Int) -> Int? { lock.withLock { seen[index]?.last } }
    }

    @Test func fifteenObservationsShareOneFeedAndItStopsWithTheLast() async throws {
        let folder = NSTemporaryDirectory() + "shared-observations-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CompassStore(path: folder + "/events.jsonl", configuration: .init(snapshots: nil, feedInterval: .milliseconds(50)))
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "f-a")), as: "u-pat")
        try store.append(.addMember(AddMember(userId: "u-kim", fullName: "Kim", role: .parent, newFamily: "f-b")), as: "u-kim")
        let values = Values()
        var tasks: [Task<Void, Never>] = []
        for index in 0..<15 {
            let viewer = index % 2 == 0 ? "u-pat" : "u-kim"
            let stream = store.observe(as: viewer) { try $0.schools(as: viewer).count }
            tasks.append(Task.detached {
                do { for try await observed in stream { values.add(index, observed.value) } } catch {}
            })
        }
        func waitUntil(_ condition: () -> Bool) async throws {
            for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(25)) }
        }
        try await waitUntil { (0..<15).allSatisfy { values.last($0) == 0 } }
        #expect((0..<15).allSatisfy { values.last($0) == 0 }, "every observation has its first value")
        #expect(store.observations.feedsMade == 1 && store.observations.subscriberCount == 15)
        // A change of one family reaches its observers only; the other family's see nothing new.
        try store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
        try await waitUntil { (0..<15).filter { $0 % 2 == 0 }.allSatisfy { values.last($0) == 1 } }
        for index in 0..<15 {
            #expect(values.last(index) == (index % 2 == 0 ? 1 : 0), "observation \(index)")
            #expect(values.lock.withLock { values.seen[index] } == (index % 2 == 0 ? [0, 1] : [0]), "observation \(index) saw each value once")
        }
        for task in tasks { task.cancel() }
        try await waitUntil { store.observations.subscriberCount == 0 }
        #expect(store.observations.subscriberCount == 0, "every observation ended with its task")
        // A new observation after the last ended starts a feed of its own.
        let again = store.observe(as: "u-kim") { try $0.schools(as: "u-kim").count }
        var iterator = again.makeAsyncIterator()
        #expect(try await iterator.next()?.value == 0)
        #expect(store.observations.feedsMade == 2)
    }
}
