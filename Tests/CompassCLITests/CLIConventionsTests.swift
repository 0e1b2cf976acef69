import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

/// What git, ripgrep and sqlite3 users expect of a command line (issue 15).
@Suite struct CLIConventionsTests {
    // MARK: 1. Values and errors on the write side

    @Test func listedValuesAreCheckedOnAppendsWithTheValidValues() {
        let cli = CLIHarness()
        cli.seedFamily()
        let before = cli.logBytes
        let type = cli.run("log-interaction --as u-maya --school s-ucla --type e-mail --direction inbound")
        #expect(type.status == 2)
        #expect(type.stderr.hasPrefix("error: invalid value 'e-mail' for '--type' (expected email, phone_call, text, in_person_visit, virtual_meeting, camp, showcase, tweet, dm)"))
        #expect(cli.run("add-member --as u-pat --user u-x --name X --role coach").stderr.contains("(expected athlete, player, parent)"))
        #expect(cli.run("add-coach --as u-pat --school s-ucla --first A --last B --role boss").status == 2)
        let interest = cli.run("log-interaction --as u-maya --school s-ucla --type email --direction inbound --sentiment positive --interest y,y,y")
        #expect(interest.status == 2 && interest.stderr.contains("expected six answers, one per question, got 3"))
        let folder = cli.run("log-interaction --as u-maya --school s-ucla --type email --direction inbound --attach .")
        #expect(folder.status == 1 && folder.stderr.contains("is a directory, not a file"))
        #expect(cli.logBytes == before)
    }

    // MARK: 2. Help and discovery

    @Test func everyCommandTakesDashHAndHasExamples() {
        let cli = CLIHarness()
        for spec in CommandCatalog.all where !spec.name.hasPrefix("__") {  // the completion helper is hidden
            let short = cli.run([spec.name, "-h"])
            #expect(short.status == 0 && short.stdout.hasPrefix("usage: compass \(spec.name)"), "\(spec.name)")
            #expect(short.stdout.contains("\nexamples:\n  compass "), "\(spec.name) has no examples")
            #expect(cli.run(["help", spec.name]).stdout == short.stdout)
        }
        #expect(cli.run(["--version"]).stdout == "compass \(CompassVersion.current)\n")
    }

    @Test func helpListsOnlyTheOptionsACommandUses() {
        let cli = CLIHarness()
        let generate = cli.run(["generate", "-h"]).stdout
        for unused in ["--log", "--as", "--now", "--tz"] { #expect(!generate.contains(unused), "generate lists \(unused)") }
        let verify = cli.run(["verify", "-h"]).stdout
        for unused in ["--as", "--now", "--tz"] { #expect(!verify.contains(unused), "verify lists \(unused)") }
        #expect(cli.run(["generate", "--log", "x.jsonl"]).status == 2)  // refused, not ignored
    }

    @Test func misspelledCommandsAndOptionsGetASuggestion() {
        let cli = CLIHarness()
        #expect(cli.run(["intractions"]).stderr.hasPrefix("error: unknown command 'intractions'; did you mean 'interactions'?"))
        #expect(cli.run(["interactions", "--serch", "x"]).stderr.hasPrefix("error: unknown option '--serch' for 'interactions'; did you mean '--search'?"))
    }

    // MARK: 3. Time as people live it

    @Test func theTimeZoneComesFromTheEnvironmentAndDatesMeanLocalMidnight() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        let logged = cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "inbound",
                              "--occurred-at", "2026-02-20", "--json"], environment: ["COMPASS_TZ": "America/Chicago"])
        #expect(logged.status == 0, "\(logged.stderr)")
        #expect(cli.logText.contains(#""occurredAt":"2026-02-20T06:00:00.000Z""#))  // midnight in Chicago
        let show = cli.run(["show", "i-1", "--as", "u-maya"], environment: ["TZ": "America/Chicago"])
        #expect(show.stdout.contains("Feb 20, 2026, 12:00 AM"))
        #expect(cli.run(["show", "i-1", "--as", "u-maya"], environment: ["TZ": "Not/AZone"]).stdout.contains("Feb 20, 2026, 6:00 AM"))
        let bad = cli.run(["interactions", "--as", "u-maya"], environment: ["COMPASS_TZ": "Mars/Olympus"])
        #expect(bad.status == 2 && bad.stderr.contains("for '$COMPASS_TZ'"))
        let travelled = cli.run(["analytics", "--as", "u-pat", "--as-of", "2026-03-02"])
        #expect(travelled.stdout.hasPrefix("as of Mar 2, 2026, 12:00 AM\n"), "\(travelled.stdout) \(travelled.stderr)")
        #expect(cli.run(["interactions", "--as", "u-pat", "--at-seq", "5"]).stdout.hasPrefix("as of seq 5\n"))
        #expect(!cli.run(["analytics", "--as", "u-pat", "--as-of", "2026-03-02", "--json"]).stdout.contains("as of"))
        #expect(cli.run(["audit", "--since", "tomorrow"]).stderr.contains("e.g. 2026-02-03T14:15:00Z, a local time with --tz, 2026-02-03T14:15, or a date, 2026-02-03"))
    }

    // MARK: 4. Long text and files

    @Test func longTextComesFromStandardInputOrAFile() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("notes.txt", "Line one\nLine two\n")
        let console = Console(capturing: true)
        let status = Compass.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "outbound",
                                  "--content", "-", "--log", cli.logPath, "--now", cli.now], environment: [:], console: console,
                                 clock: { Timestamp(millisecondsSinceEpoch: 0) }, makeId: { "e-stdin" }, currentDirectory: cli.directory,
                                 standardInput: { _ in Array("From the pipe".utf8) })
        #expect(status == 0)
        #expect(cli.logText.contains(#""content":"From the pipe""#))
        #expect(cli.run(["change-status", "--as", "u-pat", "--school", "s-ucla", "--status", "visited", "--notes", "@notes.txt"]).status == 0)
        #expect(cli.logText.contains(#""notes":"Line one\nLine two\n""#))
        #expect(cli.run(["change-status", "--as", "u-pat", "--school", "s-ucla", "--status", "visited", "--notes", "@@home"]).status == 0)
        #expect(cli.logText.contains(#""notes":"@home""#))
        #expect(cli.run(["change-status", "--as", "u-pat", "--school", "s-ucla", "--status", "x", "--notes", "@missing.txt"]).status == 1)
        let importConsole = Console(capturing: true)
        let line = #"{"type":"SchoolAdded","actor":"u-pat","data":{"schoolId":"s-piped","name":"Piped"}}"# + "\n"
        let imported = Compass.run(["import", "-", "--log", cli.logPath, "--now", cli.now], environment: [:], console: importConsole,
                                   clock: { Timestamp(millisecondsSinceEpoch: 0) }, makeId: { "e-import" }, currentDirectory: cli.directory,
                                   standardInput: { _ in Array(line.utf8) })
        #expect(imported == 0 && cli.logText.contains("s-piped"))
    }

    // MARK: 5 (part). Limits

    @Test func limitShowsAtMostNItems() {
        let cli = CLIHarness()
        cli.seedFamily()
        for n in 1...3 { cli.run("log-interaction --as u-maya --school s-ucla --type text --direction outbound --subject Note\(n)") }
        #expect(cli.run("interactions --as u-pat --limit 1").stdout.contains("3 interactions found (showing 1)"))
        #expect(cli.run("audit --as u-pat --limit 2").stdout.split(separator: "\n").count == 2)
        #expect(cli.run("activity --as u-pat --limit 1").stdout.components(separatedBy: "Text with UCLA").count == 2)
        #expect(cli.run("audit --limit 0").status == 2)
        // The audit's limit keeps the latest entries (as `git log -n`), oldest of them first.
        let latest = cli.run("audit --as u-pat --limit 2 --json").stdout.split(separator: "\n")
        #expect(latest.count == 2 && latest[0].contains(#""seq":7"#) && latest[1].contains(#""seq":8"#), "\(latest)")
        // With --json the limit applies to the items; the counts stay the whole list's.
        let json = cli.run("interactions --as u-pat --limit 1 --json").stdout
        #expect(json.contains(#""count":3"#) && json.components(separatedBy: #""displaySubject""#).count == 2)
        let activity = cli.run("activity --as u-pat --limit 1 --json").stdout
        #expect(activity.components(separatedBy: #""clickUrl""#).count == 2 && !activity.contains(#""totalCount":1,"#))
    }

    // MARK: 5 (part). Colour

    @Test func colourFollowsTheFlagNoColorWhenSetAndDumbTerminals() {
        func colour(_ words: [String], _ environment: [String: String], terminal: Bool) -> Bool {
            var arguments = ParsedArguments(command: "interactions")
            if let value = words.first { arguments.values["color"] = [value] }
            let inv = Invocation(arguments: arguments, environment: environment, console: Console(capturing: true, isTerminal: terminal),
                                 clock: { Timestamp(millisecondsSinceEpoch: 0) }, makeId: { "" }, currentDirectory: "/")
            return TextStyle(inv).colour
        }
        #expect(colour([], [:], terminal: true))
        #expect(!colour([], [:], terminal: false))
        #expect(!colour([], ["NO_COLOR": "1"], terminal: true))
        #expect(colour([], ["NO_COLOR": ""], terminal: true))  // no-color.org: only when non-empty
        #expect(!colour([], ["TERM": "dumb"], terminal: true))
        #expect(colour(["always"], ["NO_COLOR": "1"], terminal: false))
        #expect(!colour(["never"], [:], terminal: true))
        let cli = CLIHarness()
        cli.seedFamily()
        #expect(cli.run("interactions --as u-pat --color always").stdout.contains("\u{1B}[1m"))
        #expect(!cli.run("interactions --as u-pat --color never").stdout.contains("\u{1B}"))
        #expect(cli.run("interactions --as u-pat --color sometimes").status == 2)
    }

    // MARK: 8. Attachments people can open

    @Test func attachmentsAreWrittenUnderTheirNameAndVerifyChecksEveryBlob() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("film notes.txt", "Watch the second half\n")
        #expect(cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "inbound",
                         "--attach", "film notes.txt"]).status == 0)
        #expect(cli.run("show i-1 --as u-maya").stdout.contains("› compass attachment get i-1 'film notes.txt'"))
        try FileManager.default.removeItem(atPath: cli.directory + "/film notes.txt")
        let got = cli.run(["attachment", "get", "i-1", "film notes.txt", "--as", "u-pat"])
        #expect(got.status == 0, "\(got.stderr)")
        #expect(try String(contentsOfFile: cli.directory + "/film notes.txt", encoding: .utf8) == "Watch the second half\n")
        #expect(cli.run(["attachment", "get", "i-1", "film notes.txt", "--as", "u-pat"]).stderr.contains("already exists"))
        #expect(cli.run(["attachment", "get", "i-1", "film notes.txt", "--as", "u-pat", "-o", "copy.txt"]).status == 0)
        #expect(cli.run(["attachment", "get", "i-1", "other.pdf", "--as", "u-pat"]).stderr == "error: No attachment 'other.pdf' on i-1\nhint: i-1 has 'film notes.txt'\n")
        #expect(cli.run("verify").stdout.contains("attachments: 1 checked, all whole\n"))
        // A blob changed or gone: verify fails and names it.
        let blob = try #require(FileManager.default.contentsOfDirectory(atPath: cli.logPath + ".attachments").first)
        try Data("tampered".utf8).write(to: URL(fileURLWithPath: cli.logPath + ".attachments/" + blob))
        let corrupt = cli.run("verify")
        #expect(corrupt.status == 1 && corrupt.stdout.contains("i-1 film notes.txt: does not match its hash"))
        try FileManager.default.removeItem(atPath: cli.logPath + ".attachments/" + blob)
        #expect(cli.run("verify --json").stdout.contains(#"{"line":null,"message":"attachment i-1 film notes.txt missing ("#))
    }

    @Test func anAttachmentNameFromTheLogNeverLeavesTheFolder() {
        #expect(AttachmentCommand.safeFileName("../../.bashrc") == ".bashrc")
        #expect(AttachmentCommand.safeFileName("/etc/passwd") == "passwd")
        #expect(AttachmentCommand.safeFileName("..") == "attachment")
    }

    // MARK: 9. Contradictions

    @Test func contradictoryOptionsAreUsageErrors() {
        let cli = CLIHarness()
        cli.seedFamily()
        #expect(cli.run("show i-1 --as u-maya --csv --json").status == 2)
    }
}

/// Shell integration (issue 15, item 7): the completion scripts and the man page come from the
/// command table, and the bash script loads and completes in a real bash.
@Suite struct ShellIntegrationTests {
    /// Runs a bash script with the built `compass` first on the PATH.
    static func bash(_ script: String) throws -> String {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = URL(fileURLWithPath: Binary.path).deletingLastPathComponent().path + ":" + (env["PATH"] ?? "")
        return try Binary.tool("/bin/bash", ["-c", script], environment: env)
    }

    @Test func theBashCompletionLoadsAndCompletesCommandsValuesAndOwnIds() throws {
        let log = Binary.packageRoot + "/events-samples/family.jsonl"
        #expect(try Self.bash("source <(compass completions bash); complete -p compass") == "complete -F _compass compass\n")
        let complete = { (words: String, index: Int) throws -> String in
            try Self.bash("source <(compass completions bash); COMP_WORDS=(\(words)); COMP_CWORD=\(index); _compass; echo \"${COMPREPLY[*]}\"")
        }
        #expect(try complete("compass intera", 1) == "interactions\n")
        #expect(try complete("compass log-interaction --type ph", 3) == "phone_call\n")
        #expect(try complete("compass change-status --log \(log) --as u-pat --school s-u", 7) == "s-ucla\n")
        #expect(try complete("compass interactions --se", 2) == "--search --sentiment\n")
        // Member ids, never file names, for --as (of an --as given earlier) and --logged-by (with `me`).
        #expect(try complete("compass interactions --log \(log) --as u-pat --logged-by u-", 7) == "u-leo u-maya u-pat\n")
        #expect(try complete("compass interactions --log \(log) --as u-pat --logged-by m", 7) == "me\n")
        #expect(try complete("compass erase --log \(log) --as u-pat --member u-m", 7) == "u-maya\n")
        // Only what the viewer can see is offered: exactly Maya's live interactions, not Leo's.
        let offered = Set(try complete("compass show i- --as u-maya --log \(log)", 2).split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
        let list = try Binary.run(["interactions", "--as", "u-maya", "--json", "--log", log]).stdout
        let object = try #require(JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String: Any])
        let visible = Set((object["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        #expect(!visible.isEmpty && offered == visible)
    }

    @Test func zshFishAndTheManPageComeFromTheSameTable() {
        let cli = CLIHarness()
        #expect(cli.run(["completions", "zsh"]).stdout.hasPrefix("#compdef compass\n"))
        let fish = cli.run(["completions", "fish"]).stdout
        for spec in CommandCatalog.all where !spec.name.hasPrefix("__") { #expect(fish.contains("-a \(spec.name) -d"), "\(spec.name)") }
        #expect(cli.run(["completions", "tcsh"]).status == 2)
        let man = cli.run(["man"]).stdout
        #expect(man.hasPrefix(".TH COMPASS 1"))
        for spec in CommandCatalog.all where !spec.name.hasPrefix("__") { #expect(man.contains(".SS \(spec.name.replacingOccurrences(of: "-", with: "\\-"))"), "\(spec.name)") }
        #expect(!cli.run(["--help"]).stdout.contains("__ids"))
    }
}

/// Progress of long work (issue 15, item 6): on a terminal's stderr, throttled, erased; never
/// anywhere else.
@Suite struct ProgressTests {
    @Test func progressIsShownThrottledAndErasedOnlyOnATerminal() {
        let console = Console(capturing: true, errorIsTerminal: true)
        var clock = 0.0
        let meter = ProgressMeter("replaying", console: console, now: { clock })
        meter.bytes(1 << 20, of: 10 << 20, events: 1000)  // too early: nothing
        #expect(console.capturedErr.isEmpty)
        clock = 0.5
        meter.bytes(2 << 20, of: 10 << 20, events: 5000)
        clock = 0.55
        meter.bytes(3 << 20, of: 10 << 20, events: 6000)  // within 0.1 s of the last: throttled
        let shown = String(decoding: console.capturedErr, as: UTF8.self)
        #expect(shown == "\r\u{1B}[Kreplaying: 2.0/10.0 MB · 10,000 events/s")
        meter.finish()
        #expect(String(decoding: console.capturedErr, as: UTF8.self).hasSuffix("\r\u{1B}[K"))
        // A command whose stderr is not a terminal prints no progress.
        let cli = CLIHarness()
        cli.seedFamily()
        #expect(cli.run("replay").stderr.isEmpty)
    }

    /// Help is wrapped to the terminal: at 40, 80 and 120 columns no line of the overview or of
    /// any command's help is wider (examples stay whole, to be copied), and no word is lost.
    @Test func helpFitsTheTerminalAtEveryWidth() {
        let cli = CLIHarness()
        for width in [40, 80, 120] {
            let environment = ["COLUMNS": String(width)]
            var pages = [cli.run(["--help"], environment: environment).stdout]
            for spec in CommandCatalog.all where !spec.name.hasPrefix("__") {
                pages.append(cli.run([spec.name, "--help"], environment: environment).stdout)
            }
            for page in pages {
                var inExamples = false
                for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix("examples:") { inExamples = true }
                    if !inExamples { #expect(Cells.width(String(line)) <= width, "\(width): \(line)") }
                }
            }
            // Nothing of a command's help is lost: its text, white space aside, is all there.
            let spec = CommandCatalog.find("log-interaction")!
            let packed = cli.run(["log-interaction", "--help"], environment: environment).stdout.filter { !$0.isWhitespace }
            for option in spec.options { #expect(packed.contains(option.help.filter { !$0.isWhitespace }), "\(width): \(option.name)") }
        }
    }
}
