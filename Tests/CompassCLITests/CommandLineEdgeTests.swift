import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

#if canImport(Glibc)
import Glibc
#endif

/// The command line at its edges: CSV cells that would run as formulas, alerts for a parent
/// who joins later, hints that name real commands, completion, bad times, a mistyped `--log`.
@Suite struct CommandLineEdgeTests {
    // MARK: 18. CSV cells a spreadsheet would run as formulas are neutralised

    @Test func csvCellsThatStartAFormulaArePrefixedWithAQuote() {
        let cli = CLIHarness()
        cli.seedFamily()
        let planted = ["=HYPERLINK(\"http://x\",\"y\")", "=cmd|'/C calc'!A0", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]
        for (n, text) in planted.enumerated() {
            let result = cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "outbound",
                                  "--subject", text, "--content", text.hasPrefix("@") ? "-" + text : text, "--occurred-at", "2026-02-0\(n + 1)T10:00:00Z"])
            #expect(result.status == 0, "\(result)")
        }
        let export = cli.run(["export", "--as", "u-maya"]).stdout
        for text in planted {
            let quoted = text.replacingOccurrences(of: "\"", with: "\"\"")
            #expect(export.contains("\"'\(quoted)\"") && !export.contains(",\"\(quoted)\""), "\(text)")
        }
        let show = cli.run(["show", "i-1", "--as", "u-maya", "--csv"]).stdout
        #expect(show.contains("\"Subject\",\"'=HYPERLINK(") && show.contains("\"Content\",\"'=HYPERLINK("), "\(show)")
        // JSON and the human output show the text as it was written.
        #expect(cli.run(["show", "i-1", "--as", "u-maya", "--json"]).stdout.contains(#""subject":"=HYPERLINK("#))
    }

    // MARK: 13. A parent who joins later is not alerted for the past

    @Test func aParentWhoJoinsLaterGetsAlertsOnlyForWhatCameAfter() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.runAll(["log-interaction --as u-maya --school s-ucla --coach c-jane-doe --type email --direction inbound --subject Before",
                    "add-member --as u-pat --user u-kim --name 'Kim Lopez' --role parent",
                    "log-interaction --as u-maya --school s-ucla --type phone_call --direction inbound --subject After"])
        let kim = cli.run(["notifications", "--as", "u-kim", "--json"]).stdout
        #expect(kim.contains(#""unread":1,"#) && kim.contains("notification-i-2") && !kim.contains("notification-i-1"), "\(kim)")
        let pat = cli.run(["notifications", "--as", "u-pat", "--json"]).stdout
        #expect(pat.contains(#""unread":2,"#), "\(pat)")
        // The same from a snapshot.
        _ = cli.run(["schools", "--as", "u-pat"], environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "0"])
        #expect(cli.run(["notifications", "--as", "u-kim", "--json"]).stdout == kim)
    }

    // MARK: 19. Smaller: hints name real commands, completion kinds, bad times, a mistyped --log

    @Test func everyHintNamesACommandThatExists() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.runAll(["log-interaction --as u-maya --school s-ucla --type email --direction inbound"])
        let attempts = [["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--coach", "c-zzzzzzzzzzzz", "--type", "email", "--direction", "inbound"],
                        ["log-interaction", "--as", "u-maya", "--school", "s-zzzzzzzzzzzz", "--type", "email", "--direction", "inbound"],
                        ["delete-interaction", "i-zzzzzzzzzzzz", "--as", "u-maya"],
                        ["change-status", "--as", "u-pat", "--school", "s-zzzzzzzzzzzz", "--status", "visited"]]
        var named = 0
        for words in attempts {
            let result = cli.run(words)
            #expect(result.status == 1, "\(words): \(result)")
            guard let range = result.stderr.range(of: "run 'compass ") else { continue }
            let command = result.stderr[range.upperBound...].prefix { $0 != "'" && $0 != " " }
            #expect(CommandCatalog.find(String(command)) != nil, "\(words): \(result.stderr)")
            named += 1
        }
        #expect(named == attempts.count)
    }

    @Test func idCompletionGivesEachKindItsOwnIds() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.runAll(["log-interaction --as u-maya --school s-ucla --type email --direction inbound",
                    "upload-document --as u-maya --title Transcript --doc-type transcript"])
        func ids(_ kind: String, _ viewer: String = "u-pat") -> [String] {
            cli.run(["__ids", kind, "--as", viewer]).stdout.split(separator: "\n").map(String.init)
        }
        #expect(ids("school") == ["s-ucla"])
        #expect(ids("coach") == ["c-jane-doe"])
        #expect(ids("interaction") == ["i-1"])
        #expect(ids("member") == ["u-leo", "u-maya", "u-pat"])
        #expect(ids("document") == ["d-1"] && ids("document", "u-leo").isEmpty)
        #expect(ids("nonsense").isEmpty)
    }

    @Test func aBadOccurredAtIsAUsageErrorLikeABadNow() {
        let cli = CLIHarness()
        cli.seedFamily()
        let before = cli.logBytes
        // (A time without an offset is a local time, SPEC §4 v3.1: with no zone it is refused
        // naming --tz, LocalTimeTests.)
        for time in ["2026-11-20T10:00:00+25:00", "yesterday", "2026-13-01"] {
            let logged = cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email",
                                  "--direction", "outbound", "--occurred-at", time])
            let now = cli.run(["add-school", "--as", "u-pat", "--name", "X", "--now", time])
            #expect(logged.status == 2 && logged.stderr.hasPrefix("error: invalid time '\(time)' for '--occurred-at'"), "\(logged)")
            #expect(now.status == 2 && now.stderr.hasPrefix("error: invalid time '\(time)' for '--now'"), "\(now)")
        }
        #expect(cli.logBytes == before)
        // A date is midnight in the zone, kept as a time.
        #expect(cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "outbound",
                         "--occurred-at", "2026-02-03", "--tz", "America/New_York"]).status == 0)
        #expect(cli.logText.contains(#""occurredAt":"2026-02-03T05:00:00.000Z""#))
    }

    @Test func anAppendToAMistypedLogSaysThereIsNoLogAndCreatesNothing() {
        let cli = CLIHarness()
        cli.seedFamily()
        let result = cli.run(["add-school", "--as", "u-pat", "--name", "Duke", "--log", cli.directory + "/evnets.jsonl"])
        #expect(result.status == 1 && result.stderr.hasPrefix("error: no log at \(cli.directory)/evnets.jsonl\n"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/evnets.jsonl"))
        // A new family's first member still starts a log anywhere.
        #expect(cli.run(["add-member", "--user", "u-new", "--name", "New", "--role", "parent", "--family", "f-new",
                         "--log", cli.directory + "/new.jsonl"]).status == 0)
    }
}
