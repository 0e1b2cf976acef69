import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// Read-your-writes (issue 56 item 3): a read that asks for the version an append's receipt
/// gave sees that append, and a store that reads a standby finds its primary through the same
/// hosts. (On a real standby: `StandbyReadTests`, on the CI's formation.)
@Suite struct ReadYourWritesTests {
    /// A standby's primary is the same hosts asking for a read-write server; an address that
    /// already asks for one, or names one host without saying, names no other.
    @Test func aStandbysPrimaryIsTheSameHostsAskingForReadWrite() {
        let hosts = "postgresql://app@h1:6101,h2:6102/compass"
        #expect(PrimaryAddress.of(hosts + "?target_session_attrs=prefer-standby&sslmode=disable")
                == hosts + "?target_session_attrs=read-write&sslmode=disable")
        #expect(PrimaryAddress.of(hosts + "?sslmode=disable&target_session_attrs=standby") == hosts + "?sslmode=disable&target_session_attrs=read-write")
        #expect(PrimaryAddress.of(hosts + "?target_session_attrs=read-only") == hosts + "?target_session_attrs=read-write")
        #expect(PrimaryAddress.of(hosts + "?target_session_attrs=any") == hosts + "?target_session_attrs=read-write")
        #expect(PrimaryAddress.of(hosts) == hosts + "?target_session_attrs=read-write")
        #expect(PrimaryAddress.of(hosts + "?sslmode=disable") == hosts + "?sslmode=disable&target_session_attrs=read-write")
        #expect(PrimaryAddress.of("host=h1,h2 dbname=compass target_session_attrs=prefer-standby port=5432")
                == "host=h1,h2 dbname=compass target_session_attrs=read-write port=5432")
        #expect(PrimaryAddress.of(hosts + "?target_session_attrs=read-write") == nil)
        #expect(PrimaryAddress.of(hosts + "?target_session_attrs=primary") == nil)
        #expect(PrimaryAddress.of("postgresql://app@h1/compass") == nil)
        #expect(PrimaryAddress.of("postgresql:///compass?sslmode=disable") == nil)
    }

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
