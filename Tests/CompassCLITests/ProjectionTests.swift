import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// SPEC §6: `compass project` keeps the read models as tables in PostgreSQL, each member's
/// rows under row-level security exactly what their views show, exactly once across kills and
/// rival projectors, forgetting what an erasure forgets. Run against the CI's throwaway
/// cluster (`pg_virtualenv`); skipped, and counted as skipped, without one.
/// Nested in ``PostgresStoreTests``, whose `.serverTurn(.shared)` reaches it: no test here runs
/// while another restarts the server.
extension PostgresStoreTests {
@Suite struct ProjectionTests {
    /// A new, empty database: the projection's target.
    static func target() throws -> String {
        let base = ProcessInfo.processInfo.environment["PGDATABASE"] ?? "postgres"
        let name = "compass_views_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection("postgresql:///\(base)").run("CREATE DATABASE \(name)")
        return "postgresql:///\(name)"
    }

    /// A file store holding a generated history of `families` families.
    static func generated(families: Int, events: Int, seed: Int) throws -> CLIHarness {
        let cli = CLIHarness()
        let history = try Binary.tool(Binary.path, ["generate", "--families", "\(families)", "--events", "\(events)", "--seed", "\(seed)"])
        cli.write("history.jsonl", history)
        let imported = cli.run("import history.jsonl")
        #expect(imported.status == 0, "\(imported.stderr)")
        return cli
    }

    /// Every member of every family of the log.
    static func members(_ cli: CLIHarness) throws -> [Member] {
        try CompassStore(path: cli.logPath, createIfMissing: false).state().members.values.sorted { $0.userId < $1.userId }
    }

    /// `sql`'s rows as `user` sees them in a session of `compass_reader` (nil: the setting unset).
    static func asReader(_ db: PostgresConnection, _ user: String?, _ sql: String) throws -> [[String?]] {
        try db.run("BEGIN")
        defer { _ = try? db.run("ROLLBACK") }
        try db.run("SET LOCAL ROLE compass_reader")
        if let user { try db.run("SELECT set_config('compass.user', $1, true)", [.text(user)]) }
        return try db.run(sql).rows
    }

    static let utc = "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'"
    static func time(_ column: String) -> String { "to_char(\(column) AT TIME ZONE 'UTC', \(utc))" }

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    static func items(_ cli: CLIHarness, _ command: String, as user: String) throws -> [[String: Any]] {
        let result = cli.run("\(command) --json --as \(user)")
        #expect(result.status == 0, "\(command): \(result.stderr)")
        return try json(result.stdout)["items"] as? [[String: Any]] ?? []
    }

    static func text(_ value: Any?) -> String? { value is NSNull ? nil : value.map { "\($0)" } }

    /// Each row of `rows` as one line of its cells, sorted: the same for the same rows in any order.
    static func lines(_ rows: [[String?]]) -> [String] { rows.map { $0.map { $0 ?? "∅" }.joined(separator: "|") }.sorted() }

    @Test(arguments: [3, 11, 29])
    func everyMembersRowsUnderRowLevelSecurityAreWhatTheirViewsShow(seed: Int) throws {
        let cli = try Self.generated(families: 4, events: 500, seed: seed)
        let address = try Self.target()
        let projected = cli.run(["project", "--once", "--to", address])
        #expect(projected.status == 0, "\(projected.stderr)")
        #expect(projected.stdout.hasPrefix("projected "), "\(projected.stdout)")
        let db = try PostgresConnection(address)
        let members = try Self.members(cli)
        #expect(members.contains { $0.role == .player } && members.contains { $0.role == .parent })
        for member in members {
            let user = member.userId
            // No row of another family, in any table.
            for table in ProjectionTable.allCases {
                let families = try Self.asReader(db, user, "SELECT DISTINCT family FROM compass_views.\(table.name)").compactMap { $0[0] }
                #expect(families.allSatisfy { $0 == member.family }, "\(user) sees \(families) in \(table.name)")
            }
            let interactions = try Self.items(cli, "interactions", as: user).map { item -> [String?] in
                ["id", "loggedBy", "type", "direction", "sentiment", "interestLevel", "subject", "content", "occurredAt", "createdAt",
                 "schoolId", "coachId", "otherCoachName", "attachmentCount"].map { Self.text(item[$0]) }
            }
            let interactionRows = try Self.asReader(db, user, """
                SELECT interaction_id, logged_by, type, direction, sentiment, interest_level, subject, content,
                       \(Self.time("occurred_at")), \(Self.time("created_at")), school_id, coach_id, other_coach_name, attachment_count::text
                FROM compass_views.interactions
                """)
            #expect(Self.lines(interactionRows) == Self.lines(interactions), "interactions of \(user)")
            let documents = try Self.items(cli, "documents", as: user).map { item -> [String?] in
                ["documentId", "title", "docType", "fileName", "sizeBytes", "uploadedBy", "uploadedAt"].map { Self.text(item[$0]) }
            }
            let documentRows = try Self.asReader(db, user, """
                SELECT document_id, title, doc_type, file_name, size_bytes::text, uploaded_by, \(Self.time("uploaded_at")) FROM compass_views.documents
                """)
            #expect(Self.lines(documentRows) == Self.lines(documents), "documents of \(user)")
            let schools = try Self.items(cli, "schools", as: user).map { item -> [String?] in
                ["schoolId", "name", "status", "statusChangedAt"].map { Self.text(item[$0]) }
            }
            let schoolRows = try Self.asReader(db, user, "SELECT school_id, name, status, \(Self.time("status_changed_at")) FROM compass_views.schools")
            #expect(Self.lines(schoolRows) == Self.lines(schools), "schools of \(user)")
            let coaches = try Self.items(cli, "coaches", as: user).map { item -> [String?] in
                ["coachId", "schoolId", "name", "role"].map { Self.text(item[$0]) }
            }
            let coachRows = try Self.asReader(db, user, "SELECT coach_id, school_id, first_name || ' ' || last_name, role FROM compass_views.coaches")
            #expect(Self.lines(coachRows) == Self.lines(coaches), "coaches of \(user)")
            let people = try Self.items(cli, "members", as: user).map { item -> [String?] in
                ["userId", "fullName", "role", "joinedAt"].map { Self.text(item[$0]) }
            }
            let memberRows = try Self.asReader(db, user, "SELECT user_id, full_name, role, \(Self.time("joined_at")) FROM compass_views.members")
            #expect(Self.lines(memberRows) == Self.lines(people), "members of \(user)")
            let timeline = try Self.json(cli.run("activity --json --page-size 100000 --type school_status_change --as \(user)").stdout)
            let changes = (timeline["items"] as? [[String: Any]] ?? []).map { [Self.text($0["id"])] }
            let changeRows = try Self.asReader(db, user, "SELECT 'status-' || event_id FROM compass_views.status_changes")
            #expect(Self.lines(changeRows) == Self.lines(changes), "status changes of \(user)")
        }
        // Nobody set, or somebody who is no member: nothing at all.
        for user in [nil, "", "u-nobody"] as [String?] {
            for table in ProjectionTable.allCases {
                #expect(try Self.asReader(db, user, "SELECT count(*) FROM compass_views.\(table.name)")[0][0] == "0", "\(user ?? "unset") in \(table.name)")
            }
        }
        // The checkpoints name every family, and are not the reader's to read.
        #expect(throws: PostgresConnection.Failure.self) { try Self.asReader(db, members[0].userId, "SELECT * FROM compass_views.checkpoints") }
        let check = cli.run(["project", "--check", "--to", address])
        #expect(check.status == 0 && check.stdout.contains("match the log"), "\(check.stdout)\(check.stderr)")
    }

    @Test func anAppendIsProjectedAsOneRowAndASecondPassWritesNothing() throws {
        let cli = ErasureTests.family()
        let address = try Self.target()
        #expect(cli.run(["project", "--once", "--to", address]).status == 0)
        let again = cli.run(["project", "--once", "--to", address])
        #expect(again.stdout == "projected 0 lines of 0 families\n")
        #expect(cli.run("log-interaction --as u-kid --school s-ucla --type email --direction outbound --subject 'One more'").status == 0)
        let source = try CompassStore(path: cli.logPath, createIfMissing: false)
        let summary = try Projector(source: source, target: address).project()
        #expect(summary.lines == 1 && summary.families == 1 && summary.rowsWritten == 1, "\(summary)")
        #expect(cli.run(["project", "--check", "--to", address]).status == 0)
    }

    @Test func aProjectorFollowingEveryKindOfChangeWritesOnlyWhatChangedAndMatchesAFreshFold() throws {
        let cli = ErasureTests.family()
        let address = try Self.target()
        let projector = try Projector(source: try CompassStore(path: cli.logPath, createIfMissing: false), target: address)
        _ = try projector.project()
        let steps: [(command: String, rows: Int)] = [
            ("log-interaction --as u-kid --school s-ucla --type email --direction outbound --subject 'One more'", 1),
            ("change-status --as u-sib --school s-kid --status offer_received --notes 'Big news'", 3),  // the school's row (out, in) and the change
            ("add-school --as u-pat --name Rice --school s-rice", 1),
            ("add-coach --as u-pat --school s-rice --first Ann --last Lee --role assistant", 1),
            ("log-interaction --as u-sib --school s-rice --coach c-ann-lee --type camp --direction inbound --sentiment positive --interest y,y,y,y,n,n", 1),
            ("delete-interaction i-1 --as u-kid", 1),
            ("upload-document --as u-sib --title 'Highlights' --doc-type video", 1),
            ("add-member --as u-pat --user u-gran --name 'Gran Parent' --role parent", 1),
            ("notifications --as u-pat --mark-read", 0),
        ]
        for step in steps {
            #expect(cli.run(step.command).status == 0, "\(step.command)")
            let summary = try projector.project()
            #expect(summary.families == 1 && summary.rowsWritten == step.rows, "\(step.command): \(summary)")
            #expect(try projector.check() == [], "after \(step.command)")
        }
        #expect(cli.run("erase --as u-pat --member u-kid").status == 0)
        let afterErasure = try projector.project()
        #expect(afterErasure.rowsWritten > 3, "\(afterErasure)")
        #expect(try projector.check() == [])
        #expect(!(try Self.dump(address)).contains("Xyzzyname"))
    }

    @Test func aTamperedOrMissingRowIsNamedByCheckAndARebuildMendsIt() throws {
        let cli = ErasureTests.family()
        let address = try Self.target()
        #expect(cli.run(["project", "--once", "--to", address]).status == 0)
        let db = try PostgresConnection(address)
        let family = try db.run("SELECT family FROM compass_views.members LIMIT 1")[0, 0]!
        for (tampering, named) in [("UPDATE compass_views.interactions SET subject = 'edited by hand' WHERE interaction_id = (SELECT min(interaction_id) FROM compass_views.interactions)", family),
                          ("DELETE FROM compass_views.schools WHERE school_id = (SELECT min(school_id) FROM compass_views.schools)", family),
                          ("INSERT INTO compass_views.coaches VALUES ('fam-ghost', 'c-ghost', 's-x', 'No', 'One', 'head')", "fam-ghost")] {
            try db.run(tampering)
            let check = cli.run(["project", "--check", "--to", address])
            #expect(check.status == 1, "\(tampering): \(check.stdout)")
            #expect(check.stdout == "family \(named) differs\n", "\(tampering): \(check.stdout)")
            let rebuilt = cli.run(["project", "--once", "--rebuild", "--to", address])
            #expect(rebuilt.status == 0 && rebuilt.stdout.contains("(tables rebuilt)"), "\(rebuilt.stdout)\(rebuilt.stderr)")
            #expect(cli.run(["project", "--check", "--to", address]).status == 0, "after the rebuild")
        }
    }

    @Test func anErasureLeavesNothingOfTheMemberInADumpOfTheTables() throws {
        let cli = ErasureTests.family()
        let address = try Self.target()
        #expect(cli.run(["project", "--once", "--to", address]).status == 0)
        let before = try Self.dump(address)
        // What the athlete's records put in the tables: their id, name, texts, school, coach.
        let secrets = ["u-kid"] + ErasureTests.kidStrings.filter { before.contains($0) }
        #expect(secrets.count >= 6, "\(secrets)")
        let erased = cli.run("erase --as u-pat --member u-kid")
        #expect(erased.status == 0, "\(erased.stderr)")
        let projected = cli.run(["project", "--once", "--to", address])
        #expect(projected.stdout == "projected 1 line of 1 family\n", "\(projected.stdout)\(projected.stderr)")
        let after = try Self.dump(address)
        for secret in secrets { #expect(!after.contains(secret), "\(secret) is still in the dump") }
        #expect(after.contains("u-sib") && after.contains("Sib Sibling"), "the rest of the family is kept")
        #expect(cli.run(["project", "--check", "--to", address]).status == 0)
    }

    /// `pg_dump` of the database at `address`, data and schema.
    static func dump(_ address: String) throws -> String {
        let output = try Binary.runProgram("/usr/bin/env", ["pg_dump", "--no-owner", address], environment: ProcessInfo.processInfo.environment)
        #expect(output.status == 0, "\(output.stdout)")
        return output.stdout
    }

    @Test func projectorsKilledAtRandomMomentsResumeWithNoRowLostOrDoubled() throws {
        let cli = try Self.generated(families: 12, events: 6_000, seed: 7)
        let address = try Self.target()
        var rng = SplitMix64(seed: 55)
        var killed = 0
        for round in 0..<10 {
            // New lines for the next projector to project, in a few families.
            for index in 0..<3 {
                let member = try Self.members(cli).filter { $0.role == .player }[(round * 3 + index) % 8]
                let school = try Self.items(cli, "schools", as: member.userId).first?["schoolId"] as? String
                if let school {
                    _ = cli.run(["log-interaction", "--as", member.userId, "--school", school, "--type", "email", "--direction", "outbound",
                                 "--subject", "round \(round)"])
                }
            }
            let arguments = ["project", "--once", "--to", address, "--log", cli.logPath] + (round % 4 == 3 ? ["--rebuild"] : [])
            let projector = try ReliabilityTests.start(arguments, output: FileHandle.nullDevice)
            usleep(useconds_t(rng.below(400_000)))
            if projector.isRunning { kill(projector.processIdentifier, SIGKILL); killed += 1 }
            projector.waitUntilExit()
        }
        #expect(killed > 0, "no projector was killed mid-pass")
        let resumed = cli.run(["project", "--once", "--to", address])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let check = cli.run(["project", "--check", "--to", address])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // A fresh projection into another database holds exactly the same rows.
        let fresh = try Self.target()
        #expect(cli.run(["project", "--once", "--to", fresh]).status == 0)
        let a = try PostgresConnection(address), b = try PostgresConnection(fresh)
        for table in ProjectionTable.allCases {
            let sql = "SELECT * FROM compass_views.\(table.name)"
            #expect(Self.lines(try a.run(sql).rows) == Self.lines(try b.run(sql).rows), "\(table.name)")
        }
    }

    @Test func twoProjectorsAndAnAppenderOnOneTargetNeverCorruptIt() throws {
        let cli = try Self.generated(families: 6, events: 3_000, seed: 13)
        let address = try Self.target()
        let players = try Self.members(cli).filter { $0.role == .player }
        var processes: [Process] = []
        for _ in 0..<2 {
            processes.append(try ReliabilityTests.start(["project", "--to", address, "--log", cli.logPath], output: FileHandle.nullDevice))
        }
        for index in 0..<12 {
            let player = players[index % players.count]
            if let school = try Self.items(cli, "schools", as: player.userId).first?["schoolId"] as? String {
                #expect(cli.run(["log-interaction", "--as", player.userId, "--school", school, "--type", "text", "--direction", "inbound",
                                 "--subject", "while projecting \(index)"]).status == 0)
            }
            usleep(50_000)
        }
        // Both keep up: wait until the tables match the log, then stop them.
        var matched = false
        for _ in 0..<100 where !matched {
            matched = cli.run(["project", "--check", "--to", address]).status == 0
            if !matched { usleep(100_000) }
        }
        for process in processes {
            #expect(process.isRunning, "a projector died")
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(process.terminationStatus == 128 + SIGTERM)
        }
        #expect(matched, "the tables never matched the log")
    }

    @Test func aRebuildIsSwappedInWhileReadersNeverSeeAnEmptyTable() throws {
        let cli = try Self.generated(families: 8, events: 4_000, seed: 17)
        let address = try Self.target()
        #expect(cli.run(["project", "--once", "--to", address]).status == 0)
        let db = try PostgresConnection(address)
        let total = try db.run("SELECT count(*) FROM compass_views.interactions")[0, 0]!
        // An older projection version is rebuilt beside it and swapped in.
        try db.run("UPDATE compass_views.meta SET value = '-1' WHERE key = 'version'")
        let reader = try ReaderLoop(address)
        let rebuilt = cli.run(["project", "--once", "--to", address])
        let seen = reader.stop()
        #expect(rebuilt.stdout.contains("(tables rebuilt)"), "\(rebuilt.stdout)\(rebuilt.stderr)")
        #expect(!seen.isEmpty && seen.allSatisfy { $0 == total }, "a reader saw \(Set(seen)) rows, not \(total)")
        #expect(try db.run("SELECT value FROM compass_views.meta WHERE key = 'version'")[0, 0] == "\(ProjectionSchema.version)")
        #expect(try db.run("SELECT to_regnamespace('compass_views_next') IS NULL")[0, 0] == "t")
        #expect(cli.run(["project", "--check", "--to", address]).status == 0)
    }

    @Test func aPostgreSQLStoreIsProjectedIntoItsOwnDatabase() throws {
        guard let address = try PostgresStoreTests.database() else { return }
        let (cli, _) = try PostgresStoreTests.imported(families: 3, events: 300, seed: 5, into: address)
        let projected = cli.run(["project", "--once", "--to", address])
        #expect(projected.status == 0 && projected.stdout.hasPrefix("projected "), "\(projected.stdout)\(projected.stderr)")
        #expect(cli.run(["project", "--check", "--to", address]).status == 0)
    }

    @Test func hostileTextsAndTheYearZeroArriveAsTheLogHasThem() throws {
        let cli = CLIHarness()
        let subject = "'); DROP TABLE compass_views.members; -- \"quoted\" \\ tab\t line\n 🔥 \u{1B}[31m"
        cli.runAll([
            "add-member --user u-pat --name 'Pat' --role parent --family fam-h",
            "add-member --as u-pat --user u-ana --name 'Ana' --role player",
            "add-school --as u-pat --name UCLA --school s-ucla",
        ])
        let logged = cli.run(["log-interaction", "--as", "u-ana", "--school", "s-ucla", "--type", "email", "--direction", "inbound",
                              "--occurred-at", "0000-01-01T00:00:00Z", "--subject", subject])
        #expect(logged.status == 0, "\(logged.stderr)")
        let address = try Self.target()
        let projected = cli.run(["project", "--once", "--to", address])
        #expect(projected.status == 0, "\(projected.stderr)")
        let rows = try Self.asReader(try PostgresConnection(address), "u-ana",
                                     "SELECT subject, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS BC') FROM compass_views.interactions")
        #expect(rows.count == 1 && rows.first?[0] == subject, "\(rows)")
        #expect(rows.first?[1] == "0001-01-01 00:00:00 BC", "the year 0000 is 1 BC: \(rows)")
        #expect(cli.run(["project", "--check", "--to", address]).status == 0)
    }

    @Test func badTargetsAreClearErrors() throws {
        let cli = ErasureTests.family()
        let notAnAddress = cli.run(["project", "--once", "--to", "views.db"])
        #expect(notAnAddress.status == 2 && notAnAddress.stderr.contains("--to"), "\(notAnAddress.stderr)")
        let unreachable = cli.run(["project", "--once", "--to", "postgresql://nobody@127.0.0.1:1/none"])
        #expect(unreachable.status == 1 && unreachable.stderr.contains("cannot connect"), "\(unreachable.stderr)")
        let noLog = CLIHarness().run(["project", "--once", "--to", "postgresql:///nothing"])
        #expect(noLog.status == 1 && noLog.stderr.contains("no log at"), "\(noLog.stderr)")
    }
}
}

/// A connection that counts the interactions table's rows as fast as it can, until stopped.
final class ReaderLoop: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String] = []
    private var stopping = false
    private let done = DispatchSemaphore(value: 0)

    init(_ address: String) throws {
        nonisolated(unsafe) let db = try PostgresConnection(address)
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopping }) {
                let count = (try? db.run("SELECT count(*) FROM compass_views.interactions")[0, 0]) ?? "failed"
                lock.withLock { counts.append(count ?? "null") }
            }
            done.signal()
        }
    }

    /// Stops the loop; every count it read.
    func stop() -> [String] {
        lock.withLock { stopping = true }
        done.wait()
        return lock.withLock { counts }
    }
}
