import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// An app's first read starts from the snapshot and reads only the viewer's family of it
/// (issue 24, item 3): every view equals the one a full replay of the log gives, for viewers
/// of every family, after lines appended past the snapshot, and with a damaged snapshot.
@Suite(.serialized) struct FirstReadTests {
    static let now = Timestamp(rfc3339: "2026-06-01T00:00:00Z")!

    /// A fresh store on `log` that keeps snapshots (written at once, whatever their size).
    static func store(_ log: String) throws -> CompassStore {
        try CompassStore(path: log, createIfMissing: false, configuration: .init(clock: { now }, snapshots: SnapshotPolicy(minimumNewBytes: 0)))
    }

    /// Every view of every member, as JSON, from a state built without any snapshot.
    static func views(_ state: CompassState) -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for user in state.members.keys {
            guard let viewer = try? Viewer(user, in: state), let list = try? InteractionViews.list(state, viewer: viewer, query: InteractionQuery(), now: now)
            else { continue }
            out[user] = InteractionJSON.list(list) + ActivityJSON.page(ActivityViews.page(state, viewer: viewer, query: ActivityQuery(), now: now,
                                                                                         zone: TimeZone(secondsFromGMT: 0)!))
        }
        return out
    }

    static func storeViews(_ store: CompassStore, users: [String]) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for user in users {
            out[user] = InteractionJSON.list(try store.interactions(as: user, now: now))
                + ActivityJSON.page(try store.activity(as: user, now: now))
        }
        return out
    }

    @Test func viewsFromAFirstReadOfTheSnapshotEqualAFullReplay() throws {
        let folder = NSTemporaryDirectory() + "compass-first-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/events.jsonl"
        let generated = try Binary.tool(Binary.path, ["generate", "--families", "6", "--events", "3000", "--seed", "11"])
        FileManager.default.createFile(atPath: log, contents: Data(generated.utf8))
        // A first store writes the snapshot.
        _ = try Self.store(log).state()
        #expect(FileManager.default.fileExists(atPath: log + ".snapshot"))
        // Lines past the snapshot, of one family.
        let writer = try Self.store(log)
        let parent = try #require(try writer.state().members.values.filter { $0.role == .parent }.map(\.userId).min())
        for n in 0..<5 { try writer.append(.addSchool(AddSchool(name: "Past the snapshot \(n)")), as: parent) }

        var full = Replayer()
        full.consume(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: log))))
        let expected = Self.views(full.state)
        let users = expected.keys.sorted()
        // Each viewer's first read on a fresh store, then every other viewer on the same store.
        for first in users.prefix(4) {
            let store = try Self.store(log)
            var order = users.filter { $0 != first }
            order.insert(first, at: 0)
            #expect(try Self.storeViews(store, users: order) == expected, "first viewer \(first)")
            #expect(try store.state() == full.state, "the whole state after \(first)'s first read")
        }
        // A damaged family section: the store reads the log itself.
        var snapshot = Array(try Data(contentsOf: URL(fileURLWithPath: log + ".snapshot")))
        snapshot[snapshot.count / 2] ^= 0xFF
        FileManager.default.createFile(atPath: log + ".snapshot", contents: Data(snapshot))
        let store = try Self.store(log)
        #expect(try Self.storeViews(store, users: users) == expected)
        #expect(try store.state() == full.state)
    }
}
