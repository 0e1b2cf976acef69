import Foundation
import Testing
import CompassTestSupport

/// End-to-end: the built `compass` binary on `events-samples/`.
@Suite struct SamplesTests {
    static let samples = Binary.packageRoot + "/events-samples"

    /// The rows of `events-samples/bad/README.md`: file and the problems `replay` must report.
    static func expectations() throws -> [(file: String, problems: [String])] {
        let readme = try String(contentsOfFile: samples + "/bad/README.md", encoding: .utf8)
        return readme.split(separator: "\n").compactMap { line -> (String, [String])? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, cells[0].hasPrefix("`"), cells[0].hasSuffix(".jsonl`") else { return nil }
            let problems = cells[2].components(separatedBy: "; ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
            return (cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")), problems)
        }
    }

    @Test func everyBadSampleReportsExactlyWhatItsReadmeSays() throws {
        let rows = try Self.expectations()
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.samples + "/bad").filter { $0.hasSuffix(".jsonl") }
        #expect(Set(rows.map(\.file)) == Set(files), "README and folder list the same files")
        for row in rows {
            let result = try Binary.run(["replay", "--log", "events-samples/bad/" + row.file])
            #expect(result.status == 1, "\(row.file)")
            let reported = result.stdout.split(separator: "\n").drop { !$0.hasPrefix("problems:") }.dropFirst()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(reported == row.problems, "\(row.file)")
        }
    }

    @Test func theFamilySampleReplaysCleanly() throws {
        let result = try Binary.run(["replay", "--log", "events-samples/family.jsonl", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(#"{"events":79,"applied":79,"erased":0,"byType":{"CoachAdded":8,"DocumentUploaded":4,"InteractionDeleted":3,"InteractionLogged":47,"MemberJoined":3,"NotificationSettingsChanged":1,"NotificationsRead":1,"SchoolAdded":6,"SchoolStatusChanged":6},"members":3,"liveInteractions":44,"problems":[]}"#))
    }

    @Test func verifyPrintsTheHeadHashOfTheLastLine() throws {
        let log = try Data(contentsOf: URL(fileURLWithPath: Self.samples + "/family.jsonl"))
        let last = log.split(separator: 0x0A).last!
        let head = try Binary.run(["verify", "--log", "events-samples/family.jsonl"])
        #expect(head.status == 0)
        let lines = head.stdout.split(separator: "\n")
        let printed = lines.firstIndex(of: "family fam-lopez: seq 79").map { String(lines[$0 + 1].dropFirst("  head ".count)) }
        #expect(printed?.count == 64)
        let good = try Binary.run(["verify", "--log", "events-samples/family.jsonl", "--expect-head", printed ?? ""])
        #expect(good.status == 0)
        let bad = try Binary.run(["verify", "--log", "events-samples/family.jsonl", "--expect-head", String(repeating: "0", count: 64)])
        #expect(bad.status == 1)
        #expect(!last.isEmpty)
    }

    @Test func aDomainErrorExitsOneAndAUsageErrorTwo() throws {
        let domain = try Binary.run(["add-school", "--as", "u-nobody", "--name", "X", "--log", "/dev/null/none"])
        #expect(domain.status == 1)
        let usage = try Binary.run(["replay", "--nope"])
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("error: unknown option '--nope' for 'replay'"))
    }

    @Test func theLogComesFromTheEnvironmentWhenNoOptionIsGiven() throws {
        let result = try Binary.run(["replay"], environment: ["COMPASS_LOG": "events-samples/family.jsonl"])
        #expect(result.stdout.hasPrefix("events: 79\n"))
    }

    @Test func theSampleScriptRebuildsTheSameBytes() throws {
        let folder = NSTemporaryDirectory() + "compass-samples-" + UUID().uuidString
        try FileManager.default.copyItem(atPath: Self.samples, toPath: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        script.arguments = ["bash", folder + "/make-family.sh"]
        script.environment = ProcessInfo.processInfo.environment.merging(["COMPASS": Binary.path]) { $1 }
        script.standardOutput = FileHandle.nullDevice
        try script.run()
        script.waitUntilExit()
        #expect(script.terminationStatus == 0)
        let rebuilt = try Data(contentsOf: URL(fileURLWithPath: folder + "/family.jsonl"))
        let committed = try Data(contentsOf: URL(fileURLWithPath: Self.samples + "/family.jsonl"))
        #expect(rebuilt == committed)
    }
}
