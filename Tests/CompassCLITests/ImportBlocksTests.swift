import Foundation
import Testing
import CompassTestSupport
import CompassStore
@testable import CompassCore

/// `import` decides and writes a file a block at a time (so it holds one block, not the
/// file): whatever the block size, the same file gives the same answer and the same log, a
/// line rejected in a late block still leaves the log byte-identical, and every rejected line
/// is reported.
@Suite struct ImportBlocksTests {
    /// Block sizes that cut the files at every kind of place, and the default.
    static let blockSizes: [String?] = ["1", "2", "3", "7", nil]

    @Test(arguments: 0..<12)
    func anyBlockSizeGivesTheSameAnswerAndTheSameLog(seed: Int) throws {
        let file = Self.importFile(seed: UInt64(seed))
        var first: (CLIHarness.Result, [UInt8])?
        for size in Self.blockSizes {
            let cli = CLIHarness()
            cli.seedFamily()
            let before = cli.logBytes
            cli.write("in.jsonl", file.text)
            let result = cli.run(["import", "in.jsonl"], environment: size.map { ["COMPASS_IMPORT_BLOCK_LINES": $0] } ?? [:])
            let context = "seed \(seed), block \(size ?? "default"): \(result.stderr)"
            #expect(result.status == (file.rejected.isEmpty ? 0 : 1), "\(context)")
            if !file.rejected.isEmpty {
                // Nothing written, every rejected line named, and no journal left behind.
                #expect(cli.logBytes == before, "\(context)")
                for line in file.rejected { #expect(result.stderr.contains("\n  line \(line): "), "line \(line) not reported: \(context)") }
            }
            #expect(!FileManager.default.fileExists(atPath: cli.logPath + ".journal"), "\(context)")
            #expect(cli.run(["verify"]).status == 0, "\(context)")
            if let (result0, log0) = first {
                #expect(result.status == result0.status && result.stdout == result0.stdout && result.stderr == result0.stderr, "\(context)")
                #expect(cli.logBytes == log0, "\(context)")
            } else {
                first = (result, cli.logBytes)
            }
        }
    }

    /// An app's lines of a generated history (no `seq`, no `prev`), imported whole or in
    /// blocks of any size, give back the generator's log byte for byte: a block of several
    /// families is sealed one family per core while the block before is written, a small one
    /// in order on one thread.
    @Test(arguments: [nil, "300", "97", "1000"] as [String?])
    func anAppsLinesOfAGeneratedHistoryImportBackToItExactly(size: String?) throws {
        let cli = CLIHarness()
        let generated = cli.run(["generate", "--events", "3000", "--families", "7", "--seed", "11"])
        try #require(generated.status == 0, "\(generated.stderr)")
        let seq = try Regex(#"^\{"seq":[0-9]+,"#)
        let prev = try Regex(#","prev":"[0-9a-f]{64}"\}$"#)
        let appLines = generated.stdout.split(separator: "\n").map { line in
            String(line).replacing(seq, with: "{").replacing(prev, with: "}")
        }
        #expect(appLines.allSatisfy { !$0.contains(#""seq""#) && !$0.contains(#""prev""#) })
        cli.write("app.jsonl", appLines.joined(separator: "\n") + "\n")
        let result = cli.run(["import", "app.jsonl", "--log", "rebuilt.jsonl"],
                             environment: size.map { ["COMPASS_IMPORT_BLOCK_LINES": $0] } ?? [:])
        #expect(result.status == 0, "\(result.stderr)")
        let rebuilt = try POSIXFileSystem().readFile(cli.directory + "/rebuilt.jsonl") ?? []
        #expect(rebuilt == Array(generated.stdout.utf8), "block \(size ?? "default")")
    }

    @Test func aRejectedImportIntoANewLogCreatesNothing() {
        let cli = CLIHarness()
        let lines = (1...9).map { n in
            #"{"id":"j-\#(n)","type":"MemberJoined","actor":"u-\#(n)","data":{"userId":"u-\#(n)","fullName":"Member \#(n)","role":"parent"}}"#
        } + [#"{"id":"bad","type":"SchoolAdded","actor":"u-nobody","data":{"schoolId":"s-1","name":"X"}}"#]
        cli.write("in.jsonl", lines.joined(separator: "\n") + "\n")
        let result = cli.run(["import", "in.jsonl", "--log", "new/events.jsonl"], environment: ["COMPASS_IMPORT_BLOCK_LINES": "2"])
        #expect(result.status == 1 && result.stderr.contains("line 10: Unknown user u-nobody"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/new"), "\(result)")
    }

    @Test func expectVersionHoldsAcrossBlocks() {
        let cli = CLIHarness()
        cli.seedFamily()
        let version = 5  // the seeded family's five lines
        let ok = (1...5).map { #"{"id":"v-\#($0)","type":"SchoolAdded","actor":"u-pat","data":{"schoolId":"s-v\#($0)","name":"V \#($0)"}}"# }
        cli.write("ok.jsonl", ok.joined(separator: "\n") + "\n")
        let stale = cli.run(["import", "ok.jsonl", "--expect-version", "4"], environment: ["COMPASS_IMPORT_BLOCK_LINES": "2"])
        #expect(stale.status != 0 && stale.stderr.contains("expected version 4 of family f-u-pat, but it is 5"), "\(stale)")
        // A later block writing to another family is a conflict, and nothing is written.
        let before = cli.logBytes
        let other = ok + [#"{"id":"v-x","type":"MemberJoined","actor":"u-x","data":{"userId":"u-x","fullName":"X","role":"parent"}}"#]
        cli.write("other.jsonl", other.joined(separator: "\n") + "\n")
        let conflict = cli.run(["import", "other.jsonl", "--expect-version", "\(version)"], environment: ["COMPASS_IMPORT_BLOCK_LINES": "2"])
        #expect(conflict.status != 0 && conflict.stderr.contains("Conflict"), "\(conflict)")
        #expect(cli.logBytes == before)
        let written = cli.run(["import", "ok.jsonl", "--expect-version", "\(version)"], environment: ["COMPASS_IMPORT_BLOCK_LINES": "2"])
        #expect(written.status == 0 && written.stdout.contains("seq 6–10"), "\(written)")
    }

    /// A generated import file for the seeded family: schools and coaches it adds, interactions
    /// naming them (or a school not yet added), members joining new families, lines with and
    /// without `family`, and, in some files, an unreadable line, an unknown actor or a
    /// repeated id. `rejected` lists the lines that must be reported.
    static func importFile(seed: UInt64) -> (text: String, rejected: [Int]) {
        var rng = SplitMix64(seed: seed &+ 77)
        let spoil = seed % 3 != 0  // two files in three hold a bad line
        var lines: [String] = []
        var rejected: [Int] = []
        var schools = ["s-ucla"]
        let count = 8 + rng.below(30)
        let badAt = spoil ? 1 + rng.below(count - 1) : -1  // line 1 adds e-0, which a bad line may repeat
        for n in 0..<count {
            let family = rng.below(2) == 0 ? #","family":"f-u-pat""# : ""
            if n == badAt {
                switch rng.below(4) {
                case 0: lines.append("{not json")
                case 1: lines.append(#"{"id":"x-\#(n)","type":"SchoolAdded","actor":"u-ghost","data":{"schoolId":"s-g","name":"G"}}"#)
                case 2: lines.append(#"{"id":"e-0","type":"SchoolAdded","actor":"u-pat"\#(family),"data":{"schoolId":"s-dup\#(n)","name":"Dup"}}"#)
                default: lines.append(#"{"id":"x-\#(n)","type":"InteractionLogged","actor":"u-maya"\#(family),"data":{"interactionId":"i-x\#(n)","schoolId":"s-never","type":"email","direction":"outbound"}}"#)
                }
                rejected.append(n + 1)
                continue
            }
            switch n == 0 ? 0 : rng.below(4) {
            case 0:
                let school = "s-\(seed)-\(n)"
                schools.append(school)
                lines.append(#"{"id":"e-\#(n)","type":"SchoolAdded","actor":"u-pat"\#(family),"data":{"schoolId":"\#(school)","name":"School \#(n)"}}"#)
            case 1:
                lines.append(#"{"id":"e-\#(n)","type":"MemberJoined","actor":"u-n\#(n)","data":{"userId":"u-n\#(n)","fullName":"New \#(n)","role":"parent"}}"#)
            default:
                let school = schools[rng.below(schools.count)]
                let id = rng.below(3) == 0 ? "" : #""id":"e-\#(n)","#
                lines.append(#"{\#(id)"type":"InteractionLogged","actor":"u-maya"\#(family),"data":{"interactionId":"i-\#(n)","schoolId":"\#(school)","type":"email","direction":"inbound","subject":"Line \#(n) <b>bold</b>"}}"#)
            }
        }
        return (lines.joined(separator: "\n") + (rng.below(2) == 0 ? "\n" : ""), rejected)
    }
}
