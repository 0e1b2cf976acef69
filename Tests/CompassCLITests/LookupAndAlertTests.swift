import Foundation
import Testing
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

/// SPEC §3.4 lookups, §3.5 inbound alerts and seed 001's coach added while logging.
@Suite struct LookupAndAlertTests {
    /// The harness family with interactions at UCLA (recent) and Duke (old), one deleted.
    static func family() -> CLIHarness {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.runAll([
            "add-school --as u-pat --name Duke --school s-duke",
            "change-status --as u-pat --school s-ucla --status visit_scheduled --notes Soon",
            "log-interaction --as u-maya --school s-ucla --coach c-jane-doe --type email --direction inbound --occurred-at 2026-02-27T10:00:00Z --subject Hello",
            "log-interaction --as u-maya --school s-duke --type phone_call --direction outbound --occurred-at 2026-01-20T10:00:00Z",
            "log-interaction --as u-leo --school s-duke --other-coach 'Sam Lee' --type dm --direction inbound --occurred-at 2026-02-05T10:00:00Z",
            "log-interaction --as u-maya --school s-duke --type text --direction inbound --occurred-at 2026-02-08T10:00:00Z",
            "delete-interaction i-4 --as u-maya",
            "upload-document --as u-leo --title Transcript --doc-type transcript",
        ])
        return cli
    }

    static func json(_ cli: CLIHarness, _ line: String) throws -> [String: Any] {
        let result = cli.run(line + " --json")
        #expect(result.status == 0, "\(line): \(result.stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func schoolsShowStatusAndLastContactPerViewerWithTheGapFlag() throws {
        let cli = Self.family()
        let parent = try Self.json(cli, "schools --as u-pat")
        let items = try #require(parent["items"] as? [[String: Any]])
        #expect(items.map { $0["schoolId"] as? String } == ["s-duke", "s-ucla"])  // by name
        let duke = items[0], ucla = items[1]
        #expect(duke["interactionCount"] as? Int == 2)  // Maya's call and Leo's DM; the deleted text is not counted
        #expect(duke["lastContactAt"] as? String == "2026-02-05T10:00:00.000Z")
        #expect(duke["daysSinceContact"] as? Int == 24 && duke["contactGap"] as? String == "medium")
        #expect(duke["status"] is NSNull && duke["statusChangedAt"] is NSNull)
        #expect(ucla["status"] as? String == "visit_scheduled" && ucla["contactGap"] is NSNull)
        #expect(ucla["statusChangedAt"] as? String == "2026-03-01T12:00:00.000Z")
        // An athlete counts only what they logged: Maya's last Duke contact is her January call.
        let maya = try #require(try Self.json(cli, "schools --as u-maya")["items"] as? [[String: Any]])
        #expect(maya[0]["interactionCount"] as? Int == 1 && maya[0]["daysSinceContact"] as? Int == 40)
        #expect(maya[0]["contactGap"] as? String == "high")
        #expect(cli.run("schools --as u-pat").stdout.contains("● 21d+ gap"))
    }

    @Test func coachesMembersAndDocumentsAreTheFamilysInTheirOrder() throws {
        let cli = Self.family()
        let coaches = try #require(try Self.json(cli, "coaches --as u-leo --school s-ucla")["items"] as? [[String: Any]])
        #expect(coaches.count == 1 && coaches[0]["name"] as? String == "Jane Doe" && coaches[0]["roleName"] as? String == "Head Coach")
        #expect(coaches[0]["interactionCount"] as? Int == 0)  // Leo logged none with her
        let members = try #require(try Self.json(cli, "members --as u-maya")["items"] as? [[String: Any]])
        #expect(members.map { $0["fullName"] as? String } == ["Leo Lopez", "Maya Lopez", "Pat Lopez"])
        let mayaDocs = try #require(try Self.json(cli, "documents --as u-maya")["items"] as? [[String: Any]])
        #expect(mayaDocs.isEmpty)  // Leo's upload is his
        let patDocs = try #require(try Self.json(cli, "documents --as u-pat")["items"] as? [[String: Any]])
        #expect(patDocs.first?["uploadedByName"] as? String == "Leo Lopez" && patDocs.first?["docTypeName"] as? String == "Transcript")
    }

    @Test func inboundInteractionsAlertEveryoneWhoSeesThemUnlessTheyTurnedAlertsOff() throws {
        let cli = Self.family()
        let pat = try Self.json(cli, "notifications --as u-pat")
        let items = try #require(pat["items"] as? [[String: Any]])
        #expect(items.map { $0["interactionId"] as? String } == ["i-1", "i-3"])  // live inbound, newest first; i-4 was deleted
        #expect(items[0]["title"] as? String == "New Contact from Jane Doe")
        #expect(items[1]["message"] as? String == "Sam Lee reached out via Direct Message. View the interaction to see details.")
        #expect(pat["unread"] as? Int == 2)
        // Maya sees only hers; Leo turns his alerts off, then a new inbound DM of his is not an alert.
        #expect((try Self.json(cli, "notifications --as u-maya")["items"] as? [[String: Any]])?.count == 1)
        #expect(cli.run("notifications --as u-leo --alerts off").status == 0)
        #expect(cli.run("log-interaction --as u-leo --school s-ucla --type dm --direction inbound --subject Later").status == 0)
        let leo = try #require(try Self.json(cli, "notifications --as u-leo")["items"] as? [[String: Any]])
        #expect(leo.map { $0["interactionId"] as? String } == ["i-3"])  // the earlier one stays
        #expect((try Self.json(cli, "notifications --as u-pat")["items"] as? [[String: Any]])?.count == 3)  // Pat's alerts are on
        // Marking read: unread goes to 0, --unread lists none, the items stay.
        #expect(cli.run("notifications --as u-pat --mark-read").status == 0)
        let read = try Self.json(cli, "notifications --as u-pat --unread")
        #expect(read["unread"] as? Int == 0 && (read["items"] as? [Any])?.isEmpty == true)
        #expect(cli.run("notifications --as u-pat").stdout.hasPrefix("0 unread\n"))
    }

    @Test func aCoachAddedWhileLoggingIsAllOrNothing() throws {
        let cli = Self.family()
        let before = cli.logBytes
        // A listed value outside its set is a usage error before anything is decided.
        let role = cli.run("log-interaction --as u-maya --school s-ucla --new-coach 'Nina Park' --coach-role wizard --type email --direction inbound")
        #expect(role.status == 2 && role.stderr.hasPrefix("error: invalid value 'wizard' for '--coach-role' (expected head, assistant, recruiting)"))
        // The coach refused (no such school): the interaction is not written either.
        let bad = cli.run("log-interaction --as u-maya --school s-nope --new-coach 'Nina Park' --coach-role assistant --type email --direction inbound")
        #expect(bad.status == 1 && bad.stderr.hasPrefix("error: Please select a school"))
        // The interaction refused (subject too long): the coach is not written either.
        let long = String(repeating: "x", count: 501)
        let badInteraction = cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--new-coach", "Nina Park",
                                      "--coach-role", "assistant", "--type", "email", "--direction", "inbound", "--subject", long])
        #expect(badInteraction.status == 1 && badInteraction.stderr.hasPrefix("error: Subject must be 500 characters or less"))
        #expect(cli.logBytes == before)  // neither the coach nor the interaction
        let good = cli.run("log-interaction --as u-maya --school s-ucla --new-coach 'Nina Park' --coach-role assistant --type email --direction inbound --json")
        #expect(good.status == 0 && good.stdout.contains(#""id":"i-5""#), "\(good.stdout) \(good.stderr)")
        let coaches = try #require(try Self.json(cli, "coaches --as u-maya --school s-ucla")["items"] as? [[String: Any]])
        #expect(coaches.contains { $0["coachId"] as? String == "c-nina-park" && $0["interactionCount"] as? Int == 1 })
    }

    @Test func anUnknownIdGetsAHintWithTheClosestIdsOfTheViewersFamilyOnly() {
        let cli = Self.family()
        let school = cli.run("change-status --as u-pat --school s-uclaa --status offer_received")
        #expect(school.stderr == "error: Please select a school\nhint: no school 's-uclaa' in your family; did you mean s-ucla?\n")
        // Another family has s-ucla-2; it is never suggested.
        #expect(cli.run("add-member --user u-x --name X --role parent --family f-x").status == 0)
        #expect(cli.run("add-school --as u-x --name 'UCLA 2' --school s-ucla-2").status == 0)
        #expect(!cli.run("change-status --as u-pat --school s-ucla-3 --status offer").stderr.contains("s-ucla-2"))
        // An interaction that exists but is someone else's gets no hint (nothing to suggest, nothing to reveal).
        #expect(cli.run("delete-interaction i-1 --as u-leo").stderr == "error: Interaction not found\n")
    }

    @Test func expectVersionIsPerFamily() {
        let cli = Self.family()
        let version = cli.run("add-school --as u-pat --name Rice --json").stdout
        #expect(version.contains(#""version":14"#), "\(version)")
        #expect(cli.run("add-member --user u-x --name X --role parent --family f-x").status == 0)  // another family writes
        #expect(cli.run("add-school --as u-pat --name Yale --expect-version 14").status == 0)
        let stale = cli.run("add-school --as u-pat --name Penn --expect-version 14")
        #expect(stale.status == 1 && stale.stderr.hasPrefix("error: Conflict: expected version 14"))
    }
}
