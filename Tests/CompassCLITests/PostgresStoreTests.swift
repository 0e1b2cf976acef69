import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// The store on PostgreSQL (issue 25), against a real server: `.ci/run` starts a throwaway
/// cluster (`pg_virtualenv`) and runs the whole suite inside it. Run by hand without a server
/// (no `PGHOST`/`PGDATABASE`), the suite is skipped, and counted as skipped; `.ci/run` sets
/// `COMPASS_REQUIRE_POSTGRES=1`, and then a missing server fails ``PostgresRequirementTests``.
@Suite(.serverTurn(.shared), .enabled(if: PostgresServer.named, "no PostgreSQL server (run inside pg_virtualenv, as .ci/run does)"))
struct PostgresStoreTests {
    /// A fresh database on the server libpq's `PG*` variables name, with the store's tables.
    static func database() throws -> String? {
        let environment = ProcessInfo.processInfo.environment
        guard let base = environment["PGDATABASE"] else { return nil }
        let name = "compass_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgresConnection("postgresql:///\(base)")
        try admin.run("CREATE DATABASE \(name)")
        let address = "postgresql:///\(name)"
        _ = try CompassStore.initializeDatabase(address)
        return address
    }

    /// A harness on the database at `address` holding a generated history (imported); the
    /// history's text, for comparing.
    static func imported(families: Int, events: Int, seed: Int, into address: String) throws -> (CLIHarness, String) {
        let cli = CLIHarness()
        cli.database = address
        let generated = try Binary.tool(Binary.path, ["generate", "--families", "\(families)", "--events", "\(events)", "--seed", "\(seed)"])
        FileManager.default.createFile(atPath: cli.directory + "/history.jsonl", contents: Data(generated.utf8))
        #expect(cli.run("import history.jsonl").status == 0)
        return (cli, generated)
    }

    /// The same commands on a file store and on PostgreSQL.
    static func both(_ address: String, _ lines: [String]) -> (file: CLIHarness, database: CLIHarness) {
        let file = CLIHarness(), database = CLIHarness()
        database.database = address
        for line in lines {
            let a = file.run(line), b = database.run(line)
            #expect(a.status == b.status && a.stdout == b.stdout && a.stderr == b.stderr, "\(line): file \(a.stderr) database \(b.stderr)")
        }
        return (file, database)
    }

    static let script = [
        "add-member --user u-pat --name 'Pat Lopez' --role parent --family fam-lopez",
        "add-member --as u-pat --user u-maya --name 'Maya Lopez' --role player",
        "add-member --user u-kim --name 'Kim Park' --role parent --family fam-park",
        "add-member --as u-kim --user u-jae --name 'Jae Park' --role player",
        "add-school --as u-pat --name UCLA --school s-ucla --status interested",
        "add-school --as u-kim --name UCLA --school s-ucla",
        "add-coach --as u-pat --school s-ucla --first Jane --last Doe --role head",
        "log-interaction --as u-maya --school s-ucla --coach c-jane-doe --type email --direction inbound --sentiment positive --interest y,y,n,n,y,y --subject 'Camp invite' --content 'See you'",
        "log-interaction --as u-jae --school s-ucla --type phone_call --direction outbound --subject Call",
        "change-status --as u-pat --school s-ucla --status offer_received --notes 'Decide by Feb 1'",
        "upload-document --as u-maya --title Transcript --doc-type transcript",
        "add-member --user u-maya --name Again --role parent --family fam-other",
        "add-member --user u-new --name New --role parent --family fam-park",
        "log-interaction --as u-pat --school s-ucla --type email --direction inbound",
        "delete-interaction i-1 --as u-maya",
        "log-interaction --as u-maya --school s-ucla --type dm --direction outbound --subject Thanks",
        "add-school --as u-kim --name Rice --expect-version 3",
        "add-school --as u-kim --name Rice --expect-version 4",
        "notifications --as u-pat --mark-read",
    ]

    @Test func theSameCommandsGiveTheSameStreamsAndViewsOnBoth() throws {
        guard let address = try Self.database() else { return }
        let (file, database) = Self.both(address, Self.script)
        for family in ["fam-lopez", "fam-park"] {
            let a = file.run("export --stream --family \(family)"), b = database.run("export --stream --family \(family)")
            #expect(a.status == 0 && a.stdout == b.stdout, "\(family)'s stream differs")
        }
        for viewer in ["u-pat", "u-maya", "u-kim", "u-jae"] {
            for view in ["interactions --json", "activity --json", "schools --json", "coaches --json", "members --json",
                         "documents --json", "notifications --json", "audit --json", "report"] {
                let a = file.run("\(view) --as \(viewer)"), b = database.run("\(view) --as \(viewer)")
                // The audit's `line` is a line of the file; a database has families, not a file order.
                let unnumbered = { (text: String) in text.replacingOccurrences(of: #""line":[0-9]+,"#, with: "", options: .regularExpression) }
                #expect(unnumbered(a.stdout) == unnumbered(b.stdout) && a.status == b.status, "\(view) --as \(viewer)")
            }
        }
        let a = file.run("verify --json"), b = database.run("verify --json")
        #expect(a.status == 0 && a.stdout == b.stdout, "\(a.stdout)\n\(b.stdout)")
    }

    /// A viewer's audit on the database reads their family's rows alone (issue 57 §4), so its
    /// lines are numbered in the family's order, 1, 2, 3…, where the file's audit numbers the
    /// file's lines (the other family's between them); the entries are the same.
    @Test func aViewersAuditOnTheDatabaseReadsTheirFamilyAlone() throws {
        guard let address = try Self.database() else { return }
        let (file, database) = Self.both(address, Self.script)
        func numbers(_ text: String) -> [Int] {
            text.split(separator: "\n").compactMap { line in
                line.firstRange(of: #""line":"#).map { Int(line[$0.upperBound...].prefix { $0.isNumber }) ?? 0 }
            }
        }
        for viewer in ["u-pat", "u-kim"] {
            let onFile = numbers(file.run("audit --json --as \(viewer)").stdout)
            let onDatabase = numbers(database.run("audit --json --as \(viewer)").stdout)
            #expect(onDatabase == Array(1...max(1, onDatabase.count)) && onDatabase.count == onFile.count, "\(viewer): \(onDatabase)")
            #expect(onFile != onDatabase)  // not vacuous: the families' lines interleave in the file
        }
    }

    /// A family id is an id on both backends (SPEC §1): `add-member --family` with a space, a
    /// `;`, a tab, 65 characters or an accent is refused with the SPEC's message and writes
    /// nothing; the store then still verifies and the user can still start a family.
    @Test func aFamilyIdThatIsNotAnIdIsRefusedOnBothBackendsAndNothingIsWritten() throws {
        guard let address = try Self.database() else { return }
        let file = CLIHarness(), database = CLIHarness()
        database.database = address
        for family in ["fam 2", "f-1;drop", "a\tb", String(repeating: "f", count: 65), "é"] {
            for cli in [file, database] {
                let result = cli.run(["add-member", "--user", "u-1", "--name", "One", "--role", "parent", "--family", family])
                #expect(result.status == 1 && result.stderr.contains("field family must be an id"), "\(family): \(result.stderr)")
            }
        }
        for cli in [file, database] {
            #expect(cli.run("export --stream --all-families").stdout.isEmpty, "a refused member was written")
            #expect(cli.run("add-member --user u-1 --name One --role parent --family fam-1").status == 0)
            #expect(cli.run("verify").status == 0)
        }
    }

    /// A random command script (seeded; every kind of command, three families, parents and
    /// athletes, refusals, another family's ids, stale versions, erasures) on a file store and
    /// on PostgreSQL: every command's output, then every family's stream, every view of every
    /// viewer and `verify`, byte for byte.
    static func randomScript(seed: UInt64, count: Int) -> (lines: [String], viewers: [String], families: [String]) {
        var rng = SplitMix64(seed: seed)
        let families = ["a", "b", "c"]
        var lines: [String] = []
        var players: [String: [String]] = [:]
        for family in families {
            lines.append("add-member --user p-\(family) --name 'Parent \(family.uppercased())' --role parent --family fam-\(family)")
            players[family] = ["k-\(family)1", "k-\(family)2"]
            for kid in players[family]! { lines.append("add-member --as p-\(family) --user \(kid) --name 'Kid \(kid)' --role player") }
        }
        let types = ["email", "phone_call", "text", "in_person_visit", "virtual_meeting", "camp", "showcase", "tweet", "dm", "fax"]
        let statuses = ["interested", "contacted", "offer_received", "committed", "Not A Slug"]
        for n in 0..<count {
            let family = rng.pick(families)
            let other = rng.pick(families)  // sometimes another family's ids
            let parent = "p-\(family)", player = rng.pick(players[family]!)
            let member = rng.below(2) == 0 ? parent : player
            let school = "s-school-\(rng.below(6))"
            switch rng.below(12) {
            case 0, 1: lines.append("add-school --as \(member) --name 'School \(rng.below(6))'" + (rng.below(2) == 0 ? " --status \(rng.pick(statuses))" : ""))
            case 2: lines.append("add-coach --as \(member) --school \(school) --first Coach --last N\(rng.below(4)) --role \(rng.pick(["head", "assistant", "recruiting"]))")
            case 3, 4, 5:
                let actor = rng.below(6) == 0 ? parent : player
                let subject = rng.below(3) == 0 ? "" : " --subject 'Note \(n) <b>bold</b>'"
                lines.append("log-interaction --as \(actor) --school \(rng.below(8) == 0 ? "s-school-\(rng.below(6)) --coach c-other-\(other)" : school) "
                             + "--type \(rng.pick(types)) --direction \(rng.pick(["inbound", "outbound"]))\(subject)")
            case 6: lines.append("delete-interaction i-\(1 + rng.below(6)) --as \(rng.below(4) == 0 ? "k-\(other)1" : player)")
            case 7: lines.append("change-status --as \(member) --school \(school) --status \(rng.pick(statuses)) --notes 'n\(n)'")
            case 8: lines.append("upload-document --as \(member) --title 'Doc \(n)' --doc-type \(rng.pick(["transcript", "resume", "Bad Type"]))")
            case 9: lines.append("notifications --as \(member) --mark-read")
            case 10: lines.append("add-school --as \(parent) --name 'Versioned \(n)' --expect-version \(rng.below(40))")
            default:
                if rng.below(3) == 0, let kid = players[family]!.last, players[family]!.count > 1 {
                    lines.append("erase --as \(parent) --member \(kid)")
                    players[family]!.removeLast()
                } else {
                    let kid = "k-\(family)\(3 + n)"
                    lines.append("add-member --as \(parent) --user \(kid) --name 'Kid \(n)' --role player")
                    players[family]!.append(kid)
                }
            }
        }
        // One erasure at least, two thirds in: a family's first athlete (never erased above).
        lines.insert("erase --as p-b --member k-b1", at: lines.count * 2 / 3)
        players["b"]!.removeAll { $0 == "k-b1" }
        var viewers: [String] = []
        for family in families { viewers += ["p-\(family)"] + players[family]! }
        return (lines, viewers, families.map { "fam-\($0)" })
    }

    @Test func randomCommandScriptsGiveTheSameBytesOnBoth() throws {
        guard let address = try Self.database() else { return }
        for seed in [UInt64(1), 2, 3] {
            let database = try PostgresConnection(address)
            try database.run("TRUNCATE events, families, event_ids, users, blobs")
            let script = Self.randomScript(seed: seed, count: 70)
            let (file, onDatabase) = Self.both(address, script.lines)
            var written = 0, erasures = 0
            for family in script.families {
                let a = file.run("export --stream --family \(family)"), b = onDatabase.run("export --stream --family \(family)")
                #expect(a.status == b.status && a.stdout == b.stdout, "seed \(seed): \(family)'s stream differs")
                written += a.stdout.split(separator: "\n").count
                erasures += a.stdout.components(separatedBy: "\"ErasureRecorded\"").count - 1
            }
            // The script both wrote and was refused (and erased, in these seeds).
            #expect(written > 30 && written < script.lines.count + erasures, "seed \(seed): \(written) lines of \(script.lines.count) commands")
            #expect(erasures > 0, "seed \(seed): no erasure")
            for viewer in script.viewers {
                for view in ["interactions --json", "activity --json", "schools --json", "documents --json", "notifications --json", "audit --json"] {
                    let a = file.run("\(view) --as \(viewer)"), b = onDatabase.run("\(view) --as \(viewer)")
                    let unnumbered = { (text: String) in text.replacingOccurrences(of: #""line":[0-9]+,"#, with: "", options: .regularExpression) }
                    #expect(unnumbered(a.stdout) == unnumbered(b.stdout) && a.status == b.status, "seed \(seed): \(view) --as \(viewer)")
                }
            }
            let a = file.run("verify --json"), b = onDatabase.run("verify --json")
            #expect(a.status == 0 && a.stdout == b.stdout, "seed \(seed):\n\(a.stdout)\n\(b.stdout)")
        }
    }

    /// A family of more than a thousand lines: its first read writes a snapshot, later reads
    /// start from it (and fold only newer lines) with the same views as a file store; an
    /// erasure deletes it, and no snapshot written after holds the erased member's data.
    @Test func aLargeFamilysReadsStartFromItsSnapshotAndAnErasureLeavesNoneOfTheErased() throws {
        guard let address = try Self.database() else { return }
        let file = CLIHarness(), database = CLIHarness()
        database.database = address
        let generated = try Binary.tool(Binary.path, ["generate", "--families", "1", "--events", "1600", "--seed", "21"])
        for harness in [file, database] {
            FileManager.default.createFile(atPath: harness.directory + "/history.jsonl", contents: Data(generated.utf8))
            #expect(harness.run("import history.jsonl").status == 0)
        }
        let admin = try PostgresConnection(address)
        let state = try CompassStore(path: file.logPath).state()
        let parent = try #require(state.members.values.filter { $0.role == .parent }.map(\.userId).min())
        let player = try #require(state.members.values.filter { $0.role == .player }.map(\.userId).min())
        let playerName = try #require(state.members[player]?.fullName)
        func sameViews(_ step: String) {
            for viewer in [parent, player] {
                for view in ["interactions --json", "activity --json", "schools --json", "documents --json"] {
                    let a = file.run("\(view) --as \(viewer)"), b = database.run("\(view) --as \(viewer)")
                    #expect(a.status == b.status && a.stdout == b.stdout, "\(step): \(view) --as \(viewer)")
                }
            }
        }
        #expect(try admin.run("SELECT count(*) FROM family_snapshots").rows[0][0] == "0")
        sameViews("first read")  // replays 1,600 lines and writes the snapshot
        let written = try admin.run("SELECT version FROM family_snapshots WHERE family = 'fam-1'").rows
        #expect(written.count == 1 && written[0][0] == "1600")
        // Newer lines on top of the snapshot, read by a new store (the CLI's next process).
        for harness in [file, database] {
            #expect(harness.run("add-school --as \(parent) --name 'After The Snapshot'").status == 0)
        }
        sameViews("snapshot and newer lines")
        let app = try CompassStore(path: address)
        #expect(try app.schools(as: parent) == CompassStore(path: file.logPath).schools(as: parent))

        for harness in [file, database] { #expect(harness.run("erase --as \(parent) --member \(player)").status == 0) }
        #expect(try admin.run("SELECT count(*) FROM family_snapshots").rows[0][0] == "0")
        sameViews("after the erasure")
        let after = try admin.run("SELECT encode(bytes, 'escape') FROM family_snapshots").rows.compactMap { $0[0] }
        #expect(!after.contains { $0.contains(playerName) || $0.contains(player) }, "a snapshot holds the erased member")
        // Nor does any row of the live tables, its columns included.
        for table in ["events", "event_ids", "users", "families"] {
            let rows = try admin.run("SELECT t::text FROM \(table) t").rows.compactMap { $0[0] }
            #expect(!rows.contains { $0.contains(playerName) || $0.contains("\"\(player)\"") || $0.contains(",\(player),") || $0.contains("(\(player),") },
                    "\(table) holds the erased member")
        }
        #expect(database.run("verify").status == 0)

        // A line after the snapshot damaged by hand (the same on both): a read that lists its
        // problems lists it, with the same line number, from the snapshot as from the file.
        for harness in [file, database] { #expect(harness.run("add-school --as \(parent) --name 'Last One'").status == 0) }
        try admin.run("UPDATE events SET line = '{not json' WHERE family = 'fam-1' AND seq = (SELECT max(seq) FROM events WHERE family = 'fam-1')")
        var fileLines = try String(contentsOfFile: file.logPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        fileLines[fileLines.count - 2] = "{not json"
        try fileLines.joined(separator: "\n").write(toFile: file.logPath, atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: file.logPath + ".snapshot")
        let a = file.run("schools --as \(parent)"), b = database.run("schools --as \(parent)")
        let warning = { (text: String, log: String) in text.replacingOccurrences(of: log, with: "LOG") }
        #expect(a.stdout == b.stdout && warning(a.stderr, file.logPath) == warning(b.stderr, CompassStore.displayAddress(address))
                && a.stderr.contains("invalid JSON"), "file:\n\(a.stderr)\ndatabase:\n\(b.stderr)")
    }

    @Test func anImportedHistoryExportsByteForByteAndVerifiesWithTheSameHead() throws {
        guard let address = try Self.database() else { return }
        let cli = CLIHarness()
        cli.database = address
        let sample = Binary.packageRoot + "/events-samples/family.jsonl"
        try FileManager.default.copyItem(atPath: sample, toPath: cli.directory + "/history.jsonl")
        try FileManager.default.copyItem(atPath: sample + ".attachments", toPath: cli.directory + "/history.jsonl.attachments")
        #expect(cli.run("import history.jsonl").status == 0)
        let exported = cli.run("export --stream --family fam-lopez")
        #expect(exported.stdout == (try String(contentsOfFile: sample, encoding: .utf8)))
        let onFile = try Binary.run(["verify", "--json", "--log", "events-samples/family.jsonl"]).stdout
        let onDatabase = cli.run("verify --json")
        #expect(onDatabase.status == 0 && onDatabase.stdout == onFile, "\(onDatabase.stdout)")
        // Attachments come back out of the database, checked against their hash.
        #expect(cli.run("attachment get i-41 camp-schedule.pdf --as u-maya -o out.pdf").status == 0)
        #expect(FileManager.default.contents(atPath: cli.directory + "/out.pdf")
                == FileManager.default.contents(atPath: Binary.packageRoot + "/events-samples/files/camp-schedule.pdf"))
    }

    /// An erased family's export (`Erased` and `ErasureRecorded` records in it) goes into the
    /// database with `import --restore` byte for byte: it comes back out the same, verifies
    /// with the same heads, proves the head kept before the erasure, and goes on as on a file.
    @Test func anErasedFamilysExportIsRestoredIntoTheDatabaseWithItsProofs() throws {
        guard let address = try Self.database() else { return }
        let (file, oldHead) = try RestoreTests.erasedSample()
        let database = CLIHarness()
        database.database = address
        database.idPrefix = "db-"  // the export holds ids the file's harness gave out
        try FileManager.default.copyItem(atPath: file.directory + "/lopez.jsonl", toPath: database.directory + "/lopez.jsonl")
        try FileManager.default.copyItem(atPath: file.directory + "/lopez.jsonl.attachments", toPath: database.directory + "/lopez.jsonl.attachments")
        let plain = database.run("import lopez.jsonl")
        #expect(plain.status == 1 && plain.stderr.contains("compass import --restore FILE"), "\(plain.stderr)")
        let restored = database.run("import --restore lopez.jsonl")
        #expect(restored.status == 0 && restored.stdout.hasPrefix("restored 80 lines"), "\(restored.stderr)")
        let export = try String(contentsOfFile: file.directory + "/lopez.jsonl", encoding: .utf8)
        #expect(database.run("export --stream --family fam-lopez").stdout == export)
        let onFile = file.run(["verify", "--json", "--log", file.directory + "/lopez.jsonl"]).stdout
        #expect(database.run("verify --json").stdout == onFile)
        let proven = database.run("verify --expect-head \(oldHead)")
        #expect(proven.status == 0 && proven.stdout.contains("proven through the erasure") && proven.stdout.contains("all whole"),
                "\(proven.stdout)")
        // Twice is refused whole, and a member or id another family holds refuses it too.
        let again = database.run("import --restore lopez.jsonl")
        #expect(again.status == 1 && again.stderr.contains("family fam-lopez already has lines in this store"), "\(again.stderr)")
        #expect(database.run("export --stream --family fam-lopez").stdout == export)
        let other = CLIHarness()
        other.idPrefix = "dup-"
        other.runAll(["add-member --user u-maya --name 'Maya Elsewhere' --role parent --family fam-dup",
                      "add-school --as u-maya --name Rice",
                      "export --stream --as u-maya -o \(database.directory)/dup.jsonl"])
        let verified = database.run("verify --json").stdout
        let clash = database.run("import --restore dup.jsonl")
        #expect(clash.status == 1 && clash.stderr.contains("User u-maya is already a member"), "\(clash.stderr)")
        #expect(database.run("verify --json").stdout == verified)  // rolled back: no family row, no line, no id
        // It goes on as on the file: the same next ids, the same views.
        let append = "log-interaction --as u-maya --school s-ucla --type email --direction outbound --subject Next --json"
        file.runAll(["import --restore lopez.jsonl --log restored.jsonl"])
        #expect(database.run(append).stdout.firstMatch(of: #/"id":"(i-[0-9]+)"/#)?.1
                == file.run(append + " --log restored.jsonl").stdout.firstMatch(of: #/"id":"(i-[0-9]+)"/#)?.1)
        for view in ["interactions --as u-maya --json", "schools --as u-pat --json", "documents --as u-pat --json"] {
            #expect(database.run(view).stdout == file.run(view + " --log restored.jsonl").stdout, "\(view)")
        }
    }

    /// A generated store of several families goes into PostgreSQL and comes back out as one
    /// file (`export --stream --all-families`): the same lines, and `verify` gives the same
    /// heads and root on the database, on the export and on the original.
    @Test func theWholeStoreComesBackOutAsOneLogWithTheSameRoot() throws {
        guard let address = try Self.database() else { return }
        let (cli, generated) = try Self.imported(families: 6, events: 900, seed: 11, into: address)
        let exported = cli.run("export --stream --all-families -o back.jsonl")
        #expect(exported.status == 0 && exported.stderr.contains("of 6 families"), "\(exported.stderr)")
        let back = try String(contentsOfFile: cli.directory + "/back.jsonl", encoding: .utf8)
        #expect(back.split(separator: "\n").sorted() == generated.split(separator: "\n").sorted())
        let onDatabase = cli.run("verify --json").stdout
        let onExport = try Binary.run(["verify", "--json", "--log", cli.directory + "/back.jsonl"]).stdout
        let onOriginal = try Binary.run(["verify", "--json", "--log", cli.directory + "/history.jsonl"]).stdout
        #expect(!onDatabase.isEmpty && onDatabase == onExport && onExport == onOriginal)
        #expect(cli.run("export --stream --all-families --family fam-1").stderr.contains("does not go with"))
    }

    @Test func anErasureRewritesOnlyItsFamilyAndTheOldHeadStillVerifies() throws {
        guard let address = try Self.database() else { return }
        let (file, database) = Self.both(address, Self.script)
        let head = try #require(FamilyStreamsTests.head(of: "fam-lopez", in: database.run("verify").stdout))
        let park = database.run("export --stream --family fam-park").stdout
        let erase = "erase --as u-pat --member u-maya --event-id ev-erase"
        #expect(file.run(erase).stdout == database.run(erase).stdout)
        #expect(file.run("export --stream --family fam-lopez").stdout == database.run("export --stream --family fam-lopez").stdout)
        #expect(database.run("export --stream --family fam-park").stdout == park)
        let proven = database.run("verify --expect-head \(head)")
        #expect(proven.status == 0 && proven.stdout.contains("expected head: proven through the erasure"), "\(proven.stdout)")
        #expect(!database.run("export --stream --family fam-lopez").stdout.contains("Maya"))
        // The erased member's id is free again, as on files.
        #expect(database.run("add-member --user u-maya --name 'Maya Again' --role parent --family fam-new").status == 0)
    }

    /// Two processes racing on the same `--expect-version` of one family: exactly one wins
    /// each round; the other gets the typed conflict and writes nothing.
    @Test func racingAppendersOnOneVersionExactlyOneWins() throws {
        guard let address = try Self.database() else { return }
        let cli = CLIHarness()
        cli.database = address
        cli.runAll(["add-member --user u-pat --name Pat --role parent --family fam-a", "add-school --as u-pat --name UCLA --school s-1"])
        for round in 0..<4 {
            let version = 2 + round
            let processes = (0..<3).map { w -> (Process, Pipe) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: Binary.path)
                process.arguments = ["change-status", "--as", "u-pat", "--school", "s-1", "--status", "contacted",
                                     "--notes", "r\(round)-w\(w)", "--expect-version", String(version), "--log", address]
                let err = Pipe()
                process.standardError = err
                process.standardOutput = FileHandle.nullDevice
                return (process, err)
            }
            for (process, _) in processes { try process.run() }
            var winners = 0
            for (process, err) in processes {
                process.waitUntilExit()
                let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                if process.terminationStatus == 0 { winners += 1 } else { #expect(message.hasPrefix("error: Conflict: expected version \(version)"), "\(message)") }
            }
            #expect(winners == 1)
        }
        #expect(cli.run("verify").stdout.contains("family fam-a: seq 6\n  head "))
    }

    @Test func withoutTablesTheStoreSaysHowToMakeThemAndNoPasswordIsPrinted() throws {
        guard try Self.database() != nil, let base = ProcessInfo.processInfo.environment["PGDATABASE"] else { return }
        let name = "compass_empty_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection("postgresql:///\(base)").run("CREATE DATABASE \(name)")
        let cli = CLIHarness()
        cli.database = "postgresql://someone:s3cret@localhost:1/\(name)"
        let refused = cli.run("replay")
        #expect(refused.status == 1 && !refused.stderr.contains("s3cret"), "\(refused.stderr)")
        cli.database = "postgresql:///\(name)"
        #expect(cli.run("replay").stderr.contains("create them with: compass db init"))
        #expect(cli.run("db migrate").stderr.contains("no Compass tables"))
        // Tables of schema 1 (the first cut: no one-statement append) are upgraded, once.
        let database = try PostgresConnection("postgresql:///\(name)")
        for statement in PostgresSchema.migrations[0] { try database.run(statement) }
        try database.run("INSERT INTO compass_meta (key, value) VALUES ('schema', 1)")
        #expect(cli.run("db migrate").stdout == "schema version 1 → \(PostgresSchema.version)\n")
        #expect(cli.run("db migrate").stdout == "schema already at version \(PostgresSchema.version): nothing to do\n")
        #expect(cli.run("db init").stdout == "schema already at version \(PostgresSchema.version): nothing to do\n")
        #expect(cli.run("add-member --user u-pat --name Pat --role parent --family fam-a").status == 0)
        #expect(cli.run("add-school --as u-pat --name UCLA").stdout == "s-ucla\n")
    }

    /// The change feed under concurrent appenders: every committed event exactly once, each
    /// family's in `seq` order, although transaction ids do not follow `seq` (writers woken
    /// together race for a family's row).
    @Test func theFeedDeliversEveryCommittedEventOnceInEachFamilysOrder() async throws {
        guard let address = try Self.database() else { return }
        let setup = try CompassStore(path: address)
        for family in 0..<4 {
            try setup.append(.addMember(AddMember(userId: "u-\(family)", fullName: "P \(family)", role: .parent, newFamily: "fam-\(family)")),
                             as: "u-\(family)")
        }
        let feed = try CompassStore(path: address).changes(every: .milliseconds(10))
        let writers = (0..<6).map { writer in
            Thread {
                guard let store = try? CompassStore(path: address) else { return }
                for n in 0..<40 {
                    _ = try? store.append(.changeNotificationSettings(ChangeNotificationSettings(inboundAlerts: n % 2 == 0)),
                                          as: "u-\((writer + n) % 4)", idempotencyKey: "w\(writer)-\(n)")
                }
            }
        }
        for writer in writers { writer.start() }
        var seen: [String] = []
        var lastSeq: [String: Int64] = [:]
        var ordered = true
        for await event in feed {
            seen.append(event.id)
            if let last = lastSeq[event.family], event.seq != last + 1 { ordered = false }
            lastSeq[event.family] = event.seq
            if seen.count == 240 { break }
        }
        #expect(Set(seen).count == 240 && seen.count == 240)
        #expect(ordered, "a family's events came out of seq order")
        #expect(try setup.verify().ok)
    }

    /// Appending processes SIGKILLed at random moments: every append that was acknowledged
    /// (exit 0) is in the store, no batch is partial (a new coach and its interaction are one
    /// batch), and every chain verifies.
    @Test func killedAppendersLoseNoAcknowledgedAppendAndLeaveNoPartialBatch() throws {
        guard let address = try Self.database() else { return }
        let cli = CLIHarness()
        cli.database = address
        cli.runAll(["add-member --user u-pat --name Pat --role parent --family fam-a",
                    "add-member --as u-pat --user u-kid --name Kid --role player",
                    "add-school --as u-pat --name UCLA --school s-1"])
        var acknowledged: [String] = []
        var rng = SplitMix64(seed: 42)
        for round in 0..<12 {
            let processes = (0..<4).map { w -> Process in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: Binary.path)
                let id = "k\(round)-\(w)"
                process.arguments = ["log-interaction", "--as", "u-kid", "--school", "s-1", "--type", "email", "--direction", "inbound",
                                     "--new-coach", "Coach \(id)", "--coach-role", "head", "--event-id", id, "--log", address]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                return process
            }
            for process in processes { try process.run() }
            usleep(UInt32(rng.below(40_000)))
            for process in processes where rng.below(2) == 0 { kill(process.processIdentifier, SIGKILL) }
            for (w, process) in processes.enumerated() {
                process.waitUntilExit()
                if process.terminationReason == .exit, process.terminationStatus == 0 { acknowledged.append("k\(round)-\(w)") }
            }
        }
        let store = try CompassStore(path: address)
        let state = try store.state()
        for id in acknowledged { #expect(state.eventIds.contains(id), "acknowledged \(id) is missing") }
        // Each interaction's coach is there (the batch is whole), and each coach has its interaction.
        let family = try #require(state.families["fam-a"])
        #expect(family.interactions.records.count == family.coaches.count)
        #expect(try store.verify().ok)
        print("postgres kill test: \(acknowledged.count) of 48 acknowledged")
    }

    /// `compass erase` SIGKILLed at random moments of its transaction: each time the family
    /// is whole, either as it was (the member still there) or erased (the record appended),
    /// and every chain verifies; then it erases to the end.
    @Test func anErasureKilledMidwayLeavesTheFamilyOldOrNewWhole() throws {
        guard let address = try Self.database() else { return }
        let (cli, _) = try Self.imported(families: 1, events: 3000, seed: 31, into: address)
        let state = try CompassStore(path: address).state()
        let parent = try #require(state.members.values.filter { $0.role == .parent }.map(\.userId).min())
        let player = try #require(state.members.values.filter { $0.role == .player }.map(\.userId).min())
        var rng = SplitMix64(seed: 7)
        var outcomes: [String] = []
        // Kill moments spread over the erase's run (process start, read, plan, transaction),
        // later each round, until one erase commits: the same first second in 16 rounds.
        let rounds = 16, step = 960_000 / rounds
        for round in 0..<rounds {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["erase", "--as", parent, "--member", player, "--log", address]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(round * step + rng.below(step)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try CompassStore(path: address).state()
            let erased = now.members[player] == nil
            outcomes.append(erased ? "new" : "old")
            #expect(try CompassStore(path: address).verify().ok)
            let stream = cli.run("export --stream --family fam-1").stdout
            #expect(stream.contains("\"ErasureRecorded\"") == erased, "the record and the erased member disagree")
            #expect(erased || stream.contains("\"\(player)\""))
            if erased { break }
        }
        if !outcomes.contains("new") { #expect(cli.run("erase --as \(parent) --member \(player)").status == 0) }
        #expect(try CompassStore(path: address).state().members[player] == nil)
        #expect(try CompassStore(path: address).verify().ok)
        print("postgres erase kill: \(outcomes)")
    }

    /// The server ends the appenders' connections over and over (an administrator, a
    /// failover) while they append with idempotency keys: each acknowledged append is there
    /// exactly once, and every chain verifies.
    @Test func connectionsEndedMidAppendLoseNothingAndWriteNothingTwice() throws {
        guard let address = try Self.database() else { return }
        let setup = try CompassStore(path: address)
        for family in 0..<4 {
            try setup.append(.addMember(AddMember(userId: "u-\(family)", fullName: "P", role: .parent, newFamily: "fam-\(family)")),
                             as: "u-\(family)")
        }
        final class Acknowledged: @unchecked Sendable {
            let lock = NSLock()
            var ids: [String] = []
        }
        let acknowledged = Acknowledged()
        let stop = Date().addingTimeInterval(6)
        let writers = (0..<4).map { writer in
            Thread {
                guard let store = try? CompassStore(path: address) else { return }
                var n = 0
                while Date() < stop {
                    n += 1
                    let id = "d\(writer)-\(n)"
                    // Retried as an app retries a lost answer: the same key until acknowledged.
                    for _ in 0..<5 {
                        if (try? store.append(.addSchool(AddSchool(name: "School \(id)")), as: "u-\(writer)", idempotencyKey: id)) != nil {
                            acknowledged.lock.withLock { acknowledged.ids.append(id) }
                            break
                        }
                    }
                }
            }
        }
        for writer in writers { writer.start() }
        let admin = try PostgresConnection(address)
        var ended = 0
        while Date() < stop {
            usleep(30_000)
            ended += (try? admin.run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()").count) ?? 0
        }
        while writers.contains(where: { !$0.isFinished }) { usleep(20_000) }
        let ids = acknowledged.lock.withLock { acknowledged.ids }
        let state = try CompassStore(path: address).state()
        for id in ids { #expect(state.eventIds.contains(id), "acknowledged \(id) is missing") }
        var schools = 0
        for family in state.families.values { schools += family.schools.count }
        // A key written twice would be a second school of the same name, which the rules refuse,
        // so the retry would fail instead of being acknowledged: every acknowledged key is one school.
        #expect(schools >= ids.count && !ids.isEmpty)
        #expect(try setup.verify().ok)
        print("postgres ended connections: \(ids.count) acknowledged, \(ended) terminations")
    }

    /// An app's store on PostgreSQL reads its viewer's family, follows what other writers add
    /// to it, and reads another family (or every family) when asked.
    @Test func anAppsReadsFollowTheViewersFamilyAndWidenWhenAsked() throws {
        guard let address = try Self.database() else { return }
        let (file, _) = Self.both(address, Self.script)
        let app = try CompassStore(path: address, configuration: .init(clock: { Timestamp(rfc3339: "2026-03-02T00:00:00Z")! }))
        let before = try app.interactions(as: "u-pat").items.map(\.id)
        #expect(!before.isEmpty && file.run("interactions --as u-pat --json").stdout.contains(#"{"id":"\#(before[0])""#))
        let other = try CompassStore(path: address)
        try other.append(.logInteraction(LogInteraction(type: .text, direction: .outbound, schoolId: "s-ucla", subject: "Later")), as: "u-maya")
        try other.append(.addSchool(AddSchool(name: "Duke")), as: "u-kim")
        #expect(try app.interactions(as: "u-pat").items.count == before.count + 1)
        #expect(try app.interactions(as: "u-kim").items.map(\.subject) == ["Call"])
        #expect(try app.state().families.count == 2)
        #expect(try app.state().families["fam-park"]?.schools["s-duke"] != nil)
    }

    /// The server drops the store's connection (an administrator, a restart, the network):
    /// the next read and append connect again, and nothing is written twice.
    @Test func aDroppedConnectionIsMadeAgainAndNothingIsWrittenTwice() throws {
        guard let address = try Self.database() else { return }
        let store = try CompassStore(path: address)
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "fam-a")), as: "u-pat")
        let admin = try PostgresConnection(address)
        func dropOthers() throws {
            try admin.run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        }
        try dropOthers()
        try store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat", idempotencyKey: "after-drop")
        try dropOthers()
        #expect(try store.interactions(as: "u-pat").items.isEmpty)
        try dropOthers()
        try store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat", idempotencyKey: "after-drop")  // a retry: written once
        let state = try CompassStore(path: address).state()
        #expect(state.families["fam-a"]?.schools.count == 1)
        #expect(try store.verify().ok)
    }

    /// A process decides an append against its own replay of the family, kept between
    /// appends; another process moved the family meanwhile. A refusal that replay would give
    /// (an unknown school, a stale `--expect-version`) is not given before the newer lines are
    /// read, and a real stale version carries the family's current version.
    @Test func anAppendDecidedAgainstAnOldReplayCatchesUpBeforeRefusing() throws {
        guard let address = try Self.database() else { return }
        let app = try CompassStore(path: address), other = try CompassStore(path: address)
        try app.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "fam-a")), as: "u-pat")
        try app.append(.addMember(AddMember(userId: "u-kid", fullName: "Kid", role: .player)), as: "u-pat")
        try app.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")  // the app's replay of fam-a: version 3
        try other.append(.addSchool(AddSchool(name: "Duke")), as: "u-pat")  // version 4, unseen by the app
        let receipt = try app.append(.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-duke")), as: "u-kid",
                                     expectVersion: 4)
        #expect(receipt.seq == 5)
        try other.append(.addSchool(AddSchool(name: "Rice")), as: "u-pat")  // version 6
        #expect(throws: StoreError.staleVersion(family: "fam-a", expected: 5, current: 6)) {
            try app.append(.addSchool(AddSchool(name: "Yale")), as: "u-pat", expectVersion: 5)
        }
        #expect(throws: StoreError.self) {
            try app.append(.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-nowhere")), as: "u-kid")
        }
        #expect(try app.verify().ok)
        #expect(try CompassStore(path: address).state().families["fam-a"]?.schools.count == 3)
    }

    /// Another process erases a member while this one keeps a replay of the family: the next
    /// append is decided against the family as the erasure left it (the store's erasure
    /// generation moved), and every chain still verifies.
    @Test func anErasureByAnotherProcessIsSeenByTheNextAppend() throws {
        guard let address = try Self.database() else { return }
        let app = try CompassStore(path: address), other = try CompassStore(path: address)
        try app.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "fam-a")), as: "u-pat")
        try app.append(.addMember(AddMember(userId: "u-kid", fullName: "Kid", role: .player)), as: "u-pat")
        try app.append(.addSchool(AddSchool(name: "UCLA")), as: "u-kid")
        _ = try other.erase(member: "u-kid", as: "u-pat")
        #expect(throws: StoreError.self) { try app.append(.addSchool(AddSchool(name: "Duke")), as: "u-kid") }
        try app.append(.addSchool(AddSchool(name: "Rice")), as: "u-pat")
        // The erased id is free again, in any family.
        try app.append(.addMember(AddMember(userId: "u-kid", fullName: "Kid Again", role: .player)), as: "u-pat")
        #expect(try app.verify().ok)
        #expect(try CompassStore(path: address).state().members["u-kid"]?.fullName == "Kid Again")
    }

    /// A role that may only connect learns nothing from `LISTEN` while families write: it
    /// cannot read the store's channel name (`compass_channel`), and the channels it can name
    /// (the old `compass_events`, the family ids) stay silent. The store's own role, listening
    /// on the real channel, hears each append, with an empty payload.
    @Test func aRoleThatCanOnlyConnectHearsNothingWhileFamiliesWrite() throws {
        guard let address = try Self.database() else { return }
        let admin = try PostgresConnection(address)
        let role = "compass_listen_" + UUID().uuidString.lowercased().prefix(8)
        let database = String(address.dropFirst("postgresql:///".count))
        try admin.run("CREATE ROLE \(role) LOGIN PASSWORD 'listen-only'")
        defer { _ = try? admin.run("DROP OWNED BY \(role)"); _ = try? admin.run("DROP ROLE \(role)") }
        try admin.run("GRANT CONNECT ON DATABASE \(database) TO \(role)")
        let environment = ProcessInfo.processInfo.environment
        let host = environment["PGHOST"] ?? "localhost", port = environment["PGPORT"] ?? "5432"
        let outsider = try PostgresConnection("postgresql://\(role):listen-only@\(host.hasPrefix("/") ? "" : host):\(port)/\(database)"
                                              + (host.hasPrefix("/") ? "?host=\(host)" : ""))
        #expect(throws: (any Error).self) { try outsider.run("SELECT name FROM compass_channel") }
        for channel in ["compass_events", "fam_a", "\"fam-a\"", "compass"] { try outsider.run("LISTEN \(channel)") }
        let store = try CompassStore(path: address)
        let channel = try #require(try admin.run("SELECT name FROM compass_channel").rows.first?[0] ?? nil)
        #expect(PostgresSchema.isChannel(channel))
        try admin.run("LISTEN \(channel)")
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "fam-a")), as: "u-pat")
        try store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
        #expect(admin.waitForNotification(milliseconds: 5_000), "the store's own role hears the appends")
        #expect(!outsider.waitForNotification(milliseconds: 1_500), "a connect-only role heard a notification")
        // Nor can it wake the feeds: a NOTIFY on any channel it can name reaches no store listener.
        while admin.waitForNotification(milliseconds: 500) {}  // the appends' own, each commit's
        try outsider.run("NOTIFY compass_events, 'fam-a'")
        #expect(!admin.waitForNotification(milliseconds: 1_000))
    }

    /// README's grants, as written there, are enough: an appender role appends, reads, feeds
    /// and erases; a reader role reads and verifies and is refused an append.
    @Test func theReadmesGrantsAreWhatEachRoleNeeds() throws {
        guard let address = try Self.database() else { return }
        let admin = try PostgresConnection(address)
        let database = String(address.dropFirst("postgresql:///".count))
        let suffix = UUID().uuidString.lowercased().prefix(8)
        let app = "compass_app_\(suffix)", reader = "compass_read_\(suffix)"
        let readme = try String(contentsOfFile: Binary.packageRoot + "/README.md", encoding: .utf8)
        func grants(_ role: String) throws -> [String] {
            let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| \(role) (") })
            let cell = try #require(row.split(separator: "|").last { $0.contains("GRANT") })
            return cell.components(separatedBy: "`").filter { $0.contains("GRANT") }.flatMap { $0.split(separator: ";") }
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let environment = ProcessInfo.processInfo.environment
        let host = environment["PGHOST"] ?? "localhost", port = environment["PGPORT"] ?? "5432"
        func roleAddress(_ role: String) -> String {
            "postgresql://\(role):pw@\(host.hasPrefix("/") ? "" : host):\(port)/\(database)" + (host.hasPrefix("/") ? "?host=\(host)" : "")
        }
        for (role, name) in [("appender", app), ("reader", reader)] {
            try admin.run("CREATE ROLE \(name) LOGIN PASSWORD 'pw'")
            for grant in try grants(role) {
                try admin.run(grant.replacingOccurrences(of: "DATABASE compass ", with: "DATABASE \(database) ")
                    .replacingOccurrences(of: role == "appender" ? "TO compass_app" : "TO compass_read", with: "TO \(name)"))
            }
        }
        defer { for name in [app, reader] { _ = try? admin.run("DROP OWNED BY \(name)"); _ = try? admin.run("DROP ROLE \(name)") } }
        let writer = try CompassStore(path: roleAddress(app))
        try writer.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "fam-a")), as: "u-pat")
        try writer.append(.addMember(AddMember(userId: "u-kid", fullName: "Kid", role: .player)), as: "u-pat")
        try writer.append(.addSchool(AddSchool(name: "UCLA")), as: "u-kid")
        _ = try writer.erase(member: "u-kid", as: "u-pat")
        try writer.append(.addSchool(AddSchool(name: "Rice")), as: "u-pat")
        let readOnly = try CompassStore(path: roleAddress(reader))
        #expect(try readOnly.schools(as: "u-pat").map(\.name) == ["Rice"])
        #expect(try readOnly.verify().ok)
        #expect(throws: StoreError.self) { try readOnly.append(.addSchool(AddSchool(name: "Duke")), as: "u-pat") }
    }

    /// A feed is woken by the append's `NOTIFY`, not by its interval: with an interval of ten
    /// minutes, an append is delivered (the test gives up after two).
    @Test func aFeedIsWokenByTheAppendsNotification() async throws {
        guard let address = try Self.database() else { return }
        let store = try CompassStore(path: address)
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "fam-a")), as: "u-pat")
        let feed = store.changes(every: .seconds(600))
        try await Task.sleep(for: .milliseconds(300))  // the feed has read what was there and waits
        try CompassStore(path: address).append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat", idempotencyKey: "woken")
        let first = await firstEvent(of: feed, giveUpAfter: .seconds(120))
        #expect(first?.id == "woken")
    }

    /// A transaction left running, in another database of the cluster (another tenant) or in
    /// the store's own (an import), holds back no read: an append committed after it began is
    /// in the next read of a new store at once, and a feed delivers it when the append's
    /// `NOTIFY` wakes it, not after the transaction ends.
    @Test func aLongTransactionElsewhereHoldsNoReadBack() async throws {
        guard let address = try Self.database(), let elsewhere = try Self.database() else { return }
        let store = try CompassStore(path: address)
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "fam-a")), as: "u-pat")
        for (round, holder) in [elsewhere, address].enumerated() {
            let running = try PostgresConnection(holder)
            try running.run("BEGIN")
            try running.run("SELECT pg_current_xact_id()")  // the transaction has an id: every snapshot sees it running
            defer { _ = try? running.run("ROLLBACK") }
            let feed = store.changes(every: .seconds(600))
            try await Task.sleep(for: .milliseconds(300))  // the feed has read what was there and waits
            try CompassStore(path: address).append(.addSchool(AddSchool(name: "School \(round)")), as: "u-pat",
                                                   idempotencyKey: "held-\(round)")
            let schools = try CompassStore(path: address).state().family(id: "fam-a")?.schoolList.map(\.name)
            #expect(schools?.contains("School \(round)") == true, "round \(round): \(schools ?? [])")
            let first = await firstEvent(of: feed, giveUpAfter: .seconds(20))
            #expect(first?.id == "held-\(round)", "round \(round)")
        }
    }

    /// A viewer's feed on the database reads the viewer's family alone: its state holds that
    /// family, and still only that family after an erasure in another family (which sends
    /// every feed back to read again), and the family's next append is delivered once. A
    /// store-wide feed, beside it, holds both.
    @Test func aViewersFeedReadsTheirFamilyAloneAcrossAnotherFamilysErasure() throws {
        guard let address = try Self.database() else { return }
        let store = try CompassStore(path: address)
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "fam-a")), as: "u-pat")
        try store.append(.addMember(AddMember(userId: "u-kim", fullName: "Kim", role: .parent, newFamily: "fam-b")), as: "u-kim")
        try store.append(.addMember(AddMember(userId: "u-jae", fullName: "Jae", role: .player)), as: "u-kim")
        var viewers = try store.feed(for: "u-pat"), everyone = try store.feed()
        _ = try viewers.next()
        _ = try everyone.next()
        #expect(viewers.state.familyIds == ["fam-a"])
        #expect(everyone.state.familyIds.sorted() == ["fam-a", "fam-b"])
        _ = try store.erase(member: "u-jae", as: "u-kim")
        try CompassStore(path: address).append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat", idempotencyKey: "after-erasure")
        var delivered: [String] = []
        for _ in 0..<100 where !delivered.contains("after-erasure") {
            delivered += try viewers.next().map(\.id)
            if !delivered.contains("after-erasure") { usleep(50_000) }
        }
        #expect(delivered == ["after-erasure"])
        #expect(viewers.state.familyIds == ["fam-a"])
        #expect(viewers.state.family(id: "fam-a")?.schoolList.map(\.name) == ["UCLA"])
    }

    /// The server's postmaster is SIGKILLed while appenders write (then started again): every
    /// acknowledged append is there once, no batch is partial, and every chain verifies.
    @Test(.serverTurn(.alone)) func theServerKilledMidLoadLosesNoAcknowledgedAppend() throws {
        guard let address = try Self.database() else { return }
        let admin = try PostgresConnection(address)
        let cluster = try admin.run("SHOW cluster_name").rows.first?[0] ?? ""
        let dataDirectory = try admin.run("SHOW data_directory").rows.first?[0] ?? ""
        let parts = cluster.split(separator: "/")
        guard parts.count == 2, let pidText = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
              let postmaster = pidText.split(separator: "\n").first.flatMap({ Int32($0) }) else {
            #expect(ProcessInfo.processInfo.environment["COMPASS_REQUIRE_POSTGRES"] != "1", "cannot find the cluster to restart (\(cluster))")
            print("⚠️  theServerKilledMidLoadLosesNoAcknowledgedAppend SKIPPED: not a pg_ctlcluster cluster this process can restart")
            return
        }
        let setup = try CompassStore(path: address)
        for family in 0..<8 {
            try setup.append(.addMember(AddMember(userId: "u-\(family)", fullName: "P", role: .parent, newFamily: "fam-\(family)")),
                             as: "u-\(family)")
            try setup.append(.addMember(AddMember(userId: "u-k\(family)", fullName: "K", role: .player)), as: "u-\(family)")
            try setup.append(.addSchool(AddSchool(name: "UCLA")), as: "u-\(family)")
        }
        final class Acknowledged: @unchecked Sendable {
            let lock = NSLock()
            var ids: [String] = []
            var failures = 0
        }
        let acknowledged = Acknowledged()
        // The load runs for its time and, on a slow restart, until appends went through after it.
        let load = Date().addingTimeInterval(12)
        let stopping = Locked(false)
        let writers = (0..<6).map { writer in
            Thread {
                var store = try? CompassStore(path: address)
                var n = 0
                while !stopping.value {
                    n += 1
                    let family = (writer + n) % 8, id = "w\(writer)-\(n)"
                    do {
                        if store == nil { store = try CompassStore(path: address) }
                        // A batch: a new coach and the interaction naming it.
                        _ = try store!.append(.logInteraction(LogInteraction(type: "email", direction: "inbound", schoolId: "s-ucla",
                                                                             newCoach: NewCoach(firstName: "Coach", lastName: id, role: "head"))),
                                              as: "u-k\(family)", idempotencyKey: id)
                        acknowledged.lock.withLock { acknowledged.ids.append(id) }
                    } catch {
                        acknowledged.lock.withLock { acknowledged.failures += 1 }
                        usleep(50_000)
                    }
                }
            }
        }
        for writer in writers { writer.start() }
        usleep(2_000_000)
        let beforeKill = acknowledged.lock.withLock { acknowledged.ids.count }
        kill(postmaster, SIGKILL)
        usleep(1_000_000)
        // Started again once its old backends are gone (they exit when they see it died).
        var started = false
        for _ in 0..<60 where !started {
            // Spawned and reaped here: Foundation's `Process` misses the exit of a child that
            // changes its user (pg_ctlcluster runs the server as postgres).
            started = Self.spawnAndWait(["/usr/bin/pg_ctlcluster", String(parts[0]), String(parts[1]), "start"]) == 0
            if !started { usleep(500_000) }
        }
        #expect(started, "the cluster did not start again")
        let afterRestart = acknowledged.lock.withLock { acknowledged.ids.count }
        let giveUp = Date().addingTimeInterval(30)
        while Date() < load || (acknowledged.lock.withLock { acknowledged.ids.count } <= afterRestart && Date() < giveUp) {
            usleep(50_000)
        }
        stopping.value = true
        while writers.contains(where: { !$0.isFinished }) { usleep(50_000) }
        let store = try CompassStore(path: address)
        let state = try store.state()
        var coaches = 0, interactions = 0
        for family in state.families.values {
            coaches += family.coaches.count
            interactions += family.interactions.records.count
        }
        let ids = acknowledged.lock.withLock { acknowledged.ids }
        for id in ids { #expect(state.eventIds.contains(id), "acknowledged \(id) is missing") }
        #expect(coaches == interactions, "a batch is partial: \(coaches) coaches, \(interactions) interactions")
        #expect(interactions >= ids.count)
        #expect(beforeKill > 0 && ids.count > afterRestart, "appends must succeed before the kill and after the restart")
        #expect(try store.verify().ok)
        print("postgres postmaster kill: \(ids.count) acknowledged, \(interactions) stored, \(acknowledged.failures) failed while the server was down")
    }
}

extension PostgresStoreTests {
    /// Runs a program with its output discarded; its exit status (-1 when it could not run).
    static func spawnAndWait(_ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}

/// The first element a stream yields, or nil once `limit` passes.
func firstEvent<Element: Sendable>(of stream: AsyncStream<Element>, giveUpAfter limit: Duration) async -> Element? {
    await withTaskGroup(of: Element?.self) { group in
        group.addTask {
            for await element in stream { return element }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// The server the PostgreSQL suite runs against.
enum PostgresServer {
    /// Whether libpq's `PG*` variables name a server and a database.
    static var named: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["PGDATABASE"] != nil && (environment["PGHOST"] != nil || environment["PGPORT"] != nil)
    }
}

/// CI requires the PostgreSQL suite to run: with `COMPASS_REQUIRE_POSTGRES=1` and no server
/// named, this fails instead of the suite being skipped unnoticed.
@Suite struct PostgresRequirementTests {
    @Test func aRequiredServerIsThere() {
        #expect(ProcessInfo.processInfo.environment["COMPASS_REQUIRE_POSTGRES"] != "1" || PostgresServer.named,
                "COMPASS_REQUIRE_POSTGRES is set but no PostgreSQL server is named (PGHOST/PGPORT and PGDATABASE)")
    }
}
