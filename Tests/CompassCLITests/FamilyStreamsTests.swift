import CompassCore
import CompassTestSupport
import Foundation
import Testing

/// SPEC v3 §1.1 end to end: each family's stream exported alone, v2 logs migrated and refused
/// everywhere else, erasure that touches no other family's byte, heads and roots kept.
@Suite struct FamilyStreamsTests {
    /// A generated log of several interleaved families in a fresh folder.
    static func generated(families: Int, events: Int, seed: Int = 5) throws -> CLIHarness {
        let cli = CLIHarness()
        cli.write("events.jsonl", try Binary.tool(Binary.path, ["generate", "--families", "\(families)", "--events", "\(events)", "--seed", "\(seed)"]))
        return cli
    }

    /// Each line of the log with its family (read as `export --stream` reads it).
    static func lines(_ text: String) -> [(family: String, line: Substring)] {
        text.split(separator: "\n").map { line in
            let family = line.components(separatedBy: #""family":""#).dropFirst().first?.prefix { $0 != "\"" } ?? ""
            return (String(family), line)
        }
    }

    /// A family's head as `verify` prints it (on the family's line, or the next when it does not fit).
    static func head(of family: String, in verify: String) -> String? {
        let lines = verify.split(separator: "\n")
        guard let index = lines.firstIndex(where: { $0.hasPrefix("family \(family): ") }) else { return nil }
        return String((lines[index].contains(", head ") ? lines[index] : lines[index + 1]).suffix(64))
    }

    @Test func aParentsStreamExportVerifiesAloneWithTheSameHead() throws {
        let cli = try Self.generated(families: 3, events: 300)
        let whole = cli.run("verify").stdout
        for family in ["fam-1", "fam-2", "fam-3"] {
            let exported = cli.run("export --stream --family \(family)")
            #expect(exported.status == 0)
            let expected = Self.lines(cli.logText).filter { $0.family == family }.map { $0.line + "\n" }.joined()
            #expect(exported.stdout == expected, "byte for byte, in order")
            cli.write("\(family).jsonl", exported.stdout)
            let alone = cli.run("verify --log \(family).jsonl")
            #expect(alone.status == 0, "\(alone.stdout)")
            #expect(Self.head(of: family, in: alone.stdout) == Self.head(of: family, in: whole))
            let kept = try #require(Self.head(of: family, in: whole))
            #expect(cli.run("verify --log \(family).jsonl --expect-head \(kept)").status == 0)
        }
        // A parent exports their own family; an athlete may not; another family's id is not theirs.
        var replayer = Replayer()
        replayer.consume(bytes: cli.logBytes)
        let family = try #require(replayer.state.families["fam-1"])
        let parent = try #require(family.memberIds.first { replayer.state.members[$0]?.role == .parent })
        let athlete = family.memberIds.first { replayer.state.members[$0]?.role == .player }
        if let athlete { #expect(cli.run("export --stream --as \(athlete)").status == 1) }
        #expect(cli.run("export --stream --as \(parent) -o mine.jsonl").status == 0)
        #expect(cli.run("verify --log mine.jsonl").status == 0)
        #expect(cli.run("export --stream --as \(parent) -o mine.jsonl").stderr.contains("already exists"))
        #expect(cli.run("export --stream --family fam-9").stderr == "error: No family fam-9 in the log\n")
        #expect(cli.run("export --stream --family fam-1 --as \(parent)").status == 2)
        #expect(cli.run("export --stream --family fam-1 --type email").status == 2)
    }

    @Test func anAthleteCannotExportTheStreamAndTheFamilySampleExportsWhole() throws {
        let cli = CLIHarness()
        cli.write("events.jsonl", try String(contentsOfFile: Binary.packageRoot + "/events-samples/family.jsonl", encoding: .utf8))
        try FileManager.default.copyItem(atPath: Binary.packageRoot + "/events-samples/family.jsonl.attachments",
                                         toPath: cli.directory + "/events.jsonl.attachments")
        #expect(cli.run("export --stream --as u-maya").stderr == "error: Only a parent can export the family's stream\n")
        let toStdout = cli.run("export --stream --as u-pat")
        #expect(toStdout.stdout == cli.logText)  // one family: its stream is the whole log
        #expect(toStdout.stderr.contains("attachment blobs are not in this output"))
        #expect(cli.run("export --stream --as u-pat -o copy/lopez.jsonl").status == 0)
        let verified = cli.run("verify --log copy/lopez.jsonl")
        #expect(verified.status == 0 && verified.stdout.contains("attachments: 3 checked, all whole"), "\(verified.stdout)")
    }

    @Test func aV2LogIsMigratedAndRefusedByEveryOtherCommand() throws {
        let cli = try Self.generated(families: 3, events: 120)
        let v3 = cli.logText
        // The same events as v2 wrote them: one count, one chain.
        var previous = SHA256.emptyHex
        var v2 = ""
        for (index, entry) in Self.lines(v3).enumerated() {
            var line = String(entry.line)
            line = line.replacingOccurrences(of: #"^\{"seq":[0-9]+"#, with: #"{"seq":\#(index + 1)"#, options: .regularExpression)
            line = line.replacingOccurrences(of: #""prev":"[0-9a-f]{64}""#, with: #""prev":"\#(previous)""#, options: .regularExpression)
            previous = SHA256.hex(Array(line.utf8))
            v2 += line + "\n"
        }
        cli.write("old.jsonl", v2)
        for command in ["replay", "verify", "interactions --as u-1-1", "audit --as u-1-1", "add-school --as u-1-1 --name Rice",
                        "erase --as u-1-1 --family", "erase --as u-1-1 --member u-1-2 --dry-run", "export --stream --as u-1-1 -o stream.jsonl",
                        "export --stream --as u-1-1"] {
            let refused = cli.run(CLIHarness.words(command) + ["--log", "old.jsonl"])
            #expect(refused.status == 1, "\(command)")
            #expect(refused.stderr.hasPrefix("error: this log uses one chain for all families (v2); run 'compass migrate "), "\(command): \(refused.stderr)")
        }
        #expect(try String(contentsOfFile: cli.directory + "/old.jsonl", encoding: .utf8) == v2, "nothing was written to the v2 log")
        let migrated = cli.run("migrate old.jsonl new.jsonl --json")
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try String(contentsOfFile: cli.directory + "/new.jsonl", encoding: .utf8) == v3)
        let root = cli.run("verify --json --log new.jsonl").stdout.components(separatedBy: #""root":""#)[1].prefix(64)
        #expect(migrated.stdout == #"{"lines":120,"families":3,"oldHead":"\#(previous)","root":"\#(root)","attachments":0}"# + "\n")
        #expect(cli.run("migrate old.jsonl new.jsonl").stderr.contains("already exists"))
        #expect(cli.run("migrate events.jsonl other.jsonl").stderr.contains("is already a v3 log"))
        // A v2 log that does not verify is refused with its problems, and nothing is written.
        cli.write("bad.jsonl", v2.replacingOccurrences(of: #""name":"#, with: #""name" :"#))
        let bad = cli.run("migrate bad.jsonl out.jsonl")
        #expect(bad.status == 1 && bad.stderr.hasPrefix("error: bad.jsonl does not verify as a v2 log; nothing was written\n"))
        #expect(bad.stderr.contains("prev does not match line"))
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/out.jsonl"))
    }

    /// SPEC §5 v3: an erasure re-seals only its family's stream. On a 200-family log every
    /// other family's lines stay byte-identical, and each family's kept head still verifies.
    @Test func anErasureLeavesEveryOtherFamilysLinesByteIdentical() throws {
        let cli = try Self.generated(families: 200, events: 4000, seed: 9)
        let before = Self.lines(cli.logText)
        let keptHeads = cli.run("verify").stdout
        var replayer = Replayer()
        replayer.consume(bytes: cli.logBytes)
        let parent = try #require(replayer.state.families["fam-7"]?.memberIds.first { replayer.state.members[$0]?.role == .parent })
        let erased = cli.run("erase --as \(parent) --family")
        #expect(erased.status == 0, "\(erased.stderr)")
        let after = Self.lines(cli.logText)
        #expect(before.filter { $0.family != "fam-7" }.map(\.line) == after.filter { $0.family != "fam-7" }.map(\.line))
        #expect(after.count == before.count + 1 && after.last?.family == "fam-7")
        let verify = cli.run("verify").stdout
        #expect(verify.hasSuffix("ok\n"), "\(verify)")
        for family in ["fam-1", "fam-8", "fam-200"] {
            #expect(Self.head(of: family, in: verify) == Self.head(of: family, in: keptHeads))
        }
        let oldHead = try #require(Self.head(of: "fam-7", in: keptHeads))
        #expect(Self.head(of: "fam-7", in: verify) != oldHead)
        let proven = cli.run("verify --expect-head \(oldHead)")
        #expect(proven.status == 0 && proven.stdout.contains("expected head: proven through the erasure"), "\(proven.stdout)")
    }

    /// `--expect-head` takes a family head or a root kept at any time, and nothing else.
    @Test func aKeptHeadOrRootVerifiesAfterMoreAppendsAndATamperedLogDoesNot() throws {
        let cli = try Self.generated(families: 3, events: 60)
        let json = cli.run("verify --json").stdout
        let root = String(json.components(separatedBy: #""root":""#)[1].prefix(64))
        let head = try #require(Self.head(of: "fam-2", in: cli.run("verify").stdout))
        cli.runAll(["add-school --as u-2-1 --name Later --school s-later", "add-school --as u-1-1 --name Later --school s-later"])
        #expect(cli.run("verify --expect-head \(root)").status == 0)
        #expect(cli.run("verify --expect-head \(head)").status == 0)
        #expect(cli.run("verify --expect-head \(String(repeating: "c", count: 64))").status == 1)
        // One byte of the first line changed: no root from before holds.
        var bytes = cli.logBytes
        let offset = bytes.firstIndex(of: UInt8(ascii: "Z")) ?? 40
        bytes[offset] = bytes[offset] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
        cli.write("events.jsonl", String(decoding: bytes, as: UTF8.self))
        #expect(cli.run("verify --expect-head \(root)").status == 1)
    }
}

/// `migrate` and `export --stream -o` attacked like every write: an I/O error, a short write,
/// a kill or a power loss at every file operation leaves no new file or a whole one, and the
/// old log as it was.
@Suite(.serialized) struct FamilyStreamFaultTests {
    static func setUp(_ cli: CLIHarness) throws {
        cli.write("events.jsonl", try String(contentsOfFile: Binary.packageRoot + "/events-samples/family.jsonl", encoding: .utf8))
        try FileManager.default.copyItem(atPath: Binary.packageRoot + "/events-samples/family.jsonl.attachments",
                                         toPath: cli.directory + "/events.jsonl.attachments")
    }

    @Test(arguments: [["migrate", "events.jsonl", "out.jsonl"], ["export", "--stream", "--as", "u-pat", "-o", "out.jsonl"]])
    func aWriteFailedOrCrashedAtEveryStepLeavesNoFileOrAWholeOne(_ words: [String]) throws {
        var faulted = 0
        for fault in FaultyFileSystem.Fault.allCases {
            var step = 1
            while true {
                let cli = CLIHarness()
                try Self.setUp(cli)
                let old = cli.logBytes
                let fs = FaultyFileSystem(root: cli.directory, failAt: step, fault: fault)
                let result = cli.run(words, fileSystem: fs)
                guard fs.hitFault else {
                    #expect(result.status == 0, "ran clean: \(result.stderr)")
                    break
                }
                faulted += 1
                if fault == .powerLoss { fs.recoverFromPowerLoss() }
                let context = "\(words[0]): \(fs.injected ?? ""), exit \(result.status): \(result.stderr)"
                #expect(cli.logBytes == old, "the old log changed: \(context)")
                let out = cli.directory + "/out.jsonl"
                if FileManager.default.fileExists(atPath: out) {
                    #expect(FileManager.default.contents(atPath: out).map { Array($0) } == old, "a partial new file: \(context)")
                    if result.status == 0 {
                        #expect(cli.run("verify --log out.jsonl").status == 0, "acknowledged but does not verify: \(context)")
                    }
                } else {
                    #expect(result.status != 0, "acknowledged but not written: \(context)")
                }
                step += 1
            }
        }
        #expect(faulted > 20)
    }
}
