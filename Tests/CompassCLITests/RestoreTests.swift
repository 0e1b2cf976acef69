import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

/// `import --restore`: a family's exported stream, erasures included, goes back into a store
/// byte for byte, so its heads and erasure proofs still hold there; anything that would not
/// replay as it stands, or a family the store already has, is refused whole and writes nothing.
@Suite struct RestoreTests {
    /// The sample family after `erase --member u-leo`: the store, the head kept before the
    /// erasure, and its stream exported (with its attachments beside it) as `lopez.jsonl`.
    static func erasedSample() throws -> (cli: CLIHarness, oldHead: String) {
        let cli = CLIHarness()
        let sample = Binary.packageRoot + "/events-samples/family.jsonl"
        try FileManager.default.copyItem(atPath: sample, toPath: cli.logPath)
        try FileManager.default.copyItem(atPath: sample + ".attachments", toPath: cli.logPath + ".attachments")
        let oldHead = try #require(FamilyStreamsTests.head(of: "fam-lopez", in: cli.run("verify").stdout))
        #expect(cli.run("erase --as u-pat --member u-leo").status == 0)
        #expect(cli.run(["export", "--stream", "--as", "u-pat", "-o", cli.directory + "/lopez.jsonl"]).status == 0)
        return (cli, oldHead)
    }

    @Test func anErasedFamilysExportIsRestoredByteForByteAndStillProvesItsOldHead() throws {
        let (cli, oldHead) = try Self.erasedSample()
        let export = try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/lopez.jsonl"))
        #expect(String(decoding: export, as: UTF8.self).contains(#""type":"Erased""#))
        // A plain import refuses the records, and says what puts them back.
        let plain = cli.run(["import", "lopez.jsonl", "--log", "plain.jsonl"])
        #expect(plain.status == 1 && plain.stderr.contains("compass import --restore FILE"), "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/plain.jsonl"))

        let restored = cli.run(["import", "--restore", "lopez.jsonl", "--log", "new.jsonl", "--json"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout == #"{"restored":80,"families":[{"family":"fam-lopez","firstSeq":1,"lastSeq":80}]}"# + "\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/new.jsonl")) == export)
        // The head kept before the erasure is proven in the new store, its blobs are whole, and
        // every view is the original's.
        let proven = cli.run(["verify", "--log", "new.jsonl", "--expect-head", oldHead])
        #expect(proven.status == 0 && proven.stdout.contains("proven through the erasure") && proven.stdout.contains("all whole"),
                "\(proven.stdout)")
        for viewer in ["u-pat", "u-maya"] {
            for view in ["interactions", "activity", "schools", "documents", "analytics"] {
                let words = [view, "--as", viewer, "--json", "--now", "2026-06-01T00:00:00Z"]
                #expect(cli.run(words + ["--log", "new.jsonl"]).stdout == cli.run(words).stdout, "\(view) for \(viewer)")
            }
        }
        // Default ids the erased lines had are still never issued again there: the next
        // interaction gets the id it gets in the original store.
        func nextId(_ log: [String]) -> String? {
            let out = cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "outbound",
                               "--json"] + log).stdout
            return out.firstMatch(of: #/"id":"(i-[0-9]+)"/#).map { String($0.1) }
        }
        let restoredNext = nextId(["--log", "new.jsonl"])
        #expect(restoredNext != nil && restoredNext == nextId([]))
    }

    @Test func aRestoreBesideOtherFamiliesLeavesThemByteForByte() throws {
        let (cli, _) = try Self.erasedSample()
        cli.runAll(["add-member --user u-zed --name 'Zed Other' --role parent --family fam-zed --log other.jsonl",
                    "add-school --as u-zed --name Rice --log other.jsonl"])
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/other.jsonl"))
        #expect(cli.run(["import", "--restore", "lopez.jsonl", "--log", "other.jsonl"]).status == 0)
        let after = try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/other.jsonl"))
        #expect(after.prefix(before.count) == before)
        #expect(cli.run(["verify", "--log", "other.jsonl"]).status == 0)
        #expect(cli.run(["schools", "--log", "other.jsonl", "--as", "u-zed", "--json"]).stdout.contains("Rice"))
    }

    /// A whole store's export (`--all-families`) with an erasure in one family comes back
    /// into an empty store with the same root and the same views for every member.
    @Test func aWholeStoreExportIsRestoredWithTheSameRoot() throws {
        let cli = CLIHarness()
        FileManager.default.createFile(atPath: cli.logPath, contents: Data(cli.run(["generate", "--families", "4", "--events", "600", "--seed", "3"]).stdout.utf8))
        #expect(cli.run("erase --as u-2-1 --member u-2-2").status == 0)
        #expect(cli.run(["export", "--stream", "--all-families", "-o", cli.directory + "/all.jsonl"]).status == 0)
        let restored = cli.run(["import", "--restore", "all.jsonl", "--log", "copy.jsonl"])
        #expect(restored.status == 0 && restored.stdout.contains("fam-4: seq"), "\(restored.stderr)")
        func root(_ words: [String]) -> Substring? { cli.run(["verify", "--json"] + words).stdout.firstMatch(of: #/"root":"([0-9a-f]{64})"/#)?.1 }
        #expect(root([]) != nil && root([]) == root(["--log", "copy.jsonl"]))
        for viewer in ["u-1-1", "u-2-1", "u-3-2", "u-4-1"] {
            let words = ["interactions", "--as", viewer, "--json", "--now", "2026-06-01T00:00:00Z"]
            #expect(cli.run(words).stdout == cli.run(words + ["--log", "copy.jsonl"]).stdout, "\(viewer)")
        }
    }

    /// Each way a restore can be wrong is refused with its line and message, and leaves the
    /// target store as it was (a new one is not even created).
    @Test func aRestoreThatWouldNotReplayAsItStandsIsRefusedWholeAndWritesNothing() throws {
        let (cli, _) = try Self.erasedSample()
        let export = try String(contentsOfFile: cli.directory + "/lopez.jsonl", encoding: .utf8)
        let lines = export.split(separator: "\n").map(String.init)
        func refused(_ text: String, _ expected: String, into log: String = "target.jsonl", _ label: String) {
            let before = FileManager.default.contents(atPath: cli.directory + "/" + log)
            cli.write("broken.jsonl", text)
            if FileManager.default.fileExists(atPath: cli.directory + "/lopez.jsonl.attachments"),
               !FileManager.default.fileExists(atPath: cli.directory + "/broken.jsonl.attachments") {
                try? FileManager.default.copyItem(atPath: cli.directory + "/lopez.jsonl.attachments", toPath: cli.directory + "/broken.jsonl.attachments")
            }
            let result = cli.run(["import", "--restore", "broken.jsonl", "--log", log])
            #expect(result.status == 1 && result.stderr.contains("nothing was imported") && result.stderr.contains(expected),
                    "\(label): \(result.stderr)")
            #expect(FileManager.default.contents(atPath: cli.directory + "/" + log) == before, "\(label): the target changed")
        }
        refused(export, "line 1: family fam-lopez already has lines in this store", into: "events.jsonl", "into the family's own store")
        var edited = lines
        edited[1] = edited[1].replacing(#""at":"20"#, with: #""at":"19"#, maxReplacements: 1)
        refused(edited.joined(separator: "\n") + "\n", "line 3: prev does not match line 2", "one byte changed")
        refused(lines.dropFirst().joined(separator: "\n") + "\n", "line 1: seq 2, expected 1", "the first line dropped")
        // The erasure record, the last line, claiming one erased line fewer: the chain still
        // holds (nothing comes after it), the count does not.
        edited = lines
        edited[edited.count - 1] = edited[edited.count - 1].replacing(#/"erased":([0-9]+)/#) { #""erased":\#(Int($0.1)! - 1)"# }
        refused(edited.joined(separator: "\n") + "\n", "line 80: the Erased records do not match the counts", "a count changed")
        refused(String(export.dropLast()), "torn last line", "a torn last line")
        refused(export + #"{"type":"Erased","actor":"-","data":{"was":"\#(SHA256.emptyHex)"}}"# + "\n",
                "line 81: not in a family's stream", "a record of no stream")
        // A stream that was never sealed is not restored: its lines could not prove anything.
        let unsealed = lines.map { $0.replacing(#/,"prev":"[0-9a-f]{64}"\}$/#, with: "}") }
        refused(unsealed.joined(separator: "\n") + "\n", "line 1: missing field prev: a restored stream is sealed", "no prev")
        // An attachment not beside the file is refused like import refuses it.
        try FileManager.default.removeItem(atPath: cli.directory + "/broken.jsonl.attachments")
        try FileManager.default.createDirectory(atPath: cli.directory + "/broken.jsonl.attachments", withIntermediateDirectories: false)
        refused(export, "is not in this family's store, nor beside the imported file", "attachments missing")
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/target.jsonl"))
        #expect(cli.run(["import", "--restore", "lopez.jsonl", "--log", "target.jsonl"]).status == 0)
    }

    /// Broken copies of an export (bits flipped, lines cut, repeated, swapped, dropped, torn):
    /// each is either restored exactly as it is and verifies, or refused with nothing written.
    @Test func aBrokenExportIsRestoredExactlyOrNotAtAll() throws {
        let (cli, _) = try Self.erasedSample()
        let export = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cli.directory + "/lopez.jsonl")))
        try FileManager.default.copyItem(atPath: cli.directory + "/lopez.jsonl.attachments", toPath: cli.directory + "/broken.jsonl.attachments")
        var restored = 0, refused = 0
        for seed in 1...UInt64(60) {
            var rng = SplitMix64(seed: 0x2E57_0000 + seed)
            let broken = LogBreaker.broken(export, rng: &rng)
            FileManager.default.createFile(atPath: cli.directory + "/broken.jsonl", contents: Data(broken))
            let log = "target-\(seed).jsonl"
            let result = cli.run(["import", "--restore", "broken.jsonl", "--log", log])
            let written = FileManager.default.contents(atPath: cli.directory + "/" + log)
            if result.status == 0 {
                restored += 1
                #expect(written == Data(broken), "seed \(seed): restored, but not byte for byte")
                #expect(cli.run(["verify", "--log", log]).status == 0, "seed \(seed): restored, but does not verify")
            } else {
                refused += 1
                #expect(result.status == 1 && result.stderr.contains("nothing was imported"), "seed \(seed): \(result.stderr)")
                #expect(written == nil, "seed \(seed): refused, but a log was left")
            }
        }
        // Nearly every break is caught by the chain or the rules (in these 60, all of them); a
        // change to the last line that still replays is one no later line can see: it would be
        // restored as it is, and only a kept head tells it apart.
        #expect(refused + restored == 60 && refused > 40)
    }

    /// Restores of twelve erased families' exports race four appending processes each, and
    /// half of them, with one appender in four, are SIGKILLed at a random moment: every
    /// acknowledged append is there, every restore is in the log whole (byte for byte, its
    /// lines together) or not at all, an acknowledged one whole, and the log verifies.
    @Test func restoresRacingAppendersAndKillsAreWholeOrAbsent() throws {
        let dir = ReliabilityTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/events.jsonl"
        try ReliabilityTests.seedLog(log)
        var exports: [String] = []
        for round in 0..<12 {
            let source = CLIHarness()
            source.idPrefix = "r\(round)-"
            source.runAll(["add-member --user u-r\(round) --name 'Parent \(round)' --role parent --family fam-r\(round)",
                           "add-member --as u-r\(round) --user u-r\(round)k --name 'Kid \(round)' --role player",
                           "add-school --as u-r\(round) --name Rice --school s-rice",
                           "log-interaction --as u-r\(round)k --school s-rice --type email --direction outbound --subject 'Kid note'",
                           "log-interaction --as u-r\(round)k --school s-rice --type dm --direction inbound --subject 'Another'",
                           "erase --as u-r\(round) --member u-r\(round)k"])
            exports.append(source.run(["export", "--stream", "--as", "u-r\(round)"]).stdout)
            FileManager.default.createFile(atPath: dir + "/restore-\(round).jsonl", contents: Data(exports[round].utf8))
        }
        var rng = SplitMix64(seed: 12)
        var acknowledged: [String] = [], restored: [Int] = [], kills = 0
        for round in 0..<12 {
            let appenders = try ReliabilityTests.RacingAppenders(log: log, round: round)
            let restorer = try ReliabilityTests.start(["import", "--restore", dir + "/restore-\(round).jsonl", "--log", log],
                                                      output: FileHandle.nullDevice)
            usleep(useconds_t(rng.below(12_000)))  // a restore takes a few milliseconds
            if round % 2 == 0, restorer.isRunning {
                kill(restorer.processIdentifier, SIGKILL)
                kills += 1
            }
            appenders.killOne(&rng)
            restorer.waitUntilExit()
            if restorer.terminationReason == .exit, restorer.terminationStatus == 0 { restored.append(round) }
            acknowledged += appenders.acknowledged()
        }
        // The next writer heals what a killed one left; then everything is checked.
        #expect(try Binary.run(["add-school", "--as", "u-pat", "--name", "Last", "--log", log]).status == 0)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        var replayer = Replayer()
        replayer.consume(bytes: Array(text.utf8))
        #expect(replayer.problems.isEmpty, "\(replayer.problems.prefix(3))")
        for id in acknowledged { #expect(replayer.state.eventIds.contains(id), "acknowledged \(id) is missing") }
        for (round, export) in exports.enumerated() {
            let whole = text.contains(export), any = text.contains(#""family":"fam-r\#(round)""#)
            #expect(whole || !any, "restore \(round) is in the log in part")
            if restored.contains(round) { #expect(whole, "restore \(round) was acknowledged but is not whole") }
        }
        #expect(try Binary.run(["verify", "--log", log]).status == 0)
        #expect(!restored.isEmpty && acknowledged.count > 24, "restored \(restored.count), acknowledged \(acknowledged.count), killed \(kills)")
    }

    /// A restored family's members and event ids are the store's like any other: a member of
    /// another family already, or an id another family holds, refuses the restore.
    /// Read through the store's snapshot too (its families and ids read only when a line needs them).
    @Test(arguments: ["off", "0"])
    func aMemberOrEventIdAnotherFamilyHoldsRefusesTheRestore(snapshotMinimum: String) throws {
        let (cli, _) = try Self.erasedSample()
        let environment = ["COMPASS_SNAPSHOT_MIN_BYTES": snapshotMinimum]
        let export = try String(contentsOfFile: cli.directory + "/lopez.jsonl", encoding: .utf8)
        let someId = try #require(export.split(separator: "\n").dropFirst(5).first?.firstMatch(of: #/"id":"([^"]+)"/#)?.1)
        for (setUp, refusal) in [
            ("add-member --user u-maya --name 'Maya Elsewhere' --role parent --family fam-zed", "User u-maya is already a member"),
            ("add-member --user u-zed --name 'Zed' --role parent --family fam-zed --event-id \(someId)", "duplicate event id \(someId)"),
        ] {
            let log = "zed-\(refusal.count).jsonl"
            #expect(cli.run(CLIHarness.words(setUp) + ["--log", log], environment: environment).status == 0)
            _ = cli.run(["schools", "--as", "u-zed", "--log", log], environment: environment)  // leaves a snapshot when asked
            #expect(FileManager.default.fileExists(atPath: cli.directory + "/" + log + ".snapshot") == (snapshotMinimum == "0"))
            let before = try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/" + log))
            let result = cli.run(["import", "--restore", "lopez.jsonl", "--log", log], environment: environment)
            #expect(result.status == 1 && result.stderr.contains(refusal), "\(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/" + log)) == before)
        }
    }
}
