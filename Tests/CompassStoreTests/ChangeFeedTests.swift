import Foundation
import Testing
import CompassCore
@testable import CompassStore
import CompassTestSupport

/// The change feed has no gap at its start (issue 23, item 7): every event appended after
/// `changes()` returns is delivered, even by another process at once; `changes(after:)`
/// resumes from a kept position with no gap and no duplicate. Public API only.
@Suite(.serialized) struct ChangeFeedTests {
    /// The first event of `stream` with id `id`, or nil when none comes within `seconds`.
    static func event(_ id: String, in stream: AsyncStream<Event>, within seconds: Double) async -> Event? {
        await withTaskGroup(of: Event?.self) { group in
            group.addTask {
                for await event in stream where event.id == id { return event }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// A family with a few thousand lines, so a feed's first read of them takes a while.
    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "compass-feed-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let log = try Binary.tool(Binary.path, ["generate", "--families", "3", "--events", "5000", "--seed", "7"])
        FileManager.default.createFile(atPath: folder + "/events.jsonl", contents: Data(log.utf8))
        return folder
    }

    @Test func anEventAppendedByAnotherProcessRightAfterSubscribingIsDelivered() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/events.jsonl"
        let store = try CompassStore(path: log, createIfMissing: false)
        let parent = try #require(try store.state().members.values.filter { $0.role == .parent }.map(\.userId).min())
        for round in 1...10 {
            let stream = store.changes(every: .milliseconds(20))
            let appended = try Binary.run(["add-school", "--as", parent, "--name", "Feed \(round)", "--event-id", "feed-\(round)", "--log", log])
            #expect(appended.status == 0, "\(appended.stderr)")
            let delivered = await Self.event("feed-\(round)", in: stream, within: 30)
            #expect(delivered != nil, "round \(round): the append right after subscribing was never delivered")
        }
    }

    @Test func changesAfterAKeptSeqResumesWithNoGapAndNoDuplicate() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/events.jsonl"
        let store = try CompassStore(path: log, createIfMissing: false)
        let parent = try #require(try store.state().members.values.filter { $0.role == .parent }.map(\.userId).min())
        let kept = try store.append(.addSchool(AddSchool(name: "Seen")), as: parent, idempotencyKey: "seen").seq
        try store.append(.addSchool(AddSchool(name: "Missed while away")), as: parent, idempotencyKey: "missed")
        let family = try #require(try store.state().members[parent]?.family)
        let stream = store.changes(inFamily: family, after: kept, every: .milliseconds(20))
        try store.append(.addSchool(AddSchool(name: "Later")), as: parent, idempotencyKey: "later")
        var ids: [String] = []
        for await event in stream {
            ids.append(event.id)
            if event.id == "later" { break }
        }
        #expect(ids == ["missed", "later"])
    }

    /// A feed that started from the snapshot, on a log an erasure replaces before any new line:
    /// only what the new log adds is delivered (the erasure's record, then a later append).
    @Test func aFeedFromTheSnapshotDeliversOnlyWhatAReplacedLogAdds() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/events.jsonl"
        let writer = try CompassStore(path: log, createIfMissing: false, configuration: .init(snapshots: SnapshotPolicy(minimumNewBytes: 0)))
        let state = try writer.state()
        #expect(FileManager.default.fileExists(atPath: log + ".snapshot"))
        let parent = try #require(state.members.values.filter { $0.role == .parent }.map(\.userId).min())
        let family = try #require(state.members[parent]?.family)
        let player = try #require(state.members.values.filter { $0.role == .player && $0.family == family }.map(\.userId).min())
        let store = try CompassStore(path: log, createIfMissing: false)
        let stream = store.changes(every: .milliseconds(20))
        let erased = try Binary.run(["erase", "--as", parent, "--member", player, "--event-id", "erasure-1", "--log", log])
        #expect(erased.status == 0, "\(erased.stderr)")
        try CompassStore(path: log, createIfMissing: false).append(.addSchool(AddSchool(name: "After")), as: parent, idempotencyKey: "after-erase")
        var ids: [String] = []
        for await event in stream {
            ids.append(event.id)
            if event.id == "after-erase" || ids.count > 5 { break }
        }
        #expect(ids == ["erasure-1", "after-erase"])
    }

    /// A feed reads again whenever its wait says it was woken, even when the thread came back
    /// from the wait late (as under load): a wake-up is told, not guessed from a wait shorter
    /// than the step. (Guessed, a wait that took longer than the step was taken for a quiet
    /// one, and the change waited for the feed's interval: the failure CI once showed.)
    @Test func aWakeUpThatReturnsLateStillMakesTheFeedRead() throws {
        let reads = ReadCount()
        let stop = FeedThread.start(LateWakingSource(), every: .seconds(600), name: "late waking feed", finish: {}) { _ in
            reads.add()
            return true
        }
        defer { stop.set() }
        // Each wait takes 250 ms (longer than the 200 ms step) and is woken: a read each time.
        let deadline = ContinuousClock.now + .seconds(30)
        while reads.value < 4, ContinuousClock.now < deadline { usleep(20_000) }
        #expect(reads.value >= 4)
    }

    /// A change source whose every wait is woken by a change, but returns only after 250 ms.
    struct LateWakingSource: ChangeSource {
        var state: CompassState { CompassState() }
        var isOpen: Bool { true }
        mutating func next() throws(StoreError) -> [Event] { [] }
        func wait(upTo timeout: Duration) -> Bool {
            usleep(250_000)
            return true
        }
    }

    /// Reads counted from the feed's thread.
    final class ReadCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }

    /// A feed is woken by the log changing (inotify on Linux), not by its interval: with an
    /// interval of ten minutes, appends by another process are each delivered (the test gives
    /// up after two minutes).
    @Test func aFeedIsWokenByTheLogChangingNotByItsInterval() async throws {
        #if os(Linux)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/events.jsonl"
        let store = try CompassStore(path: log, createIfMissing: false)
        let parent = try #require(try store.state().members.values.filter { $0.role == .parent }.map(\.userId).min())
        let stream = store.changes(every: .seconds(600))
        for round in 1...3 {
            try await Task.sleep(for: .milliseconds(300))  // the feed has read and waits
            let appended = try Binary.run(["add-school", "--as", parent, "--name", "Woken \(round)", "--event-id", "woken-\(round)", "--log", log])
            #expect(appended.status == 0, "\(appended.stderr)")
            let delivered = await Self.event("woken-\(round)", in: stream, within: 120)
            #expect(delivered != nil, "round \(round): the append did not wake the feed")
        }
        #endif
    }
}
