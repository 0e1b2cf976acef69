import CompassCore
import CompassStore
import Foundation
import Testing

/// An app reads its own write by passing the version its append's receipt gave
/// (`views(as:atLeast:)`; on a standby it waits for the standby or reads the primary:
/// `StandbyReadTests`).
@Suite struct ReadYourWritesAppTests {
    /// On a file store (its own primary) the version an append gave is there at once; a
    /// version no append gave is a stale version once the wait is over, and a viewer who is not
    /// a member is refused as by any read.
    @Test func aReceiptsVersionIsReadAtOnceAndAVersionNoAppendGaveIsStale() throws {
        let directory = NSTemporaryDirectory() + "ryw-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = CompassStore.Configuration()
        configuration.versionWait = .milliseconds(200)
        let store = try CompassStore(path: directory + "/events.jsonl", createIfMissing: true, configuration: configuration)
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "f")), as: "u-pat")
        let receipt = try store.append(.addSchool(AddSchool(name: "UCLA", schoolId: "s-ucla")), as: "u-pat")
        let views = try store.views(as: "u-pat", atLeast: receipt.version)
        #expect(views.version == 2 && views.schools().map(\.schoolId) == ["s-ucla"])
        #expect(throws: StoreError.staleVersion(family: "f", expected: 3, current: 2)) { try store.views(as: "u-pat", atLeast: 3) }
        #expect(throws: StoreError.self) { try store.views(as: "u-nobody", atLeast: 1) }
    }
}
