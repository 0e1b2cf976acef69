import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// `import` into PostgreSQL a block at a time, in one transaction (issue 56 item 4): whatever
/// the block size it gives a file store's answer and the same lines, a refused import writes
/// nothing, and an import killed at any moment is in the store whole or not at all, while
/// other writers append to the same families. Nested in ``PostgresStoreTests``, whose
/// `.serverTurn(.shared)` reaches it: no test here runs while another restarts the server.
extension PostgresStoreTests {
@Suite struct PostgresImportTests {
    /// Lines of each import the kill test runs (in blocks of 50).
    static let batchLines = 2_000

    /// The address in a warning or error, as the file store's path would read.
    static func same(_ file: CLIHarness.Result, _ database: CLIHarness.Result, fileLog: String, address: String) -> Bool {
        file.status == database.status && file.stdout == database.stdout
            && file.stderr.replacingOccurrences(of: fileLog, with: "LOG")
            == database.stderr.replacingOccurrences(of: CompassStore.displayAddress(address), with: "LOG")
    }

    /// Files with schools, coaches and interactions of a seeded family, members joining new
    /// families, lines with and without `family`, and in some an unreadable line, an unknown
    /// actor or a repeated id (``ImportBlocksTests/importFile(seed:)``): the same answer and,
    /// when accepted, the same heads as a file store, in blocks of one line, three, or the
    /// default; refused, the store is as it was.
    @Test(arguments: 0..<6)
    func anyBlockSizeGivesAFileStoresAnswerAndLines(seed: Int) throws {
        let file = ImportBlocksTests.importFile(seed: UInt64(seed))
        for size in ["1", "3", nil] as [String?] {
            guard let address = try PostgresStoreTests.database() else { return }
            let onFile = CLIHarness(), onDatabase = CLIHarness()
            onDatabase.database = address
            onFile.seedFamily()
            onDatabase.seedFamily()
            let before = onDatabase.run("verify --json")
            for cli in [onFile, onDatabase] { cli.write("in.jsonl", file.text) }
            let environment = size.map { ["COMPASS_IMPORT_BLOCK_LINES": $0] } ?? [:]
            let a = onFile.run(["import", "in.jsonl", "--now", "2026-03-01T00:00:00Z"], environment: environment)
            let b = onDatabase.run(["import", "in.jsonl", "--now", "2026-03-01T00:00:00Z"], environment: environment)
            let context = "seed \(seed), block \(size ?? "default")"
            #expect(Self.same(a, b, fileLog: onFile.logPath, address: address), "\(context)\nfile:\n\(a.stderr)\ndatabase:\n\(b.stderr)")
            #expect(a.status == (file.rejected.isEmpty ? 0 : 1), "\(context): \(a.stderr)")
            let after = onDatabase.run("verify --json")
            if file.rejected.isEmpty {
                #expect(after.status == 0 && after.stdout == onFile.run("verify --json").stdout, "\(context)")
            } else {
                #expect(after.stdout == before.stdout, "\(context): a refused import changed the store")
            }
        }
    }

    /// An app's lines of a generated history (no `seq`, no `prev`; texts with quotes,
    /// backslashes and every script the generator writes) imported in blocks come back as the
    /// generator's lines: the same root, and each family's export byte for byte.
    @Test(arguments: ["97", nil] as [String?])
    func anAppsGeneratedHistoryImportsBackToItsLines(size: String?) throws {
        guard let address = try PostgresStoreTests.database() else { return }
        let cli = CLIHarness()
        cli.database = address
        let generated = cli.run(["generate", "--events", "2000", "--families", "5", "--seed", "12"]).stdout
        let seq = try Regex(#"^\{"seq":[0-9]+,"#), prev = try Regex(#","prev":"[0-9a-f]{64}"\}$"#)
        let appLines = generated.split(separator: "\n").map { String($0).replacing(seq, with: "{").replacing(prev, with: "}") }
        cli.write("app.jsonl", appLines.joined(separator: "\n") + "\n")
        cli.write("generated.jsonl", generated)
        let result = cli.run(["import", "app.jsonl"], environment: size.map { ["COMPASS_IMPORT_BLOCK_LINES": $0] } ?? [:])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = cli.run(["verify", "--json", "--log", cli.directory + "/generated.jsonl"]).stdout
        #expect(cli.run("verify --json").stdout == expected)
        let families = Set(generated.split(separator: "\n").compactMap { line in
            line.firstRange(of: #""family":""#).map { String(line[$0.upperBound...].prefix { $0 != "\"" }) }
        })
        #expect(families.count == 5)
        for family in families.sorted() {
            let lines = generated.split(separator: "\n").filter { $0.contains(#""family":"\#(family)""#) }
            #expect(cli.run(["export", "--stream", "--family", family]).stdout == lines.joined(separator: "\n") + "\n", "\(family)")
        }
    }

    /// `compass import` processes killed at random moments, in blocks of 50 lines, while
    /// another process appends to the same family: every import is in the store whole or not
    /// at all (whole when it was acknowledged), every acknowledged append is there once, and
    /// the family's chain verifies.
    @Test func importsKilledAtRandomMomentsAreAllOrNothing() throws {
        guard let address = try PostgresStoreTests.database() else { return }
        let cli = CLIHarness()
        cli.database = address
        cli.seedFamily()
        let db = try PostgresConnection(address)
        var rng = SplitMix64(seed: 56)
        var kills = 0, committed = 0, round = 0
        // Another writer appends to the family throughout (each append waits for an import
        // holding the family's row, then goes on).
        let appended = Locked<[String]>([])
        let stop = Locked(false)
        let appender = Thread {
            var n = 0
            while !stop.value {
                n += 1
                let id = "a-\(n)"
                if let result = try? Binary.run(["change-status", "--as", "u-pat", "--school", "s-ucla", "--status", "contacted",
                                                 "--event-id", id, "--log", address]), result.status == 0 {
                    appended.mutate { $0.append(id) }
                }
            }
        }
        appender.start()
        defer { stop.mutate { $0 = true } }
        var window: useconds_t = 0
        while round < 40 {
            round += 1
            let lines = (1...Self.batchLines).map { n in
                #"{"id":"r\#(round)-\#(n)","type":"SchoolStatusChanged","actor":"u-pat","data":{"schoolId":"s-ucla","newStatus":"contacted","notes":"round \#(round) line \#(n) \\ with a backslash\tand a tab"}}"#
            }
            cli.write("batch.jsonl", lines.joined(separator: "\n") + "\n")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["import", cli.directory + "/batch.jsonl", "--log", address]
            process.environment = ProcessInfo.processInfo.environment.merging(["COMPASS_IMPORT_BLOCK_LINES": "50"]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let started = Date()
            try process.run()
            // One round in three runs whole: its time (the family grows each round) sets the
            // window the next two rounds' kills land in.
            let measured = round % 3 == 1
            if !measured {
                usleep(useconds_t(rng.below(Int(window))))
                if process.isRunning { kill(process.processIdentifier, SIGKILL); kills += 1 }
            }
            process.waitUntilExit()
            if measured { window = useconds_t(Date().timeIntervalSince(started) * 1_000_000) }
            let acknowledged = process.terminationReason == .exit && process.terminationStatus == 0
            let present = Int(try db.run("SELECT count(*) FROM event_ids WHERE event_id LIKE $1", [.text("r\(round)-%")]).rows[0][0]!)!
            #expect(present == 0 || present == Self.batchLines, "round \(round): \(present) of \(Self.batchLines)")
            if acknowledged { #expect(present == Self.batchLines, "round \(round): acknowledged, \(present) of \(Self.batchLines)") }
            if present == Self.batchLines { committed += 1 }
        }
        stop.mutate { $0 = true }
        while !appender.isFinished { usleep(10_000) }
        for id in appended.value {
            let count = try db.run("SELECT count(*) FROM event_ids WHERE event_id = $1", [.text(id)]).rows[0][0]
            #expect(count == "1", "acknowledged append \(id): \(count ?? "none")")
        }
        let verify = cli.run("verify")
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(kills > 1 && committed > 1, "\(kills) kills, \(committed) committed")
        print("PostgreSQL import kill test: \(kills) kills over \(round) imports, \(committed) whole, none partial; \(appended.value.count) appends beside them")
    }
}
}
