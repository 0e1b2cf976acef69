import Foundation
import Testing
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

/// `compass audit`: who did what, when.
@Suite struct AuditTests {
    static func history() -> CLIHarness {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.run("add-school --as u-maya --name 'Arizona State' --school s-asu")
        cli.run("log-interaction --as u-maya --school s-asu --type email --direction inbound --subject 'Camp invite' --occurred-at 2026-02-03T15:00:00Z")
        cli.run("log-interaction --as u-maya --school s-ucla --type email --direction outbound --occurred-at 2026-02-03T16:00:00Z")
        cli.run("log-interaction --as u-leo --coach c-jane-doe --type phone_call --direction inbound")
        cli.run("delete-interaction i-2 --as u-maya")
        cli.run("change-status --as u-pat --school s-ucla --status offer_received")
        cli.run("upload-document --as u-leo --title 'Highlight reel' --doc-type highlight_reel")
        return cli
    }

    static func summaries(_ result: CLIHarness.Result) -> [String] {
        result.stdout.split(separator: "\n").map { String($0.split(separator: " · ").last ?? "") }
    }

    @Test func aParentCanAnswerWhatHappenedWithUCLAAndWhoDidIt() {
        let result = Self.history().run("audit --as u-pat --entity s-ucla")
        #expect(result.status == 0)
        #expect(Self.summaries(result) == [
            "Pat Lopez added UCLA as Interested",
            "Pat Lopez added coach Jane Doe (head) at UCLA",
            "Maya Lopez logged an outbound Email with UCLA",
            "Leo Lopez logged an inbound Phone Call with Jane Doe",   // through the coach of UCLA
            "Maya Lopez deleted the Email with UCLA of Feb 3",
            "Pat Lopez moved UCLA to Offer received",
        ])
        #expect(result.stdout.hasPrefix("#4 · Mar 1, 2026, 12:00 PM · Pat Lopez (parent) · SchoolAdded · "))
    }

    @Test func entityHistoryCoversEveryEventType() {
        let cli = Self.history()
        #expect(Self.summaries(cli.run("audit --entity u-maya")) == [
            "Pat Lopez added Maya Lopez as athlete",
            "Maya Lopez added Arizona State",
            "Maya Lopez logged an inbound Email with Arizona State: \"Camp invite\"",
            "Maya Lopez logged an outbound Email with UCLA",
            "Maya Lopez deleted the Email with UCLA of Feb 3",
        ])
        #expect(Self.summaries(cli.run("audit --entity c-jane-doe")).count == 2)
        #expect(Self.summaries(cli.run("audit --entity i-2")).count == 2)
        #expect(Self.summaries(cli.run("audit --entity d-1")) == ["Leo Lopez uploaded Highlight reel (Highlight reel)"])
        #expect(Self.summaries(cli.run("audit --entity u-pat")).first == "Pat Lopez started the family as parent")
    }

    @Test func rejectedLinesAppearWithTheirReason() throws {
        let cli = Self.history()
        let handle = try #require(FileHandle(forWritingAtPath: cli.logPath))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":13,"id":"bad-1","type":"InteractionLogged","at":"2026-03-02T10:00:00Z","actor":"u-pat","family":"f-u-pat","data":{"interactionId":"i-9","schoolId":"s-ucla","type":"email","direction":"inbound"}}"#.utf8 + [0x0A]))
        handle.write(Data("garbage\n".utf8))
        handle.closeFile()
        let human = cli.run("audit --as u-pat --since 2026-03-02T00:00:00Z")
        #expect(human.stdout == "#13 · Mar 2, 2026, 10:00 AM · Pat Lopez (parent) · InteractionLogged · REJECTED (line 13): Only players can create interactions\n")
        let all = cli.run("audit --json")
        let last = all.stdout.split(separator: "\n").last.map(String.init)
        #expect(last == #"{"line":14,"seq":null,"at":null,"actor":null,"actorName":null,"actorRole":null,"family":null,"type":null,"summary":"rejected: invalid JSON","rejected":"invalid JSON"}"#)
    }

    @Test func anAthletesAuditShowsOnlyTheirOwnActions() {
        let cli = Self.history()
        let leo = cli.run("audit --as u-leo")
        #expect(Self.summaries(leo) == [
            "Leo Lopez logged an inbound Phone Call with Jane Doe",
            "Leo Lopez uploaded Highlight reel (Highlight reel)",
        ])
        #expect(cli.run("audit --as u-leo --actor u-maya").stdout == "No history matches\n")
    }

    @Test func actorAndTimeFiltersCombine() {
        let cli = Self.history()
        #expect(Self.summaries(cli.run("audit --actor u-pat --until 2026-03-01T12:00:00Z")).count == 6)
        #expect(cli.run("audit --actor u-pat --since 2026-03-01T12:00:01Z").stdout == "No history matches\n")
        #expect(cli.run("audit --since yesterday").status == 2)
    }
}

/// `compass verify` catches every kind of tampering.
@Suite struct TamperEvidenceTests {
    static func sealed() -> (CLIHarness, [String], String) {
        let cli = AuditTests.history()
        let lines = cli.logText.split(separator: "\n").map(String.init)
        let head = cli.run("verify --json").stdout
        let hash = head.components(separatedBy: #""head":""#)[1].prefix(64)
        return (cli, lines, String(hash))
    }

    static func rewrite(_ cli: CLIHarness, _ lines: [String]) {
        cli.write("events.jsonl", lines.map { $0 + "\n" }.joined())
    }

    static func verify(_ cli: CLIHarness, _ extra: [String] = []) -> CLIHarness.Result {
        cli.run(["verify"] + extra)
    }

    @Test func anIntactLogPassesAndItsHeadIsTheLastLinesHash() {
        let (cli, lines, head) = Self.sealed()
        #expect(head == SHA256.hex(Array(lines.last!.utf8)))
        let result = Self.verify(cli, ["--expect-head", head])
        #expect(result.status == 0)
        #expect(result.stdout.contains("chain: intact\n"))
    }

    @Test func anEditedByteBreaksTheNextLink() {
        var (cli, lines, _) = Self.sealed()
        lines[5] = lines[5].replacingOccurrences(of: "Arizona State", with: "Arizona Stata")
        Self.rewrite(cli, lines)
        let result = Self.verify(cli)
        #expect(result.status == 1)
        #expect(result.stdout.contains("chain: broken at line 7\n"))
        #expect(result.stdout.contains("  7: prev does not match line 6\n"))
    }

    @Test func anInsertedLineIsCaught() {
        var (cli, lines, _) = Self.sealed()
        lines.insert(lines[2].replacingOccurrences(of: "u-leo", with: "u-eve").replacingOccurrences(of: "Leo Lopez", with: "Eve"), at: 3)
        Self.rewrite(cli, lines)
        let result = Self.verify(cli)
        #expect(result.status == 1)
        #expect(result.stdout.contains("chain: broken at line 4\n"))  // the copy links to line 2, not 3
    }

    @Test func aDeletedLineIsCaught() {
        var (cli, lines, _) = Self.sealed()
        lines.remove(at: 7)
        Self.rewrite(cli, lines)
        let result = Self.verify(cli)
        #expect(result.status == 1)
        #expect(result.stdout.contains("chain: broken at line 8\n"))
        #expect(result.stdout.contains("8: seq 9, expected 8"))
    }

    @Test func reorderedLinesAreCaught() {
        var (cli, lines, _) = Self.sealed()
        lines.swapAt(8, 9)
        Self.rewrite(cli, lines)
        let result = Self.verify(cli)
        #expect(result.status == 1)
        #expect(result.stdout.contains("chain: broken at line 9\n"))
    }

    @Test func aRemovedLastLineIsCaughtOnlyByTheExpectedHead() {
        let (cli, lines, head) = Self.sealed()
        Self.rewrite(cli, Array(lines.dropLast()))
        #expect(Self.verify(cli).status == 0)  // a shorter chain is still a chain
        let result = Self.verify(cli, ["--expect-head", head])
        #expect(result.status == 1)
        #expect(result.stdout.replacingOccurrences(of: "\n", with: " ").contains("expected head: \(head) is no family's head and not the root, now or before"))
    }

    @Test func aRewrittenAndResealedLastLineIsCaughtByTheExpectedHead() {
        var (cli, lines, head) = Self.sealed()
        lines[lines.count - 1] = lines[lines.count - 1].replacingOccurrences(of: "Highlight reel", with: "Other reel")
        Self.rewrite(cli, lines)
        #expect(Self.verify(cli).status == 0)
        #expect(Self.verify(cli, ["--expect-head", head]).status == 1)
    }

    @Test func aTornLastLineIsAProblem() {
        let (cli, lines, _) = Self.sealed()
        cli.write("events.jsonl", lines.dropLast().map { $0 + "\n" }.joined() + lines.last!.prefix(40))
        let result = Self.verify(cli)
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(lines.count): torn last line"))
    }

    @Test func aLogWithoutPrevIsUnsealedNotBroken() throws {
        let (cli, lines, _) = Self.sealed()
        let unsealed = lines.map { $0.replacing(#/,"prev":"[0-9a-f]{64}"/#, with: "") }
        Self.rewrite(cli, unsealed)
        let result = Self.verify(cli)
        #expect(result.status == 0)
        #expect(result.stdout.contains("chain: unsealed (no line carries prev)\n"))
    }
}

/// Time travel: a view at `--at-seq N` equals the view of the log with each family's lines
/// after its `seq` N left out (SPEC §1.1).
@Suite struct TimeTravelTests {
    /// `--at-seq 0` is every family before its first line: nothing applied, not a v2 log; each
    /// read command shows its viewer's family empty (the viewer seen as the member they are
    /// now), and a viewer who joined after the cut sees it as it was then.
    @Test func atSeqZeroIsEveryFamilyBeforeItsFirstLineForEveryReadCommand() throws {
        let cli = CLIHarness()
        cli.write("events.jsonl", String(decoding: HistoryGenerator(families: 2, events: 120, seed: 5).bytes(), as: UTF8.self))
        let replay = cli.run("replay --json --at-seq 0")
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains(#""applied":0,"#) && replay.stdout.contains(#""problems":[]"#), "\(replay.stdout)")
        let empty = [#""items":[]"#]
        for (command, expected) in [
            ("interactions --as u-1-1 --json", empty), ("analytics --as u-1-2 --json", [#""total":0"#]),
            ("activity --as u-2-1 --json", empty), ("audit --as u-1-1 --json", []),
            ("schools --as u-1-1 --json", empty), ("coaches --as u-2-1 --json", empty), ("members --as u-1-2 --json", empty),
            ("documents --as u-2-1 --json", empty), ("notifications --as u-1-1 --json", empty), ("report --as u-2-2", ["<html"]),
        ] {
            let result = cli.run(CLIHarness.words(command) + ["--at-seq", "0"])
            #expect(result.status == 0, "\(command) --at-seq 0: \(result.stderr)")
            for text in expected { #expect(result.stdout.contains(text), "\(command) --at-seq 0: \(result.stdout.prefix(300))") }
        }
        // The audit's JSON is a line per entry: none.
        #expect(cli.run("audit --as u-1-1 --json --at-seq 0").stdout.isEmpty)
        // An interaction that did not exist then is not found, as at any seq before it.
        #expect(cli.run("show i-1 --as u-1-1 --at-seq 0").stderr.contains("Interaction not found"))
        // The athlete joined at seq 2: at seq 1 their family holds only its first parent.
        let members = cli.run("members --as u-1-2 --json --at-seq 1")
        #expect(members.status == 0 && members.stdout.contains(#""userId":"u-1-1""#) && !members.stdout.contains(#""userId":"u-1-2""#),
                "\(members)")
    }

    @Test func atSeqEqualsTheLogCutAfterEachFamilysSeqForRandomCutPoints() throws {
        let cli = CLIHarness()
        let log = HistoryGenerator(families: 2, events: 400, seed: 77).bytes()
        cli.write("events.jsonl", String(decoding: log, as: UTF8.self))
        let lines = String(decoding: log, as: UTF8.self).split(separator: "\n")
        func seq(_ line: Substring) -> Int { Int(line.dropFirst(#"{"seq":"#.count).prefix { $0.isNumber })! }
        var rng = SplitMix64(seed: 2026)
        for _ in 0..<8 {
            let n = 10 + rng.below(190)
            cli.write("cut.jsonl", lines.filter { seq($0) <= n }.map { $0 + "\n" }.joined())
            for command in ["interactions --as u-1-1 --json", "activity --as u-2-1 --json --page-size 500", "audit --as u-1-1 --json",
                            "schools --as u-1-1 --json", "coaches --as u-2-1 --json", "members --as u-1-2 --json",
                            "documents --as u-2-1 --json", "notifications --as u-1-1 --json", "report --as u-2-2"] {
                let travelled = cli.run(CLIHarness.words(command) + ["--at-seq", String(n)])
                let truncated = cli.run(CLIHarness.words(command) + ["--log", cli.directory + "/cut.jsonl"])
                // The audit numbers lines as the file does: the cut file's differ.
                let unnumbered = { (text: String) in text.replacingOccurrences(of: #""line":[0-9]+,"#, with: "", options: .regularExpression) }
                #expect(unnumbered(travelled.stdout) == unnumbered(truncated.stdout), "\(command) at \(n)")
                #expect(travelled.status == truncated.status)
            }
        }
    }
}
