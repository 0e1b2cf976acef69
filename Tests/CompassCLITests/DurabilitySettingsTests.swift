import Foundation
import Testing
import CompassTestSupport
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
