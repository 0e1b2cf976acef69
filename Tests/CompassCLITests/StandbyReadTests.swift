import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// Issue 56 item 3: a store may read the formation's standby (`target_session_attrs=standby`),
/// and a client that passes the version its append returned reads its own write there: the
/// read waits for the standby to replay it, or reads the primary. The standby gets no
/// notifications (its feeds look again every interval) and keeps no snapshots; an append
/// through it is refused and writes nothing. Nested in ``FailoverTests``, whose `.serialized`
/// keeps it off the formation while a primary is killed.
extension FailoverTests {
@Suite struct StandbyReadTests {
    /// The address of the formation's standby for the database at `address`.
    static func standby(_ address: String) -> String {
        address.replacingOccurrences(of: "target_session_attrs=read-write", with: "target_session_attrs=standby")
    }

    /// A family on the primary, and a reading store on the standby that waits up to `wait`.
    static func family(waiting wait: Duration) throws -> (primary: CompassStore, reader: CompassStore, standby: String) {
        let formation = try #require(Formation.named)
        let address = try formation.freshDatabase()
        let primary = try CompassStore(path: address)
        try primary.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "fam")), as: "u-pat")
        var configuration = CompassStore.Configuration()
        configuration.versionWait = wait
        let standby = standby(address)
        let replica = try PostgresConnection(standby)
        #expect(try replica.run("SELECT pg_is_in_recovery()").rows.first?[0] == "t", "not a standby: \(standby)")
        // The store is opened on the standby once it has replayed the tables and the family the
        // primary just made (opened sooner, it may find the tables half made and refuse them).
        let written = try #require(try PostgresConnection(address).run("SELECT pg_current_wal_lsn()::text").rows.first?[0] ?? nil)
        let deadline = ContinuousClock.now + .seconds(30)
        while try replica.run("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn", [.text(written)]).rows.first?[0] != "t",
              ContinuousClock.now < deadline {
            usleep(20_000)
        }
        return (primary, try CompassStore(path: standby, configuration: configuration), standby)
    }

    @Test func aStoreOnTheStandbyReadsEachAppendItsReceiptNames() async throws {
        let (primary, reader, _) = try Self.family(waiting: .seconds(10))
        let delivered = Locked<[String]>([])
        let feed = reader.changes(every: .milliseconds(100))
        let listener = Task.detached { for await event in feed { delivered.mutate { $0.append(event.id) } } }
        defer { listener.cancel() }
        var appended: [String] = []
        for n in 1...30 {
            let receipt = try primary.append(.addSchool(AddSchool(name: "School \(n)", schoolId: "s-\(n)")), as: "u-pat")
            appended.append(receipt.eventId)
            let views = try reader.views(as: "u-pat", atLeast: receipt.version)
            #expect(views.version >= receipt.version && views.schools().contains { $0.schoolId == "s-\(n)" }, "append \(n)")
        }
        // An append through the standby is refused, and nothing is written.
        #expect(throws: StoreError.self) { try reader.append(.addSchool(AddSchool(name: "Refused", schoolId: "s-refused")), as: "u-pat") }
        // The standby's feed, woken by no notification, delivers every append once.
        let deadline = ContinuousClock.now + .seconds(20)
        while delivered.value.count < appended.count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(delivered.value == appended)
        #expect(try primary.views(as: "u-pat").schools().count == 30)
    }

    @Test func aReadAheadOfAPausedStandbyReadsThePrimary() throws {
        let (primary, reader, standby) = try Self.family(waiting: .milliseconds(300))
        let first = try primary.append(.addSchool(AddSchool(name: "UCLA", schoolId: "s-ucla")), as: "u-pat")
        #expect(try reader.views(as: "u-pat", atLeast: first.version).schools().map(\.schoolId) == ["s-ucla"])
        // The standby stops replaying: what the primary commits now is not there.
        let admin = try PostgresConnection(standby)
        try admin.run("SELECT pg_wal_replay_pause()")
        defer { _ = try? admin.run("SELECT pg_wal_replay_resume()") }
        let second = try primary.append(.addSchool(AddSchool(name: "Rice", schoolId: "s-rice")), as: "u-pat")
        #expect(try reader.views(as: "u-pat").schools().map(\.schoolId) == ["s-ucla"])
        // Asked for the receipt's version, the read waits, then reads the primary.
        let views = try reader.views(as: "u-pat", atLeast: second.version)
        #expect(views.version == second.version && Set(views.schools().map(\.schoolId)) == ["s-ucla", "s-rice"])
        // A version no append gave is stale on both.
        #expect(throws: StoreError.staleVersion(family: "fam", expected: second.version + 1, current: second.version)) {
            try reader.views(as: "u-pat", atLeast: second.version + 1)
        }
        // Replaying again, the standby has it.
        try admin.run("SELECT pg_wal_replay_resume()")
        var seen: [String] = []
        for _ in 0..<200 where seen.count < 2 {
            seen = try reader.views(as: "u-pat").schools().map(\.schoolId)
            usleep(50_000)
        }
        #expect(Set(seen) == ["s-ucla", "s-rice"])
    }
}
}
