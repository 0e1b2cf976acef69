import Foundation
import Testing
import CompassTestSupport

/// The words people use: `--role athlete` (stored as `player`), a did-you-mean for a listed
/// value or a mistyped flag, and the web app's school statuses: completed, a typo of one
/// refused with the status it meant, any other slug recorded with a note.
@Suite struct WordsPeopleUseTests {
    @Test func anAthleteIsAddedAsAnAthleteAndStoredAsAPlayer() {
        let cli = CLIHarness()
        cli.runAll(["add-member --user u-pat --name Pat --role parent --family f-1",
                    "add-member --as u-pat --user u-kid --name Kid --role athlete"])
        #expect(cli.logText.contains(#""userId":"u-kid","fullName":"Kid","role":"player""#))
        #expect(cli.run("members --as u-pat").stdout.contains("athlete"))
        #expect(cli.run("help add-member").stdout.contains("athlete|parent"))
    }

    @Test(arguments: [
        ("add-member --user u-x --name X --role athelete --family f-2", "did you mean 'athlete'?"),
        ("add-coach --as u-pat --school s-1 --first A --last B --role asistant", "did you mean 'assistant'?"),
        ("log-interaction --as u-pat --type emial --direction inbound", "did you mean 'email'?"),
        ("--verison", "did you mean '--version'?"),
    ])
    func aValueCloseToAListedOneGetsADidYouMean(line: String, says: String) {
        let cli = CLIHarness()
        let result = cli.run(line)
        #expect(result.status == 2 && result.stderr.contains(says), "\(line): \(result.stderr)")
    }

    @Test func statusesAreCompletedTyposRefusedAndNewOnesNoted() {
        let cli = CLIHarness()
        cli.runAll(["add-member --user u-pat --name Pat --role parent --family f-1",
                    "add-school --as u-pat --name UCLA --school s-ucla --status camp_invite"])
        let typo = cli.run("change-status --as u-pat --school s-ucla --status intrested")
        #expect(typo.status == 2 && typo.stderr.contains("did you mean 'interested'?"), "\(typo.stderr)")
        let before = cli.logText
        #expect(cli.run("change-status --as u-pat --school s-ucla --status offer_recieved").status == 2)
        #expect(cli.logText == before, "a refused status was written")
        let new = cli.run("change-status --as u-pat --school s-ucla --status walk_on")
        #expect(new.status == 0 && new.stderr.contains("note: 'walk_on' is not one of the usual statuses"), "\(new.stderr)")
        #expect(cli.logText.contains(#""newStatus":"walk_on""#))
        let known = cli.run("change-status --as u-pat --school s-ucla --status official_visit_scheduled")
        #expect(known.status == 0 && known.stderr.isEmpty)
        #expect(cli.run("completions bash").stdout.contains("official_visit_invited"))
    }
}

/// Where people get stuck adding things: a school typed twice, several files at once, a
/// setting that says it took.
@Suite struct EverydayAppendTests {
    @Test func aSchoolNameTheFamilyHasIsRefusedWithHowToAddASecondOne() {
        let cli = CLIHarness()
        cli.seedFamily()
        let before = cli.logText
        let again = cli.run("add-school --as u-pat --name 'ucla '")
        #expect(again.status == 1 && again.stderr.contains("already has a school named UCLA (s-ucla)") && again.stderr.contains("--school ID"),
                "\(again.stderr)")
        #expect(cli.logText == before)
        #expect(cli.run("add-school --as u-pat --name UCLA --school s-ucla-west").status == 0)
        // An idempotent retry is never refused as a second school.
        #expect(cli.run("add-school --as u-pat --name Rice --event-id add-rice").status == 0)
        #expect(cli.run("add-school --as u-pat --name Rice --event-id add-rice").status == 0)
    }

    @Test func attachTakesSeveralFiles() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("a.pdf", "A PDF")
        cli.write("b.png", "A PNG")
        let logged = cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "outbound",
                              "--attach", cli.directory + "/a.pdf", cli.directory + "/b.png", "--subject", "Two files"])
        #expect(logged.status == 0, "\(logged.stderr)")
        #expect(cli.logText.contains(#""name":"a.pdf""#) && cli.logText.contains(#""name":"b.png""#))
        #expect(cli.run("interactions --as u-maya").stdout.contains("📎 2 files"))
    }

    @Test func turningAlertsOffSaysItTook() {
        let cli = CLIHarness()
        cli.seedFamily()
        let off = cli.run("notifications --as u-pat --alerts off")
        #expect(off.status == 0 && off.stdout.hasPrefix("Inbound alerts are now off for you.\n"), "\(off.stdout)")
        #expect(cli.run("notifications --as u-pat --alerts on").stdout.hasPrefix("Inbound alerts are now on for you.\n"))
        #expect(!cli.run("notifications --as u-pat --alerts off --json").stdout.contains("now off"))
    }
}

/// Hints where people get stuck: what to give, where to look, which command does it.
@Suite struct StuckHintTests {
    @Test func aTweetWithNoSchoolOrCoachSaysWhichOptionsNameThem() {
        let cli = CLIHarness()
        cli.seedFamily()
        let tweet = cli.run("log-interaction --as u-maya --type tweet --direction inbound")
        #expect(tweet.status == 1 && tweet.stderr == "error: Please select a school\nhint: give --school ID or --coach ID ('compass schools' and 'compass coaches' list them)\n",
                "\(tweet.stderr)")
    }

    @Test func showAsCSVForAParentPointsAtExport() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.runAll(["log-interaction --as u-maya --school s-ucla --type email --direction inbound"])
        let csv = cli.run("show i-1 --as u-pat --csv")
        #expect(csv.status == 1 && csv.stderr.contains("hint: a parent exports the family's list with: compass export --as u-pat"), "\(csv.stderr)")
    }

    @Test func anAuditOfAnIdNotInTheFamilyHintsTheFamilysOwnIds() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.runAll(["add-member --user u-o --name Other --role parent --family f-o", "add-school --as u-o --name Oxford --school s-uclx"])
        let audit = cli.run("audit --as u-pat --entity s-uclx")
        #expect(audit.stderr == "hint: no 's-uclx' in your family; did you mean s-ucla?\n", "\(audit.stderr)")
        #expect(cli.run("audit --as u-pat --entity s-ucla").stderr.isEmpty)
    }
}

/// Completion goes where people go next: `attachment get`, and after `--school S` that
/// school's coaches only.
@Suite struct CompletionTests {
    @Test func attachmentOffersGetAndCoachesFollowTheSchool() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.runAll(["add-school --as u-pat --name Rice --school s-rice", "add-coach --as u-pat --school s-rice --first Ann --last Lee --role head"])
        #expect(cli.run("completions bash").stdout.contains(#"COMPREPLY=( $(compgen -W "get" -- "$cur") )"#))
        #expect(cli.run("completions bash").stdout.contains("--as|--log|--school) ctx+="))
        #expect(cli.run("__ids coach --as u-pat --school s-rice").stdout == "c-ann-lee\n")
        #expect(cli.run("__ids coach --as u-pat --school s-ucla").stdout == "c-jane-doe\n")
        #expect(cli.run("__ids coach --as u-pat").stdout == "c-ann-lee\nc-jane-doe\n")
    }
}
