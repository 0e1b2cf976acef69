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
