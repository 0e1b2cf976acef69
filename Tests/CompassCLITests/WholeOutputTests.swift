import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI

/// Output into a file or a pipe is whole: tables are fitted to a terminal only when there is
/// one (or `COLUMNS` says how wide it is); otherwise every cell is written as it is.
@Suite struct WholeOutputTests {
    static let long = "Seattle University Redhawks Athletics Department of Rowing and Crew"

    static func family() -> CLIHarness {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.runAll([
            "add-school --as u-pat --name '\(long)' --school s-seattle",
            "add-school --as u-pat --name '\(long) Second Campus' --school s-seattle-2",
            "add-coach --as u-pat --school s-seattle --first Alexandria --last Montgomery-Worthington --role head",
        ])
        return cli
    }

    @Test func aTableIntoAPipeHasEveryCellWhole() {
        let cli = Self.family()
        for command in ["schools --as u-pat", "coaches --as u-pat", "members --as u-pat", "documents --as u-pat"] {
            let piped = cli.run(CLIHarness.words(command))
            #expect(piped.status == 0 && !piped.stdout.contains("…"), "\(command) cut a cell into a pipe: \(piped.stdout)")
        }
        let schools = cli.run("schools --as u-pat").stdout
        #expect(schools.contains(Self.long + "  ") && schools.contains(Self.long + " Second Campus"))
        #expect(cli.run("coaches --as u-pat").stdout.contains("Montgomery-Worthington"))
    }

    @Test func aTableOnAKnownWidthIsFittedAndNamesStayApart() {
        let cli = Self.family()
        let fitted = cli.run(CLIHarness.words("schools --as u-pat"), environment: ["COLUMNS": "80"])
        #expect(fitted.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(fitted.stdout)")
        #expect(fitted.stdout.contains("…") && fitted.stdout.contains("s-seattle-2"))
    }
}

/// The printed report says which interactions carry files, and a table that runs onto the
/// next page repeats its header there (its header row is the table's `thead`, repeated by
/// every browser's print layout, and asked for again in the print CSS).
@Suite struct ReportPrintTests {
    @Test func cardsMarkTheirFilesAndEveryTableHasAHeaderThatRepeats() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("a.pdf", "A PDF")
        cli.write("b.png", "A PNG")
        cli.runAll([
            "log-interaction --as u-maya --school s-ucla --type email --direction inbound --subject 'With files' --attach \(cli.directory)/a.pdf \(cli.directory)/b.png",
            "log-interaction --as u-maya --school s-ucla --type email --direction outbound --subject 'Without'",
        ])
        let html = cli.run("report --as u-pat").stdout
        #expect(html.contains("📎 2 files"))
        #expect(html.components(separatedBy: "📎").count == 2, "only the card with files is marked")
        let tables = html.components(separatedBy: "<table>").count - 1
        #expect(tables >= 3 && html.components(separatedBy: "<thead>").count - 1 == tables)
        #expect(html.contains("thead { display: table-header-group; }"))
    }
}

/// At 40 columns: a command to copy and a hash are never broken inside (each stands whole on
/// its own line), a status change keeps its new status, and every help page fits 80 columns
/// with long examples continued by `\`.
@Suite struct NarrowTerminalTests {
    @Test func commandsAndHashesStayWholeAndStatusesStayReadable() throws {
        let cli = CLIHarness()
        cli.write("events.jsonl", try String(contentsOfFile: Binary.packageRoot + "/events-samples/family.jsonl", encoding: .utf8))
        let env = ["COLUMNS": "40"]
        let activity = cli.run(["activity", "--as", "u-pat", "--now", "2026-02-15T12:00:00Z"], environment: env).stdout
        #expect(activity.contains("→ Offer received"), "\(activity)")
        for line in activity.split(separator: "\n") where line.contains("compass ") {
            #expect(line.contains("› compass show i-") || line.contains("› compass audit --entity s-"), "a command was broken: \(line)")
        }
        let verify = cli.run(["verify"], environment: env).stdout
        let hashes = verify.split(separator: "\n").filter { $0.count == 64 && $0.allSatisfy(\.isHexDigit) }
        #expect(hashes.count == 2, "the head and the root, each whole on its own line: \(verify)")
    }

    @Test func everyHelpPageFitsEightyColumns() {
        let cli = CLIHarness()
        let overview = cli.run(["--help"], environment: ["COLUMNS": "80"]).stdout
        let commands = overview.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first, word.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
            return String(word)
        }
        #expect(commands.count > 20)
        for command in commands {
            let help = cli.run(["help", command], environment: ["COLUMNS": "80"]).stdout
            for line in help.split(separator: "\n") { #expect(Cells.width(String(line)) <= 80, "help \(command): \(line)") }
        }
        let example = cli.run(["help", "log-interaction"], environment: ["COLUMNS": "80"]).stdout
        #expect(example.contains(" \\\n      "), "a long example continues with a backslash")
    }
}

/// In a terminal, two names cut to fit still read differently, and the audit fits the width.
@Suite struct FittedTableTests {
    @Test func twoNamesWithALongCommonStartStayApartWhenCut() {
        let cli = WholeOutputTests.family()
        let fitted = cli.run(CLIHarness.words("schools --as u-pat"), environment: ["COLUMNS": "60"]).stdout
        let seattle = fitted.split(separator: "\n").filter { $0.hasPrefix("Seattle") }.map { String($0.split(separator: "  ").first ?? "") }
        #expect(seattle.count == 2 && Set(seattle).count == 2, "\(seattle)")
        #expect(seattle.contains { $0.hasSuffix("Crew") } && seattle.contains { $0.hasSuffix("mpus") }, "\(seattle)")
    }

    @Test(arguments: [40, 80, 120])
    func auditLinesFitTheTerminalAndStayWholeInAPipe(columns: Int) throws {
        let cli = CLIHarness()
        cli.write("events.jsonl", try String(contentsOfFile: Binary.packageRoot + "/events-samples/family.jsonl", encoding: .utf8))
        let fitted = cli.run(["audit", "--as", "u-pat"], environment: ["COLUMNS": String(columns)]).stdout
        for line in fitted.split(separator: "\n") { #expect(Cells.width(String(line)) <= columns, "\(columns): \(line)") }
        let piped = cli.run(["audit", "--as", "u-pat"]).stdout
        #expect(piped.split(separator: "\n").allSatisfy { $0.hasPrefix("#") || $0.hasPrefix("line ") }, "one entry a line into a pipe")
    }
}
