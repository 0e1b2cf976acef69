import Foundation
import Testing
import CompassTestSupport

/// Colour is styling, never text: with `--color always`, every read command on the sample
/// and on a family with hostile names prints real escape sequences around its coloured parts
/// and no escaped one (`\u{1B}[31m` as text, which a terminal shows as garbage and which
/// widens a table's column), and no control character from the log reaches the terminal.
@Suite struct ColourTests {
    static let readCommands = [
        "interactions", "analytics", "activity", "audit", "schools", "coaches", "members", "documents",
        "notifications", "show i-1", "report",
    ]

    static func check(_ cli: CLIHarness, as viewer: String, now: String, _ context: String) {
        for command in Self.readCommands + ["replay", "verify"] {
            let words = CLIHarness.words(command) + (command == "replay" || command == "verify" ? [] : ["--as", viewer])
                + ["--now", now, "--color", "always"]
            let result = cli.run(words, environment: ["COLUMNS": "120"])
            #expect(!result.stdout.contains("\\u{1B}"), "\(context): \(command) printed an escaped colour: \(result.stdout.prefix(400))")
            #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\u{1B}" },
                    "\(context): \(command) printed a raw control character")
        }
    }

    @Test func theSampleInColourHasNoEscapedSequence() throws {
        let cli = CLIHarness()
        cli.write("events.jsonl", try String(contentsOfFile: Binary.packageRoot + "/events-samples/family.jsonl", encoding: .utf8))
        Self.check(cli, as: "u-pat", now: "2026-02-15T12:00:00Z", "sample")
        // The schools table colours its gap column for real, and the column stays aligned.
        let schools = cli.run(["schools", "--as", "u-pat", "--now", "2026-02-15T12:00:00Z", "--color", "always"], environment: ["COLUMNS": "120"])
        #expect(schools.stdout.contains("\u{1B}[31m● 30d+ gap\u{1B}[0m"), "\(schools.stdout)")
        let plain = cli.run(["schools", "--as", "u-pat", "--now", "2026-02-15T12:00:00Z", "--color", "never"], environment: ["COLUMNS": "120"])
        let stripped = schools.stdout.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain.stdout)
    }

    @Test func hostileNamesInColourAreEscapedAndStylesAreNot() {
        let cli = CLIHarness()
        cli.runAll([
            "add-member --user u-pat --name 'Pat \u{7}Bell' --role parent --family f-1",
            "add-member --as u-pat --user u-kid --name 'Kid \u{8}Back' --role player",
            "add-school --as u-pat --name 'Evil \u{7}School\u{9}Tab' --school s-evil --status interested",
            "add-coach --as u-pat --school s-evil --first 'Co\u{7}ach' --last Doe --role head",
            "log-interaction --as u-kid --school s-evil --type email --direction inbound --subject 'Sub\u{7}ject' --content 'Body\u{7}' --occurred-at 2026-01-01T10:00:00Z",
        ])
        Self.check(cli, as: "u-pat", now: "2026-02-15T12:00:00Z", "hostile")
        #expect(cli.run(["schools", "--as", "u-pat", "--color", "always", "--now", "2026-02-15T12:00:00Z"]).stdout.contains("\\u{7}"))
    }
}
