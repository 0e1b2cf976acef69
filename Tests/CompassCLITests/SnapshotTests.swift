import Foundation
import Testing
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore
import CompassTestSupport

/// Snapshots beside the log: used when they match, ignored and rebuilt when they do not.
@Suite struct SnapshotTests {
    static let always = ["COMPASS_SNAPSHOT_MIN_BYTES": "0"]
    static let never = ["COMPASS_SNAPSHOT_MIN_BYTES": "off"]

    static func same(_ cli: CLIHarness, _ words: String) {
        let with = cli.run(CLIHarness.words(words), environment: always)
        let without = cli.run(CLIHarness.words(words), environment: never)
        #expect(with.stdout == without.stdout, "\(words)")
        #expect(with.status == without.status)
    }

    @Test func aReadWritesASnapshotAndLaterReadsGiveTheSameAnswers() throws {
        let cli = ReadCommandsTests.family()
        let snapshot = cli.logPath + ".snapshot"
        #expect(cli.run(["replay"], environment: Self.never).status == 0)
        #expect(!FileManager.default.fileExists(atPath: snapshot))
        #expect(cli.run(["replay"], environment: Self.always).status == 0)
        #expect(FileManager.default.fileExists(atPath: snapshot))
        cli.run("log-interaction --as u-maya --school s-ucla --type dm --direction inbound --subject 'After the snapshot'")
        cli.run("delete-interaction i-1 --as u-maya")
        for words in ["replay --json", "interactions --as u-pat --json", "activity --as u-maya --json", "show i-3 --as u-maya --json", "analytics --as u-pat --json"] {
            Self.same(cli, words)
        }
        #expect(cli.run(CLIHarness.words("interactions --as u-pat --json"), environment: Self.always).stdout.contains("After the snapshot"))
    }

    /// Broken logs (``LogBreaker``) read through a snapshot, and through a snapshot of a prefix
    /// with the rest appended after it, exactly as without one, for three viewers: the texts
    /// left in the log and read back for the snapshot, the problems' summary, every family's
    /// section. Each read that succeeds leaves a snapshot (a soak of 566 such logs through
    /// the binary found no difference).
    @Test func brokenLogsReadTheSameThroughTheirSnapshot() throws {
        let users = ["u-1-1", "u-1-2", "u-2-1"]
        var compared = 0
        for seed in 1...UInt64(6) {
            var rng = SplitMix64(seed: 0xB40C_0000 + seed)
            let log = LogBreaker.broken(HistoryGenerator(families: 1 + rng.below(3), events: 200 + rng.below(600), seed: seed).bytes(), rng: &rng)
            let cli = CLIHarness()
            let snapshot = cli.logPath + ".snapshot"
            FileManager.default.createFile(atPath: cli.logPath, contents: Data(log))
            func view(_ user: String, _ environment: [String: String]) -> CLIHarness.Result {
                cli.run(["interactions", "--json", "--as", user], environment: environment)
            }
            let cold = users.map { view($0, Self.never) }
            // The snapshot is written by a read that succeeds: a viewer the broken log still
            // knows (a first line that lost its `seq` makes a one-chain log every read refuses).
            guard let writer = zip(users, cold).first(where: { $0.1.status == 0 })?.0 else { continue }
            compared += 1
            #expect(view(writer, Self.always).status == 0, "seed \(seed)")
            #expect(FileManager.default.fileExists(atPath: snapshot), "seed \(seed)")
            for (user, expected) in zip(users, cold) {
                let read = view(user, Self.always)
                #expect(read.stdout == expected.stdout && read.status == expected.status, "seed \(seed), \(user)")
            }
            // A snapshot of a prefix (cut at a line's end), then the rest of the bytes appended.
            let cut = (log[..<(1 + rng.below(log.count - 1))].lastIndex(of: 0x0A) ?? -1) + 1
            try? FileManager.default.removeItem(atPath: snapshot)
            FileManager.default.createFile(atPath: cli.logPath, contents: Data(log[..<cut]))
            _ = view(writer, Self.always)
            let handle = try #require(FileHandle(forWritingAtPath: cli.logPath))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(log[cut...]))
            try handle.close()
            for (user, expected) in zip(users, cold) {
                let read = view(user, Self.always)
                #expect(read.stdout == expected.stdout && read.status == expected.status, "seed \(seed), \(user), prefix of \(cut) bytes")
            }
        }
        #expect(compared >= 4)
    }

    @Test func aSnapshotThatNoLongerMatchesTheLogIsIgnored() throws {
        let cli = ReadCommandsTests.family()
        cli.run(["replay"], environment: Self.always)
        let full = cli.logText
        // Rewrite the last line of the prefix the snapshot covers (re-sealing is not needed: it is the last line).
        let lines = full.split(separator: "\n").map(String.init)
        cli.write("events.jsonl", (lines.dropLast() + [lines.last!.replacingOccurrences(of: "Very long subject", with: "Edited subject")]).map { $0 + "\n" }.joined())
        let edited = cli.run(CLIHarness.words("interactions --as u-pat --json"), environment: Self.always)
        #expect(edited.stdout.contains("Edited subject"))
        Self.same(cli, "interactions --as u-pat --json")
        // A truncated log is shorter than the snapshot's prefix.
        cli.write("events.jsonl", lines.prefix(3).map { $0 + "\n" }.joined())
        Self.same(cli, "replay --json")
        #expect(cli.run(["replay", "--json"], environment: Self.always).stdout.contains(#""events":3"#))
        // Garbage in the snapshot file.
        cli.write("events.jsonl.snapshot", "garbage")
        Self.same(cli, "replay --json")
    }

    @Test func aQueryReadsItsFamilyFromTheSnapshotAndADamagedSectionIsNotTrusted() throws {
        let cli = ReadCommandsTests.family()
        cli.run(["replay"], environment: Self.always)
        let snapshot = cli.logPath + ".snapshot"
        var bytes = try #require(FileManager.default.contents(atPath: snapshot))
        Self.same(cli, "interactions --as u-pat --json")
        bytes[bytes.count - 5] ^= 0x20  // inside the (only) family's section
        try bytes.write(to: URL(fileURLWithPath: snapshot))
        Self.same(cli, "interactions --as u-pat --json")
        Self.same(cli, "activity --as u-maya --json")
        cli.run("log-interaction --as u-maya --school s-ucla --type dm --direction inbound --subject 'After the damage'")
        Self.same(cli, "interactions --as u-pat --json")
        #expect(cli.run(CLIHarness.words("interactions --as u-pat --json"), environment: Self.always).stdout.contains("After the damage"))
    }

    /// The snapshot written streaming (a family batch at a time, the preamble last) is byte for
    /// byte the one the codec builds in memory: `verify` re-encodes it and compares; so is one
    /// patched after a replay that resumed from an older snapshot and loaded one family.
    @Test func aStreamedSnapshotIsTheCodecsBytes() throws {
        let cli = CLIHarness()
        cli.write("events.jsonl", cli.run("generate --families 40 --events 3000 --seed 9").stdout)
        #expect(cli.run(["replay"], environment: Self.always).status == 0)
        #expect(cli.run("verify").stdout.contains("snapshot: matches the log\n"))
        let member = try #require(cli.logText.split(separator: "\"").drop { $0 != "actor" }.dropFirst(2).first)
        cli.runAll(["add-school --as \(member) --name Later --school s-later"])
        #expect(cli.run(["analytics", "--as", String(member)], environment: Self.always).status == 0)  // resumes, patches
        #expect(cli.run("verify").stdout.contains("snapshot: matches the log\n"))
    }

    /// An append checks its event id against the snapshot's ids one chunk at a time; a damaged
    /// chunk is noticed and the log is read whole, so a duplicate id is still refused.
    @Test func aDuplicateIdIsRefusedThroughAStoredChunkEvenADamagedOne() throws {
        let cli = CLIHarness()
        cli.write("events.jsonl", cli.run("generate --families 2 --events 9000 --seed 3").stdout)
        #expect(cli.run(["replay"], environment: Self.always).status == 0)
        let lines = cli.logText.split(separator: "\n")
        let taken = try #require(lines[4321].split(separator: "\"").dropFirst(5).first)  // "id":"…" of line 4322
        let member = try #require(lines[0].split(separator: "\"").drop { $0 != "actor" }.dropFirst(2).first)
        let duplicate = #"{"id":"\#(taken)","type":"NotificationsRead","actor":"\#(member)","data":{"upToSeq":1}}"#
        cli.write("dup.jsonl", duplicate + "\n")
        for damage in [false, true] {
            if damage {
                // A byte of every chunk of ids (the ids section is the second in the preamble; its
                // chunks follow its index), so the chunk the duplicate is in is damaged too.
                var bytes = try #require(FileManager.default.contents(atPath: cli.logPath + ".snapshot"))
                let entry = SnapshotCodec.magic.count + 16 + 48
                let start = Int(Array(bytes).littleEndian(at: entry)), length = Int(Array(bytes).littleEndian(at: entry + 8))
                let chunks = start + 8 + Int(Array(bytes).littleEndian(at: start))
                for offset in stride(from: chunks + 100, to: start + length, by: StoredKeys.chunkPairs * 16) { bytes[offset] ^= 0x01 }
                try bytes.write(to: URL(fileURLWithPath: cli.logPath + ".snapshot"))
            }
            let before = SHA256.hex(cli.logBytes)
            let result = cli.run(["import", "dup.jsonl"], environment: Self.always)
            #expect(result.status == 1 && result.stderr.contains("duplicate event id \(taken)"), "\(damage): \(result.stderr)")
            #expect(SHA256.hex(cli.logBytes) == before)
        }
    }

    /// Appends and imports start from the snapshot too (reading the families they decide in
    /// and the event ids from it): the log they write is the one they write without it.
    @Test func appendsAndImportsThroughASnapshotWriteTheSameLog() throws {
        let with = ReadCommandsTests.family(), without = ReadCommandsTests.family()
        #expect(with.run(["replay"], environment: Self.always).status == 0)
        let uuid = "0b331645-445b-4d27-bf6c-67e81909778a"
        let imports = [
            #"{"id":"\#(uuid)","type":"SchoolAdded","actor":"u-pat","at":"2026-03-01T00:00:00Z","data":{"schoolId":"s-duke","name":"Duke"}}"#,
            #"{"type":"InteractionLogged","actor":"u-maya","at":"2026-03-02T00:00:00Z","data":{"interactionId":"i-77","schoolId":"s-duke","type":"email","direction":"outbound"}}"#,
        ].joined(separator: "\n") + "\n"
        for cli in [with, without] { cli.write("import.jsonl", imports) }
        let steps = [
            "log-interaction --as u-maya --school s-ucla --type dm --direction inbound --subject 'Through the snapshot'",
            "add-school --as u-pat --name 'Rice University'",
            "log-interaction --as u-pat --school s-ucla --type dm --direction inbound",    // a parent may not: refused
            "delete-interaction i-1 --as u-maya",
            "import import.jsonl",
            "import import.jsonl",                                                          // every id is a duplicate now
            "change-status --as u-pat --school s-duke --status committed",
        ]
        for step in steps {
            let a = with.run(CLIHarness.words(step), environment: Self.always)
            let b = without.run(CLIHarness.words(step), environment: Self.never)
            #expect(a.stdout == b.stdout && a.stderr == b.stderr && a.status == b.status, "\(step)")
        }
        #expect(with.run(CLIHarness.words("import import.jsonl"), environment: Self.always).stderr.contains("duplicate event id \(uuid)"))
        #expect(with.logText == without.logText)
        #expect(with.run("verify").status == 0)
    }

    @Test func aTornTailAfterTheSnapshotIsStillReported() throws {
        let cli = ReadCommandsTests.family()
        cli.run(["replay"], environment: Self.always)
        let handle = try #require(FileHandle(forWritingAtPath: cli.logPath))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":8,"id":"to"#.utf8))
        handle.closeFile()
        let result = cli.run(["replay"], environment: Self.always)
        #expect(result.stdout.contains("  8: torn last line\n"))
        Self.same(cli, "replay --json")
        #expect(cli.run(["replay"], environment: Self.always).stdout.contains("  8: torn last line\n"))
    }
}
