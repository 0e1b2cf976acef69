import Foundation
import Testing
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

/// `interactions`, `analytics`, `show`, `export` as people and scripts use them.
@Suite struct ReadCommandsTests {
    static func family() -> CLIHarness {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.run("log-interaction --as u-maya --school s-ucla --coach c-jane-doe --type email --direction inbound --sentiment positive --interest y,y,y,y,n,n --occurred-at 2026-02-27T15:00:00Z --subject 'Camp invite' --content 'Coach wants film'")
        cli.run(["log-interaction", "--as", "u-leo", "--school", "s-ucla", "--type", "phone_call", "--direction", "outbound",
                 "--occurred-at", "2026-02-20T15:00:00Z", "--subject", String(repeating: "Very long subject ", count: 20),
                 "--content", String(repeating: "Long content line. ", count: 40)])
        return cli
    }

    @Test func athleteSeesMyInteractionsWithThePrivacyNotice() {
        let result = Self.family().run("interactions --as u-maya")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("My Interactions\nℹ️  Your recruiting interactions are visible to your linked parent(s)\n"))
        #expect(result.stdout.contains("1 interaction found"))
        #expect(result.stdout.contains("Camp invite"))
        #expect(!result.stdout.contains("Very long subject"))
        #expect(!result.stdout.contains("\u{1B}["))  // no colour when not a terminal
    }

    @Test func parentSeesInteractionsWithLoggedByBadges() {
        let result = Self.family().run("interactions --as u-pat")
        #expect(result.stdout.hasPrefix("Interactions\n\n"))
        #expect(result.stdout.contains("2 interactions found"))
        #expect(result.stdout.contains("[Maya Lopez]") && result.stdout.contains("[Leo Lopez]"))
        #expect(result.stdout.contains("UCLA • Jane Doe"))
        #expect(result.stdout.contains("📅 Feb 27, 2026, 3:00 PM"))
    }

    @Test func longSubjectIsOneTruncatedLineAndContentIsClampedToTwo() {
        let result = Self.family().run(["interactions", "--as", "u-pat", "--type", "phone_call"], environment: ["COLUMNS": "60"])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let subject = lines.first { $0.contains("Very long subject") }!
        #expect(subject.count <= 60 && subject.hasSuffix("…"))
        #expect(lines.filter { $0.contains("Long content line") }.count == 2)
    }

    @Test func emptyStatesDifferWithAndWithoutFilters() {
        let cli = CLIHarness()
        cli.seedFamily()
        #expect(cli.run("interactions --as u-maya").stdout.contains("No interactions yet\nStart logging your recruiting communications"))
        let filtered = Self.family().run("interactions --as u-pat --type camp --search zzz")
        #expect(filtered.stdout.contains("No interactions match your filters\nTry adjusting your search or filters"))
        #expect(filtered.stdout.contains("[Search: \"zzz\" ×] [Type: Camp ×]"))
    }

    @Test func errorsExitOneWithTheSpecTexts() {
        let cli = Self.family()
        #expect(cli.run("interactions --as u-ghost").stderr == "error: Unknown user u-ghost\n")
        let logged = cli.run("interactions --as u-maya --logged-by me")
        #expect(logged.status == 1 && logged.stderr == "error: --logged-by is available to parents only\n")
        #expect(cli.run("show i-2 --as u-maya").stderr == "error: Interaction not found\n")
        #expect(cli.run("show i-1 --as u-pat --csv").stderr.hasPrefix("error: Export is available to players only\nhint: "))
        #expect(cli.run("interactions --as u-pat --period 10").status == 2)
        #expect(cli.run("interactions --as u-pat --type letter").status == 2)
        #expect(cli.run("interactions").status == 2)
    }

    @Test func jsonOutputsAreTheSpecDocuments() {
        let cli = Self.family()
        let analytics = cli.run("analytics --as u-pat --json")
        #expect(analytics.stdout == #"{"total":2,"outbound":1,"inbound":1,"thisWeek":1}"# + "\n")
        let list = cli.run("interactions --as u-pat --json --direction inbound")
        #expect(list.stdout.hasPrefix(#"{"viewer":{"userId":"u-pat","role":"parent","name":"Pat Lopez"},"privacyNotice":false,"loggedByOptions":[{"userId":"u-pat","label":"Me"},{"userId":"u-leo","label":"Leo Lopez"},{"userId":"u-maya","label":"Maya Lopez"}],"analytics":{"total":1,"outbound":0,"inbound":1,"thisWeek":1},"count":1,"items":[{"id":"i-1","#))
        #expect(cli.run("export --as u-pat --json --direction inbound").stdout == list.stdout)
        let show = cli.run("show i-1 --as u-maya --json")
        #expect(show.stdout.contains(#""content":"Coach wants film\n\n[Coach Interest Level: HIGH]""#))
        #expect(show.stdout.hasSuffix(#""eventId":null,"attachments":[],"canExport":true}"# + "\n"))
    }

    @Test func sameLogAndOptionsGiveIdenticalBytes() {
        let cli = Self.family()
        for words in ["interactions --as u-pat --json", "interactions --as u-maya", "export --as u-pat", "show i-1 --as u-maya --csv"] {
            #expect(cli.run(words).stdout == cli.run(words).stdout, "\(words)")
        }
    }

    @Test func timeTravelShowsTheListAsItWas() {
        let cli = Self.family()
        let before = cli.run("interactions --as u-pat --json --at-seq 5")
        #expect(before.stdout.contains(#""count":0"#))
        let atSix = cli.run("interactions --as u-pat --json --at-seq 6")
        #expect(atSix.stdout.contains(#""count":1"#))
        let asOf = cli.run(["interactions", "--as", "u-pat", "--json", "--as-of", "2026-03-01T12:00:00Z"])
        #expect(asOf.stdout.contains(#""count":2"#))
        // Before the family existed, the parent (a member now) sees it empty.
        let beforeTheFamily = cli.run(["interactions", "--as", "u-pat", "--json", "--as-of", "2026-02-28T00:00:00Z"])
        #expect(beforeTheFamily.status == 0 && beforeTheFamily.stdout.contains(#""count":0"#), "\(beforeTheFamily)")
        // Someone who is no member now is still unknown.
        #expect(cli.run(["interactions", "--as", "u-nobody", "--json", "--as-of", "2026-02-28T00:00:00Z"]).stderr == "error: Unknown user u-nobody\n")
    }

    @Test func aLogWithProblemsStillReadsWithOneWarning() throws {
        let cli = Self.family()
        let handle = try #require(FileHandle(forWritingAtPath: cli.logPath))
        handle.seekToEndOfFile()
        handle.write(Data("not json\n".utf8))
        handle.closeFile()
        let result = cli.run("interactions --as u-pat --json")
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""count":2"#))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.hasPrefix("warning: "))
        #expect(result.stderr.contains(":8: invalid JSON"))
    }

    @Test func exportQuotesCommasQuotesNewlinesAndEmoji() {
        let cli = Self.family()
        cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "dm", "--direction", "outbound",
                 "--occurred-at", "2026-02-28T15:00:00Z", "--subject", "Hi, \"Coach\" 🔥", "--content", "a\nb"])
        let csv = cli.run("export --as u-maya --type dm").stdout
        #expect(csv.contains(#""i-3","dm","Direct Message","outbound","Hi, ""Coach"" 🔥","Hi, ""Coach"" 🔥","a"# + "\n" + #"b","""#))
    }
}

/// Cutting text to the terminal, in terminal cells.
@Suite struct TextCuttingTests {
    @Test func truncateFitsTheCellsAndKeepsAPrefix() {
        let texts = ["", "a", "ab", "abc", "héllo wörld", "line one\nline two", "🔥🔥🔥🔥", "e\u{301}e\u{301}e\u{301}", "東京大学のコーチ",
                     "❤️ ok", String(repeating: "x", count: 500)]
        for text in texts {
            for limit in 1...12 {
                let flat = String(text.map { $0.isNewline ? " " : $0 })
                let cut = TextStyle.truncate(text, to: limit)
                #expect(Cells.width(cut) <= limit, "\(text.debugDescription) to \(limit): \(cut)")
                if Cells.width(flat) <= limit {
                    #expect(cut == flat)
                } else {
                    #expect(cut.hasSuffix("…") && flat.hasPrefix(String(cut.dropLast())), "\(text.debugDescription) to \(limit)")
                }
            }
        }
    }

    @Test func cellsCountWideCharactersTwiceAndMarksNever() {
        #expect(Cells.width("abc") == 3)
        #expect(Cells.width("東京") == 4)
        #expect(Cells.width("🔥") == 2 && Cells.width("❤️") == 2 && Cells.width("❤") == 1)
        #expect(Cells.width("e\u{301}") == 1)
        #expect(Cells.width("ｆｕｌｌ") == 8)
    }

    @Test func wrappingBreaksAtWordsAndLeavesNoTrailingSpace() {
        let lines = TextStyle.wrap("The coach said we should talk again after the winter showcase in Phoenix", width: 20)
        #expect(lines.allSatisfy { Cells.width($0) <= 20 && !$0.hasSuffix(" ") })
        #expect(lines.joined(separator: " ") == "The coach said we should talk again after the winter showcase in Phoenix")
        #expect(TextStyle.wrap(String(repeating: "x", count: 45), width: 20) == [String(repeating: "x", count: 20), String(repeating: "x", count: 20), "xxxxx"])
    }
}

/// Human output at 40, 80 and 120 columns with CJK, emoji and combining marks: no line wider
/// than the terminal, columns aligned, no trailing spaces.
@Suite struct TerminalWidthTests {
    @Test(arguments: [40, 80, 120])
    func layoutsFitTheTerminal(columns: Int) {
        let cli = CLIHarness()
        cli.seedFamily()
        for line in ["add-school --as u-pat --name 東京大学 --school s-tokyo", "add-school --as u-pat --name 'Université de Montréal 🍁' --school s-mtl",
                     "add-coach --as u-pat --school s-tokyo --first 健太 --last 佐藤 --role head",
                     "log-interaction --as u-maya --school s-tokyo --type email --direction inbound --subject '練習の日程について 🔥 e\u{301}' --content 'コーチからの長いメッセージ。 来週の練習に参加できますか？ 詳細は後で送ります。'"] {
            #expect(cli.run(CLIHarness.words(line)).status == 0, "\(line)")
        }
        let env = ["COLUMNS": String(columns)]
        for command in ["interactions --as u-pat", "activity --as u-pat", "schools --as u-pat", "coaches --as u-pat", "show i-1 --as u-maya",
                        "analytics --as u-pat", "notifications --as u-pat"] {  // the audit is one entry a line, by design
            let out = cli.run(CLIHarness.words(command), environment: env).stdout
            for line in out.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(Cells.width(String(line)) <= columns, "\(command) at \(columns): \(line)")
                #expect(!line.hasSuffix(" "), "\(command) at \(columns): trailing space in '\(line)'")
            }
        }
        // The schools table: every row's id starts in the same cell.
        let rows = cli.run(["schools", "--as", "u-pat"], environment: env).stdout.split(separator: "\n").map(String.init)
        let starts = rows.compactMap { row -> Int? in
            guard let range = row.range(of: "s-", options: .backwards) else { return nil }
            return Cells.width(String(row[..<range.lowerBound]))
        }
        #expect(Set(starts).count == 1, "\(rows)")
    }

    /// Issue 27: long names (60+ cells, CJK, emoji) and long default ids fit at 40, 80 and 120
    /// columns on every human-output command.
    @Test(arguments: [40, 80, 120])
    func longNamesAndDefaultIdsFitTheTerminal(columns: Int) {
        let cli = CLIHarness()
        let long = "Emma O’Brien-Łukasiewicz 山田花子 👩‍🎓 Fernández-Villanueva"
        for line in ["add-member --user u-pat --name 'Pat Lopez' --role parent --family f-lopez",
                     "add-member --as u-pat --user u-emma --name '\(long)' --role player",
                     "add-school --as u-pat --name 'University of California, Los Angeles — 加州大学洛杉矶分校 🐻' --status visit_scheduled",
                     "add-coach --as u-pat --school s-university-of-california-los-angeles --first Maximiliana-Josefina --last 'Rodríguez de la Fuente y Montenegro' --role recruiting --coach c-maximiliana-rodriguez-de-la-fuente",
                     "log-interaction --as u-emma --school s-university-of-california-los-angeles --coach c-maximiliana-rodriguez-de-la-fuente --type phone_call --direction inbound --sentiment very_positive --interest y,y,y,y,y,y --subject '\(long) called about the official visit and the scholarship offer' --content 'x'",
                     "upload-document --as u-emma --title '\(long) — transcript, junior year' --doc-type transcript",
                     "change-status --as u-pat --school s-university-of-california-los-angeles --status committed --notes '\(long)'"] {
            #expect(cli.run(CLIHarness.words(line)).status == 0, "\(line)")
        }
        let env = ["COLUMNS": String(columns)]
        for command in ["interactions --as u-pat", "interactions --as u-emma", "activity --as u-pat", "schools --as u-pat", "coaches --as u-pat",
                        "members --as u-pat", "documents --as u-pat", "show i-1 --as u-emma", "show i-1 --as u-pat", "analytics --as u-pat",
                        "notifications --as u-pat", "replay", "verify"] {
            let out = cli.run(CLIHarness.words(command), environment: env).stdout
            for line in out.split(separator: "\n", omittingEmptySubsequences: false) {
                // A command to copy and a hash stand whole on a line of their own, never broken
                // inside (issue 58): the terminal wraps them where they are wider than it.
                let text = line.trimmingCharacters(in: .whitespaces)
                let wholeToken = text.hasPrefix("› compass ") || (text.count == 64 && text.allSatisfy(\.isHexDigit))
                #expect(wholeToken || Cells.width(String(line)) <= columns, "\(command) at \(columns): \(line)")
            }
        }
    }
}
