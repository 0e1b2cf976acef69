import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

/// `compass activity` and `compass follow`.
@Suite struct ActivityCommandTests {
    @Test func humanTimelineShowsRowsPagesAndTargets() {
        let cli = ReadCommandsTests.family()
        cli.run("change-status --as u-pat --school s-ucla --status offer_received --notes 'Full ride'")
        cli.run("upload-document --as u-maya --title Transcript --doc-type transcript")
        let result = cli.run("activity --as u-pat --page-size 2")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Recent Activity\n\n"))
        #expect(result.stdout.contains("📍  UCLA → Offer received"))
        #expect(result.stdout.contains("    › compass audit --entity s-ucla"))  // the command that opens it, not a web route
        #expect(result.stdout.contains("Page 1 of 2 · 4 items\nnext: --page 2\n"))
        let second = cli.run("activity --as u-pat --page-size 2 --page 2")
        #expect(second.stdout.contains("Page 2 of 2 · 4 items\nprevious: --page 1\n"))
        #expect(second.stdout.contains("› compass show i-1"))
    }

    @Test func emptyStateAndFiltersInForce() {
        let cli = ReadCommandsTests.family()
        let result = cli.run("activity --as u-maya --type document_upload --range week")
        #expect(result.stdout == "Recent Activity\nFilters: type: document_upload, range: week\n\nNo activities found\nTry adjusting your filters or search query\n")
    }

    @Test func usageErrorsForBadValues() {
        let cli = ReadCommandsTests.family()
        #expect(cli.run("activity --as u-pat --page 0").status == 2)
        #expect(cli.run("activity --as u-pat --page-size 0").status == 2)
        #expect(cli.run("activity --as u-pat --range year").status == 2)
        #expect(cli.run("activity --as u-pat --type meeting").status == 2)
    }

    @Test func jsonMatchesTheCoreView() throws {
        let cli = ReadCommandsTests.family()
        let result = cli.run("activity --as u-pat --json --search FILM")
        #expect(result.stdout.hasPrefix(#"{"page":1,"pageSize":20,"totalPages":1,"totalCount":1,"items":[{"id":"interaction-i-1","type":"interaction","timestamp":"2026-02-27T15:00:00.000Z","title":"Email with UCLA","description":"Coach wants film\n\n[Coach Interest Level: HIGH]","icon":"📧""#))
        #expect(result.stdout.contains(#""relativeTime":"1d ago""#))  // 45 h before --now
    }
}

/// End-to-end: `follow` in one process while another appends.
@Suite(.serialized) struct FollowTests {
    /// Collects a child process's stdout as it arrives.
    final class Collector: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()

        func start(_ handle: FileHandle) {
            handle.readabilityHandler = { [weak self] h in
                let chunk = h.availableData
                guard let self, !chunk.isEmpty else { return }
                self.lock.lock()
                self.data.append(chunk)
                self.lock.unlock()
            }
        }

        var lines: [String] {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }

        /// Waits up to `seconds` for at least `count` lines.
        func wait(for count: Int, seconds: Double = 10) -> [String] {
            let deadline = Date().addingTimeInterval(seconds)
            while lines.count < count, Date() < deadline { usleep(20_000) }
            return lines
        }
    }

    /// Starts `compass follow --json` on a log and collects what it prints.
    static func startFollow(log: String, as viewer: String) throws -> (Process, Collector) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["follow", "--as", viewer, "--json", "--log", log, "--now", "2026-03-01T12:00:00Z", "--interval", "50"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let collector = Collector()
        collector.start(pipe.fileHandleForReading)
        try process.run()
        return (process, collector)
    }

    /// Appends from a second process, as another family member's device would.
    static func append(_ words: [String], log: String) throws {
        let result = try Binary.run(words + ["--log", log, "--now", "2026-02-01T12:00:00Z"])
        #expect(result.status == 0, "\(words): \(result.stderr)")
    }

    @Test func followPrintsTheTenMostRecentThenNewItemsFromAnotherProcess() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        for n in 1...12 {
            cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "inbound",
                     "--subject", "Old \(n)", "--occurred-at", "2026-01-\(10 + n)T10:00:00Z"])
        }
        let (process, collector) = try Self.startFollow(log: cli.logPath, as: "u-maya")
        defer { if process.isRunning { process.terminate() } }
        let initial = collector.wait(for: 10)
        #expect(initial.count == 10)
        #expect(initial.first?.contains("Old 3") == true && initial.last?.contains("Old 12") == true)  // append order

        try Self.append(["log-interaction", "--as", "u-leo", "--school", "s-ucla", "--type", "dm", "--direction", "inbound", "--subject", "Leo's, not Maya's"], log: cli.logPath)
        try Self.append(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "camp", "--direction", "outbound", "--subject", "New camp"], log: cli.logPath)
        try Self.append(["change-status", "--as", "u-maya", "--school", "s-ucla", "--status", "offer_received"], log: cli.logPath)
        let all = collector.wait(for: 12)
        #expect(all.count == 12)
        #expect(all.count == 12 && all[10].contains(#""title":"Camp with UCLA""#) && all[10].contains("New camp"))
        #expect(all.count == 12 && all[11].contains(#""title":"UCLA → Offer received""#))
        #expect(!all.contains { $0.contains("Leo's") })

        process.terminate()  // SIGTERM: a clean exit with 128 + 15
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        #expect(process.terminationReason == .exit)
    }

    @Test func followSurvivesTheLogBeingCreatedLater() throws {
        let folder = NSTemporaryDirectory() + "compass-follow-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/later/events.jsonl"
        let (process, collector) = try Self.startFollow(log: log, as: "u-maya")
        defer { if process.isRunning { process.terminate() } }
        usleep(200_000)
        try Self.append(["add-member", "--user", "u-maya", "--name", "Maya", "--role", "player", "--family", "f-u-maya"], log: log)
        try Self.append(["add-school", "--as", "u-maya", "--name", "UCLA"], log: log)
        try Self.append(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "text", "--direction", "outbound", "--subject", "First"], log: log)
        let lines = collector.wait(for: 1)
        usleep(300_000)
        #expect(collector.lines.count == 1)
        #expect(lines.first?.contains(#""title":"Text with UCLA""#) == true)
        process.interrupt()  // Ctrl-C: a clean exit with 130, like the other commands
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
    }

    /// A log that exists but has no event yet is one being created (its first line may still be
    /// on its way: a writer creates the file, then writes): `follow` waits, it does not say
    /// `Unknown user`.
    @Test func followWaitsOnALogThatHasNoEventYet() throws {
        let folder = NSTemporaryDirectory() + "compass-follow-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let log = folder + "/events.jsonl"
        FileManager.default.createFile(atPath: log, contents: Data())
        let (process, collector) = try Self.startFollow(log: log, as: "u-maya")
        defer { if process.isRunning { process.terminate() } }
        usleep(300_000)
        #expect(process.isRunning, "follow gave up on an empty log")
        try Self.append(["add-member", "--user", "u-maya", "--name", "Maya", "--role", "player", "--family", "f-u-maya"], log: log)
        try Self.append(["add-school", "--as", "u-maya", "--name", "UCLA"], log: log)
        try Self.append(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "text", "--direction", "outbound", "--subject", "First"], log: log)
        let lines = collector.wait(for: 1)
        #expect(lines.first?.contains(#""title":"Text with UCLA""#) == true)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
    }

    @Test func followWaitsForATornLineToBeCompleted() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        let (process, collector) = try Self.startFollow(log: cli.logPath, as: "u-pat")
        defer { if process.isRunning { process.terminate() } }
        usleep(300_000)
        #expect(collector.lines.isEmpty)  // nothing in the timeline yet

        // Write a valid status-change line in two pieces, as a slow writer would: the line is
        // made on a copy of the log (so its `prev` links to the real log's last line).
        let copy = cli.directory + "/copy.jsonl"
        try FileManager.default.copyItem(atPath: cli.logPath, toPath: copy)
        #expect(cli.run(["change-status", "--as", "u-pat", "--school", "s-ucla", "--status", "committed", "--log", copy]).status == 0)
        let line = try String(contentsOfFile: copy, encoding: .utf8).split(separator: "\n").last.map(String.init)!
        let half = line.utf8.count / 2
        let handle = try #require(FileHandle(forWritingAtPath: cli.logPath))
        handle.seekToEndOfFile()
        handle.write(Data(Array(line.utf8)[..<half]))
        usleep(300_000)
        let before = collector.lines.count
        handle.write(Data(Array(line.utf8)[half...]) + Data("\n".utf8))
        handle.closeFile()
        let after = collector.wait(for: before + 1)
        #expect(after.last?.contains("UCLA → Committed") == true)
        process.interrupt()  // SIGINT
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
    }
}
