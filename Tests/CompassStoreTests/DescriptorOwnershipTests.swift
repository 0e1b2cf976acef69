import Foundation
import Testing
import CompassCore
@testable import CompassStore
import CompassTestSupport

/// A store that goes away closes what it opened: an app that opens a store per screen, or
/// ends feeds, never runs out of descriptors. Counted by the fault-injecting file system
/// (with no fault): every descriptor it opened must be closed once the owners are gone.
@Suite struct DescriptorOwnershipTests {
    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "compass-fds-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let log = try Binary.tool(Binary.path, ["generate", "--families", "2", "--events", "200", "--seed", "3"])
        FileManager.default.createFile(atPath: folder + "/events.jsonl", contents: Data(log.utf8))
        return folder
    }

    @Test func fiftyStoresThatEachReadTheStateLeaveNoDescriptorOpen() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fs = FaultyFileSystem(root: folder, failAt: .max, fault: .error)
        var members = 0
        for _ in 0..<50 {
            let store = try CompassStore(path: folder + "/events.jsonl", createIfMissing: false, configuration: .over(fs))
            members = try store.state().members.count
        }
        #expect(members > 0)
        #expect(fs.openDescriptors.isEmpty, "\(fs.openDescriptors.count) descriptors left open by 50 stores")
    }

    @Test func endedFeedsLeaveNoDescriptorOpen() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fs = FaultyFileSystem(root: folder, failAt: .max, fault: .error)
        do {
            let store = try CompassStore(path: folder + "/events.jsonl", createIfMissing: false, configuration: .over(fs))
            let parent = try #require(try store.state().members.values.filter { $0.role == .parent }.map(\.userId).min())
            for round in 1...20 {
                let stream = store.changes(every: .milliseconds(10))
                try store.append(.addSchool(AddSchool(name: "Feed \(round)")), as: parent, idempotencyKey: "feed-\(round)")
                for await event in stream where event.id == "feed-\(round)" { break }
            }
        }
        // A feed's thread lets its tail go once it sees the stream ended.
        var open = fs.openDescriptors
        for _ in 0..<200 where !open.isEmpty {
            try await Task.sleep(for: .milliseconds(25))
            open = fs.openDescriptors
        }
        #expect(open.isEmpty, "\(open.count) descriptors left open by 20 ended feeds")
    }
}
