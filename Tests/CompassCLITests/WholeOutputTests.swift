import Foundation
import Testing
import CompassTestSupport

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
