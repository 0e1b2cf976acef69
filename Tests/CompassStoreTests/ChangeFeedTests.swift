import Foundation
import Testing
import CompassCore
import CompassStore
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
        let stream = store.changes(after: kept, every: .milliseconds(20))
        try store.append(.addSchool(AddSchool(name: "Later")), as: parent, idempotencyKey: "later")
        var ids: [String] = []
        for await event in stream {
            ids.append(event.id)
            if event.id == "later" { break }
        }
        #expect(ids == ["missed", "later"])
    }
}
