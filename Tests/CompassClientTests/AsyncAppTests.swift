// A client of the public API only, as an app built on Swift concurrency uses it: no `@testable`.
import CompassCore
import CompassStore
import Foundation
import Testing

/// A family-service actor on `AsyncCompassStore`: reads and appends awaited, never blocking a
/// cooperative thread; a screen observing its value while another process appends, deletes
/// and erases.
@Suite(.serialized) struct AsyncAppTests {
    let folder = NSTemporaryDirectory() + "compass-async-" + UUID().uuidString.lowercased()
    var logPath: String { folder + "/events.jsonl" }

    /// The app's family service: one actor, one store.
    actor FamilyService {
        let store: AsyncCompassStore

        init(store: AsyncCompassStore) { self.store = store }

        func start() async throws(StoreError) {
            try await store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat Lopez", role: .parent, newFamily: "f-lopez")), as: "u-pat")
            try await store.append(.addMember(AddMember(userId: "u-maya", fullName: "Maya Lopez", role: .player)), as: "u-pat")
            try await store.append(batch: [.addSchool(AddSchool(name: "UCLA")), .addSchool(AddSchool(name: "Rice"))], as: "u-pat")
        }

        func log(_ subject: String) async throws(StoreError) -> Receipt {
            try await store.append(.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-ucla", subject: subject)),
                                   as: "u-maya")
        }
    }

    @Test func anActorAwaitsReadsAndAppendsAndErrorsStayTyped() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try await AsyncCompassStore.open(path: logPath)
        let service = FamilyService(store: store)
        try await service.start()
        let receipt = try await service.log("Camp invite")
        #expect(receipt.entityId == "i-1" && receipt.version == 5)
        #expect(try await store.interactions(as: "u-maya").items.map(\.subject) == ["Camp invite"])
        #expect(try await store.version(as: "u-pat") == 5)
        #expect(try await store.read { store throws(StoreError) in try store.schools(as: "u-pat") }.count == 2)
        #expect(try await store.activity(as: "u-pat").items.count > 0)
        // Typed errors through `await`, matchable by kind.
        await #expect(throws: StoreError.staleVersion(family: "f-lopez", expected: 3, current: 5)) {
            try await store.append(.addSchool(AddSchool(name: "Duke")), as: "u-pat", expectVersion: 3)
        }
        // Many awaited calls at once from many tasks: every append lands once, in order per family.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<20 { group.addTask { _ = try await service.log("Note \(n)") } }
            try await group.waitForAll()
        }
        #expect(try await store.interactions(as: "u-maya").items.count == 21)
        #expect(try store.store.verify().ok)
    }

    @Test func aCallCancelledBeforeItStartsDoesNothing() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try await AsyncCompassStore.open(path: logPath)
        try await FamilyService(store: store).start()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.append(.addSchool(AddSchool(name: "Duke")), as: "u-pat")
        }
        await #expect(throws: StoreError.cancelled) { try await task.value }
        #expect(try await store.version(as: "u-pat") == 4)
    }

    /// `observe` delivers the value at once, then after each change that alters it (another
    /// process's append, a deletion, an erasure), each with its family version; a change to
    /// another family delivers nothing; a viewer who is not a member fails at once.
    @Test func aScreenObservesItsValueThroughAppendsDeletionsAndErasures() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try await AsyncCompassStore.open(path: logPath)
        try await FamilyService(store: store).start()
        try await store.append(.addMember(AddMember(userId: "u-kim", fullName: "Kim Park", role: .parent, newFamily: "f-park")), as: "u-kim")
        let observation = store.observe(as: "u-pat") { store throws(StoreError) in try store.interactions(as: "u-pat").items.map(\.subject) }
        var iterator = observation.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.value == [String]() && first?.version == 4)

        // Another process (another store on the same file) appends: a new value.
        let other = try CompassStore(path: logPath)
        let logged = try other.append(.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-ucla", subject: "Hello")),
                                      as: "u-maya")
        try other.append(.addSchool(AddSchool(name: "Duke")), as: "u-kim")  // another family: no new value
        let second = try await iterator.next()
        #expect(second?.value == ["Hello"] && second?.version == 5)
        try other.append(.deleteInteraction(DeleteInteraction(interactionId: logged.entityId)), as: "u-maya")
        let third = try await iterator.next()
        #expect(third?.value == [String]() && third?.version == 6)
        try other.append(.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-ucla", subject: "Again")), as: "u-maya")
        #expect(try await iterator.next()?.value == ["Again"])
        _ = try other.erase(member: "u-maya", as: "u-pat")
        let erased = try await iterator.next()
        #expect(erased?.value == [String]() && (erased?.version ?? 0) > 7)

        let stranger = store.observe(as: "u-nobody") { store throws(StoreError) in try store.interactions(as: "u-nobody").items.count }
        await #expect(throws: StoreError.self) { for try await _ in stranger {} }
    }

    /// A long first load reports how far it has gone, off the cooperative pool; the first
    /// view after it is the same as without it.
    @Test func aLongFirstLoadReportsItsProgress() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try CompassStore(path: logPath)
        try writer.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "f-a")), as: "u-pat")
        try writer.append(batch: (0..<3000).map { .addSchool(AddSchool(name: "School \($0)")) }, as: "u-pat")
        final class Seen: @unchecked Sendable {
            let lock = NSLock()
            var reports: [(Int, Int)] = []
        }
        let seen = Seen()
        let store = try await AsyncCompassStore.open(path: logPath, preparing: "u-pat") { read, total in
            seen.lock.withLock { seen.reports.append((read, total)) }
        }
        let reports = seen.lock.withLock { seen.reports }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: logPath)[.size] as? Int)
        #expect(!reports.isEmpty && reports.allSatisfy { $0.1 == size } && reports.last?.0 == size, "\(reports.suffix(3)) of \(size)")
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.0 <= $1.0 })
        #expect(try await store.read { store throws(StoreError) in try store.schools(as: "u-pat") }.count == 3000)
    }
}
