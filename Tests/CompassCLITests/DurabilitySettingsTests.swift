import Foundation
import Testing
import CompassTestSupport
import CompassCore
@testable import CompassStore

/// Issue 56 §1: `compass db init` says when the server's settings let an acknowledged append be
/// lost on a crash or a failover.
extension PostgresStoreTests {
    @Test func dbInitWarnsWhenAnAcknowledgedAppendCouldBeLost() throws {
        guard let address = try Self.database() else { return }
        let cli = CLIHarness()
        cli.database = address
        // The CI's cluster has no standby.
        let plain = cli.run("db init")
        #expect(plain.status == 0 && plain.stdout == "schema already at version \(PostgresSchema.version): nothing to do\n")
        #expect(plain.stderr.contains("warning: no synchronous standby (synchronous_standby_names is empty)"), "\(plain.stderr)")
        #expect(!plain.stderr.contains("synchronous_commit is"))
        let name = String(address.split(separator: "/").last!)
        for (setting, says) in [("off", "synchronous_commit is off"), ("local", "synchronous_commit is local")] {
            try PostgresConnection(address).run("ALTER DATABASE \(name) SET synchronous_commit = \(setting)")
            let warned = cli.run("db init")
            #expect(warned.status == 0 && warned.stderr.contains("warning: \(says)"), "\(setting): \(warned.stderr)")
        }
    }
}

/// Issue 56 §1: an append acknowledged because its line was read back (a retried event id)
/// rests on what the standby has, never on a read alone: a primary that crashed and came back
/// serves commits its standby never got, and a failover to that standby would lose them.
extension PostgresStoreTests {
    @Test(.serverTurn(.alone)) func aRetryIsAcknowledgedOnlyOnceTheStandbyHasWhatItRead() async throws {
        guard let address = try Self.database() else { return }
        let join = Command.addMember(AddMember(userId: "u-dora", fullName: "Dora", role: .parent, newFamily: "fam-dora"))
        let store = try CompassStore(path: address)
        try store.append(join, as: "u-dora", idempotencyKey: "e-join")
        // A synchronous standby that never answers: a commit that writes to the WAL waits.
        let admin = try PostgresConnection(address)
        try admin.run("ALTER SYSTEM SET synchronous_standby_names = 'compass_absent_standby'")
        try admin.run("SELECT pg_reload_conf()")
        func reset() {
            _ = try? admin.run("ALTER SYSTEM RESET synchronous_standby_names")
            _ = try? admin.run("SELECT pg_reload_conf()")
        }
        defer { reset() }
        try await Task.sleep(for: .milliseconds(500))  // the reload reaches every backend
        let answered = Locked<Bool?>(nil)
        let retry = Thread {
            let outcome = try? CompassStore(path: address).append(join, as: "u-dora", idempotencyKey: "e-join")
            answered.value = outcome?.id == "e-join"
        }
        retry.start()
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(answered.value == nil, "the retry was acknowledged before any standby confirmed")
        reset()
        for _ in 0..<100 where answered.value == nil { try await Task.sleep(for: .milliseconds(100)) }
        #expect(answered.value == true, "the retry was acknowledged once the standby requirement went")
        #expect(try store.state().families["fam-dora"]?.memberIds.count == 1)
    }
}
