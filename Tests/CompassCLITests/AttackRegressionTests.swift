import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

#if canImport(Glibc)
import Glibc
#endif

/// One test per finding of the independent attack on the store (issue 12), each named for
/// what it proves; every one failed on the code before the fix.
@Suite(.serialized) struct AttackRegressionTests {
    // MARK: 2. Acknowledged means readable: times outside years 0000–9999 are refused

    @Test func timesOutsideTheValidRangeAreRefusedByEveryWriterAndOption() {
        let cli = CLIHarness()
        cli.seedFamily()
        for time in ["9999-12-31T23:59:59.999-23:59", "0000-01-01T00:00:00+23:59"] {
            let logged = cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email",
                                  "--direction", "outbound", "--occurred-at", time])
            #expect(logged.status == 2 && logged.stderr.hasPrefix("error: invalid time '\(time)' for '--occurred-at'"),
                    "\(time): \(logged.stderr)")
            let now = cli.run(["add-school", "--as", "u-pat", "--name", "Late", "--now", time])
            #expect(now.status == 2 && now.stderr.hasPrefix("error: invalid time"))
        }
        cli.write("late.jsonl", #"{"type":"SchoolAdded","at":"9999-12-31T23:59:59.999-23:59","actor":"u-pat","data":{"schoolId":"s-z","name":"Z"}}"# + "\n")
        let imported = cli.run(["import", "late.jsonl"])
        #expect(imported.status == 1 && imported.stderr.contains("line 1: field at must be an RFC 3339 time"))
        #expect(cli.run(["verify"]).status == 0)
    }

    /// Property over the edges: a time is accepted exactly when its instant is in range, and
    /// every accepted time is written and read back to the same instant.
    @Test func everyAcceptedTimeRoundTripsAndOnlyValidInstantsAreAccepted() {
        var rng = SplitMix64(seed: 12)
        let edges = ["0000-01-01T00:00:00", "0000-01-01T23:59:59", "9999-12-31T00:00:00", "9999-12-31T23:59:59", "1970-01-01T00:00:00"]
        for _ in 0..<5000 {
            let edge = edges[rng.below(edges.count)]
            let millis = rng.below(2) == 0 ? "" : "." + String(String(rng.below(1000) + 1000).dropFirst())
            let hours = rng.below(24), minutes = rng.below(60)
            let zone = rng.below(3) == 0 ? "Z" : "\(rng.below(2) == 0 ? "+" : "-")\(String(hours + 100).dropFirst()):\(String(minutes + 100).dropFirst())"
            let text = edge + millis + zone
            let parsed = Timestamp(rfc3339: text)
            if let parsed {
                #expect(Timestamp.validRange.contains(parsed), "\(text)")
                #expect(Timestamp(rfc3339: parsed.rfc3339) == parsed, "\(text) → \(parsed.rfc3339)")
            }
        }
        #expect(Timestamp(rfc3339: "0000-01-01T00:00:00Z") == Timestamp.validRange.lowerBound)
        #expect(Timestamp(rfc3339: "9999-12-31T23:59:59.999Z") == Timestamp.validRange.upperBound)
        #expect(Timestamp(rfc3339: "0000-01-01T00:00:00.000+00:01") == nil)
        #expect(Timestamp(rfc3339: "9999-12-31T23:59:59.999-00:01") == nil)
    }

    // MARK: 3. Import reads every line as replay does

    @Test(arguments: [
        (#""data":5"#, "field data must be an object"),
        (#""data":{},"v":"x""#, "field v must be an integer"),
        (#""data":{},"family":"bad id""#, "field family must be an id"),
        (#""data":{},"seq":"1""#, "field seq must be a positive integer"),
        (#""data":{},"seq":9007199254740992"#, "field seq must be at most 9007199254740991"),
        (#""data":{"schoolId":"s-v2","name":"V2"},"v":2"#, "unsupported version 2"),
    ])
    func importReportsEachLineWithReplaysMessage(fields: String, message: String) {
        let cli = CLIHarness()
        cli.seedFamily()
        let line = #"{"type":"SchoolAdded","actor":"u-pat","#.dropLast() + "," + fields + "}"
        cli.write("in.jsonl", String(line) + "\n")
        let before = cli.logBytes
        let result = cli.run(["import", "in.jsonl"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("line 1: \(message)"), "\(result.stderr)")
        #expect(cli.logBytes == before)
        // Replay says the same of the same line inside a log's envelope (seq, id, at and family
        // added where the import line leaves them out).
        var envelope = #"{"type":"SchoolAdded","actor":"u-pat","#
        if !fields.contains(#""seq""#) { envelope += #""seq":1,"# }
        if !fields.contains(#""family""#) { envelope += #""family":"f-u-pat","# }
        let replayed = Replayer().consumingForTest(envelope + #""id":"e","at":"2026-01-01T00:00:00Z","# + fields + "}")
        #expect(replayed.contains(message), "\(replayed)")
    }

    // MARK: 4. Idempotent retries

    @Test func aRetryOfLogInteractionASecondLaterIsTheSameEvent() {
        let cli = CLIHarness()
        cli.seedFamily()
        let words = ["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "outbound",
                     "--subject", "Film", "--event-id", "ev-1", "--json"]
        let first = cli.run(words)
        cli.now = "2026-03-01T12:00:01Z"
        let retry = cli.run(words)
        #expect(first.status == 0 && retry.status == 0, "\(retry.stderr)")
        #expect(first.stdout == retry.stdout)
        #expect(cli.logText.components(separatedBy: "ev-1").count == 2)  // one line
        #expect(!cli.logText.contains("occurredAt"))  // `at` stands in
    }

    // MARK: 6. Temporary files

    @Test func theNextWriterRemovesTemporaryFilesOfDeadProcesses() {
        let cli = CLIHarness()
        cli.seedFamily()
        try? FileManager.default.createDirectory(atPath: cli.logPath + ".attachments", withIntermediateDirectories: true)
        let stale = [cli.logPath + ".snapshot.tmp-999999", cli.logPath + ".attachments/abc.tmp-999998"]
        let live = cli.logPath + ".snapshot.tmp-\(getpid())"
        for path in stale + [live] { _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8)) }
        #expect(cli.run("add-school --as u-pat --name Duke").status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale[0]))
        // The attachments folder is cleaned by the next writer that stores attachments there.
        cli.write("a.txt", "bytes")
        #expect(cli.run("log-interaction --as u-maya --school s-ucla --type email --direction inbound --attach a.txt").status == 0)
        for path in stale { #expect(!FileManager.default.fileExists(atPath: path), "\(path)") }
        #expect(FileManager.default.fileExists(atPath: live))  // a running process's file is left alone
    }

    // MARK: 7. No arithmetic on input traps

    @Test func aHugeSeqIsAProblemNotACrash() throws {
        let dir = Self.folder()
        let log = dir + "/x.jsonl"
        try Data("{\"seq\":9223372036854775807}\n{\"seq\":1}\n".utf8).write(to: URL(fileURLWithPath: log))
        let verify = try Binary.run(["verify", "--log", log])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("1: field seq must be at most 9007199254740991"))
        let add = try Binary.run(["add-member", "--user", "u-1", "--name", "One", "--role", "parent", "--family", "f-1", "--log", log])
        #expect(add.status == 0, "\(add.stderr)")
    }

    @Test(arguments: [
        ["activity", "--page", "4611686018427387904", "--page-size", "4"],
        ["activity", "--page-size", "9223372036854775807"],
        ["activity", "--page", "0"],
        ["follow", "--interval", "86400001"],
        ["interactions", "--at-seq", "9007199254740992"],
    ])
    func numericOptionsOutOfRangeAreUsageErrors(_ words: [String]) {
        let cli = CLIHarness()
        cli.seedFamily()
        let result = cli.run(words + ["--as", "u-pat"])
        #expect(result.status == 2, "\(words): \(result.stderr)")
        #expect(result.stderr.contains("expected an integer from"))
    }

    @Test func hugeColumnsAreClamped() {
        let cli = CLIHarness()
        cli.seedFamily()
        for columns in ["9223372036854775807", "100000000"] {
            let result = cli.run(["activity", "--as", "u-pat"], environment: ["COLUMNS": columns])
            #expect(result.status == 0)
        }
    }

    // MARK: 8. Never block on a FIFO

    @Test func fifosAreRefusedWithoutBlockingAndWithoutHoldingTheLock() throws {
        let dir = Self.folder()
        let log = dir + "/l.jsonl"
        try ReliabilityTests.seedLog(log)
        #expect(mkfifo(log + ".snapshot", 0o644) == 0)
        let read = try Binary.run(["interactions", "--as", "u-pat", "--log", log], environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "0"])
        #expect(read.status == 0, "\(read.stderr)")
        let append = try Binary.run(["add-school", "--as", "u-pat", "--name", "Duke", "--log", log])
        #expect(append.status == 0, "\(append.stderr)")
        let fifoLog = dir + "/fifo.jsonl"
        #expect(mkfifo(fifoLog, 0o644) == 0)
        for words in [["interactions", "--as", "u-pat"], ["replay"], ["add-school", "--as", "u-pat", "--name", "X"], ["follow", "--as", "u-pat"]] {
            let result = try Binary.run(words + ["--log", fifoLog])
            #expect(result.status == 1 && result.stderr.contains("is not a regular file"), "\(words): \(result.stderr)")
        }
        let fifoFile = dir + "/notes.txt"
        #expect(mkfifo(fifoFile, 0o644) == 0)
        let attach = try Binary.run(["log-interaction", "--as", "u-pat", "--type", "email", "--direction", "inbound",
                                     "--school", "s-1", "--attach", fifoFile, "--log", log])
        #expect(attach.status == 1 && attach.stderr.contains("is not a regular file"), "\(attach.stderr)")
        let folder = try Binary.run(["log-interaction", "--as", "u-pat", "--type", "email", "--direction", "inbound",
                                     "--school", "s-1", "--attach", dir + "/x.txt/", "--log", log])
        #expect(folder.status == 1)
    }

    // MARK: 9. Memory follows the state, not the number of bad lines

    @Test func aLogOfGarbageLinesIsReadInBoundedMemory() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return }
        let dir = Self.folder()
        let log = dir + "/events.jsonl"
        try ReliabilityTests.seedLog(log)
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data(String(repeating: "x\n", count: 1_000_000).utf8))
        handle.closeFile()
        for words in [["interactions", "--as", "u-pat"], ["replay"], ["audit", "--as", "u-pat"],
                      ["add-school", "--as", "u-pat", "--name", "Duke"]] {
            let (status, peakKB, stderr) = try Self.peakMemory(words + ["--log", log])
            #expect(status <= 1, "\(words): \(stderr)")
            #expect(peakKB > 0 && peakKB < 120_000, "\(words): peak RSS \(peakKB) KB for 1M bad lines")
        }
        let snapshot = (try? FileManager.default.attributesOfItem(atPath: log + ".snapshot")[.size] as? Int) ?? 0
        #expect(snapshot < 100_000, "snapshot of \(snapshot) bytes")
    }

    // MARK: 10. follow loses and repeats nothing

    @Test func followGoesOnAfterAHealAndAReplacedLog() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        let (process, collector) = try FollowTests.startFollow(log: cli.logPath, as: "u-maya")
        defer { if process.isRunning { process.terminate() } }
        usleep(300_000)
        // A torn fragment, then appends that move it aside.
        let handle = try #require(FileHandle(forWritingAtPath: cli.logPath))
        handle.seekToEndOfFile()
        handle.write(Data(("{\"seq\":6,\"id\":\"torn\",\"data\":\"" + String(repeating: "y", count: 1500)).utf8))
        handle.closeFile()
        usleep(200_000)
        for n in 1...5 {
            try FollowTests.append(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "text", "--direction", "outbound",
                                    "--subject", "After heal \(n)"], log: cli.logPath)
        }
        let healed = collector.wait(for: 5)
        #expect((1...5).allSatisfy { n in healed.contains { $0.contains("After heal \(n)") } }, "\(healed)")
        // The log replaced by another with one more item: only that item is new.
        let copy = cli.directory + "/next.jsonl"
        try FileManager.default.copyItem(atPath: cli.logPath, toPath: copy)
        try FollowTests.append(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "dm", "--direction", "inbound",
                                "--subject", "In the new file"], log: copy)
        #expect(rename(copy, cli.logPath) == 0)
        let after = collector.wait(for: 6)
        #expect(after.count == 6 && after[5].contains("In the new file"), "\(after)")
        usleep(300_000)
        #expect(collector.lines.count == 6)  // nothing repeated
    }

    @Test func followOnAnExistingLogWithAnUnknownViewerIsAnError() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        let result = try Binary.run(["follow", "--as", "u-typo", "--log", cli.logPath])
        #expect(result.status == 1 && result.stderr == "error: Unknown user u-typo\n")
    }

    // MARK: 11. Nothing of another family

    @Test func noOutputNamesAnotherFamilysMemberOrProblems() throws {
        let dir = Self.folder()
        let log = dir + "/l.jsonl"
        var text = ""
        HistoryGenerator(families: 2, events: 800, seed: 3).generate { text += String(decoding: $0, as: UTF8.self) + "\n" }
        // A problem on a line of family 2 only.
        text += #"{"seq":801,"id":"bad-2","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u-2-1","family":"fam-2","data":{"schoolId":"s-secret-2","name":"Secret"}}"# + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: log))
        var replayer = Replayer()
        replayer.consume(bytes: Array(text.utf8))
        let other = try #require(replayer.state.members["u-2-1"]?.fullName)
        let chip = try Binary.run(["interactions", "--as", "u-1-1", "--logged-by", "u-2-1", "--log", log])
        #expect(!chip.stdout.contains(other) && chip.stdout.contains("Logged by: u-2-1"), "\(chip.stdout)")
        #expect(!chip.stderr.contains("801") && !chip.stderr.contains("secret"), "\(chip.stderr)")
    }

    // MARK: 12. No control character from the log reaches a terminal

    @Test func terminalEscapesInTheLogAreShownEscapedEverywhere() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        let hostile = "UC\u{1B}]0;pwned\u{07}LA\u{9B}2J\u{7F}"
        #expect(cli.run(["add-school", "--as", "u-pat", "--name", hostile, "--school", "s-x"]).status == 0)
        #expect(cli.run(["log-interaction", "--as", "u-maya", "--school", "s-x", "--type", "email", "--direction", "outbound",
                         "--subject", "Hi \u{1B}[2J", "--content", "a\u{1B}]8;;http://x\u{07}link", "--other-coach", "\u{1B}c"]).status == 0)
        #expect(cli.run(["change-status", "--as", "u-pat", "--school", "s-x", "--status", "visited", "--notes", "n\u{1B}[H"]).status == 0)
        // A line with a hostile unknown type: its problem message quotes it.
        let handle = try #require(FileHandle(forWritingAtPath: cli.logPath))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":99,"id":"h","type":"X\u001b]0;t\u0007","at":"2026-01-01T00:00:00Z","actor":"u-pat","family":"f-u-pat","data":{}}"#.utf8 + [0x0A]))
        handle.closeFile()
        let interaction = cli.run(["interactions", "--as", "u-pat", "--json"]).stdout
        let id = interaction.components(separatedBy: #""id":""#).dropFirst().first?.prefix { $0 != "\"" } ?? "i-1"
        for words in [["interactions", "--as", "u-pat"], ["show", String(id), "--as", "u-maya"], ["activity", "--as", "u-pat"],
                      ["audit", "--as", "u-pat"], ["replay"], ["verify"], ["add-school", "--as", "u-pat", "--name", "\u{1B}[31m", "--status", "\u{1B}"]] {
            let result = cli.run(words)
            for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
                let bad = text.unicodeScalars.filter { TerminalText.needsEscape($0) }
                #expect(bad.isEmpty, "\(words) \(name) writes \(bad.map { $0.value })")
            }
        }
        #expect(cli.run(["interactions", "--as", "u-pat"]).stdout.contains("UC\\u{1B}]0;pwned\\u{7}LA"))
    }

    // MARK: 13. Once sealed, always sealed

    @Test func strippingPrevFromASealedLogBreaksTheChain() throws {
        let dir = Self.folder()
        let log = dir + "/l.jsonl"
        var text = ""
        HistoryGenerator(families: 1, events: 50, seed: 4).generate { text += String(decoding: $0, as: UTF8.self) + "\n" }
        var lines = text.split(separator: "\n").map(String.init)
        lines[19] = lines[19].replacingOccurrences(of: "\"type\"", with: "\"note\":\"edited\",\"type\"")
        for index in 19..<50 { lines[index] = lines[index].replacingOccurrences(of: #","prev":"[0-9a-f]{64}""#, with: "", options: .regularExpression) }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log))
        let verify = try Binary.run(["verify", "--log", log])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("chain: broken at line 20"))
        #expect(verify.stdout.contains("20: missing field prev"))
    }

    // MARK: 14. A forged snapshot is caught by verify

    @Test func verifyCatchesAndRemovesAForgedSnapshot() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.run("log-interaction --as u-maya --school s-ucla --type email --direction inbound --subject Real")
        var replayer = Replayer()
        replayer.consume(bytes: cli.logBytes)
        var forged = replayer.snapshot
        var family = try #require(forged.state.families["f-u-pat"])
        family.schools["s-ucla"]?.name = "Forged U"
        forged.state.families.set(family)
        let sections = forged.state.families.values.map(SnapshotCodec.Section.init)
        let bytes = SnapshotCodec.parts(forged, families: sections).joined()
        try Data(bytes).write(to: URL(fileURLWithPath: cli.logPath + ".snapshot"))
        // A query trusts a matching snapshot (it is a cache)…
        #expect(cli.run("interactions --as u-pat").stdout.contains("Forged U"))
        // …verify replays the prefix itself, reports the mismatch and removes the snapshot.
        let verify = cli.run("verify")
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("snapshot: DOES NOT MATCH the log (damaged or forged); removed"))
        #expect(!FileManager.default.fileExists(atPath: cli.logPath + ".snapshot"))
        #expect(!cli.run("interactions --as u-pat").stdout.contains("Forged U"))
        // An honest snapshot verifies.
        cli.run(["interactions", "--as", "u-pat"], environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "0"])
        #expect(cli.run("verify").stdout.contains("snapshot: matches the log\n"))
    }

    // MARK: 15–17. Traps a new user falls into

    @Test func addMemberJoinsTheFamilyOfAsAndMakesANewFamilyOnlyWhenAsked() {
        let cli = CLIHarness()
        cli.seedFamily()
        let before = cli.logBytes
        let noAs = cli.run("add-member --user u-dad --name Dad --role parent")
        #expect(noAs.status == 2 && noAs.stderr.hasPrefix("error: missing '--as USER'"))
        let existing = cli.run("add-member --user u-dad --name Dad --role parent --family f-u-pat")
        #expect(existing.status == 2)
        #expect(cli.logBytes == before)
        #expect(cli.run("add-member --as u-pat --user u-dad --name Dad --role parent").status == 0)
        #expect(cli.run("add-member --user u-new --name New --role parent --family f-new").status == 0)
        var replayer = Replayer()
        replayer.consume(bytes: cli.logBytes)
        #expect(replayer.state.members["u-dad"]?.family == "f-u-pat")
        #expect(replayer.state.members["u-new"]?.family == "f-new")
    }

    @Test func readsVerifyAndAuditOnAMissingLogSaySo() {
        let cli = CLIHarness()
        for words in [["interactions", "--as", "u-1"], ["replay"], ["verify"], ["audit"], ["activity", "--as", "u-1"]] {
            let result = cli.run(words + ["--log", "typo.jsonl"])
            #expect(result.status == 1 && result.stderr == "error: no log at typo.jsonl\n", "\(words): \(result.stderr)")
        }
    }

    @Test func aFailedFirstAppendCreatesNoFolderAndNoFile() {
        let cli = CLIHarness()
        let result = cli.run(["add-school", "--as", "u-x", "--name", "X", "--log", "typo-dir/sub/events.jsonl"])
        #expect(result.status == 1 && result.stderr.hasPrefix("error: no log at typo-dir/sub/events.jsonl\n"))
        // A first append the rules refuse is decided before any folder or file is made.
        let refused = cli.run(["add-member", "--user", "u-x", "--name", " ", "--role", "parent", "--family", "f-x",
                               "--log", "typo-dir/sub/events.jsonl"])
        #expect(refused.status == 1 && refused.stderr == "error: Name is required\n", "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/typo-dir"))
    }

    // MARK: 1. Killed imports are all or nothing (with the append kill test in ReliabilityTests)

    @Test func killedImportsAreAllOrNothing() throws {
        let dir = Self.folder()
        let log = dir + "/events.jsonl"
        try ReliabilityTests.seedLog(log)
        var rng = SplitMix64(seed: 21)
        var kills = 0, committed = 0, round = 0
        while kills < 100 {
            round += 1
            let file = dir + "/batch-\(round).jsonl"
            let lines = (1...400).map { n in
                #"{"id":"r\#(round)-\#(n)","type":"SchoolStatusChanged","actor":"u-pat","data":{"schoolId":"s-1","newStatus":"contacted","notes":"round \#(round) line \#(n) with some words to widen the write"}}"#
            }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["import", file, "--log", log, "--now", "2026-01-02T00:00:00Z"]
            // Blocks of 50 lines, so kills land between a block's write and the next.
            process.environment = ProcessInfo.processInfo.environment.merging(["COMPASS_IMPORT_BLOCK_LINES": "50"]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(rng.below(60_000)))
            if process.isRunning { kill(process.processIdentifier, SIGKILL); kills += 1 }
            process.waitUntilExit()
            let acknowledged = process.terminationReason == .exit && process.terminationStatus == 0
            // Every reader sees none or all of the batch.
            let replayer = try LogReader.replay(path: log, fs: POSIXFileSystem())
            let present = (1...400).filter { replayer.state.eventIds.contains("r\(round)-\($0)") }.count
            #expect(present == 0 || present == 400, "round \(round): \(present) of 400")
            if acknowledged { #expect(present == 400) }
            if present == 400 { committed += 1 }
        }
        let verify = try Binary.run(["verify", "--log", log])
        #expect(verify.status == 0 || verify.stdout.contains("torn last line"), "\(verify.stdout)")
        let next = try Binary.run(["change-status", "--as", "u-pat", "--school", "s-1", "--status", "visited", "--log", log])
        #expect(next.status == 0)
        #expect(try Binary.run(["verify", "--log", log]).status == 0)
        print("import kill test: \(kills) kills over \(round) imports, \(committed) committed whole, none partial")
    }

    // MARK: helpers

    static func folder() -> String { ReliabilityTests.folder() }

    /// Runs `compass` under `/usr/bin/time`: exit status, peak RSS in KB, stderr.
    static func peakMemory(_ arguments: [String]) throws -> (Int32, Int, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", Binary.path] + arguments
        let err = Pipe()
        // Standard output is not read (so a command with much to say on stderr cannot block
        // on one pipe while this waits on the other).
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, Int(stderr.split(separator: "\n").last.map(String.init) ?? "") ?? 0, stderr)
    }
}

extension Replayer {
    /// The problem messages of one line replayed alone (a test helper).
    func consumingForTest(_ line: String) -> [String] {
        var copy = self
        copy.consume(bytes: Array((line + "\n").utf8))
        return copy.problems.map(\.message)
    }
}
