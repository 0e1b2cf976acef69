import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

#if canImport(Glibc)
import Glibc
#endif

/// Crashes, concurrent writers and oversized input: a family's history is never lost.
@Suite(.serialized) struct ReliabilityTests {
    static func seedLog(_ path: String) throws {
        for words in [["add-member", "--user", "u-pat", "--name", "Pat", "--role", "parent", "--family", "fam"],
                      ["add-school", "--as", "u-pat", "--name", "UCLA", "--school", "s-1"]] {
            let result = try Binary.run(words + ["--log", path, "--now", "2026-01-01T00:00:00Z"])
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    /// Starts the built binary with `arguments` (its standard error thrown away).
    static func start(_ arguments: [String], output: Any?) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Four processes appending to a seeded log (``seedLog(_:)``) at once, each with its own
    /// event id, racing whatever the test runs beside them.
    struct RacingAppenders {
        private var appenders: [(process: Process, output: Pipe, id: String)] = []

        init(log: String, round: Int) throws {
            for w in 0..<4 {
                let id = "race-\(round)-\(w)", pipe = Pipe()
                let process = try ReliabilityTests.start(["change-status", "--as", "u-pat", "--school", "s-1", "--status", "contacted",
                                                          "--event-id", id, "--json", "--log", log], output: pipe)
                appenders.append((process, pipe, id))
            }
        }

        /// SIGKILLs one of them, if it is still running.
        func killOne(_ rng: inout SplitMix64) {
            let victim = appenders[rng.below(appenders.count)].process
            if victim.isRunning { kill(victim.processIdentifier, SIGKILL) }
        }

        /// Waits for them; the event ids they acknowledged.
        func acknowledged() -> [String] {
            appenders.compactMap { process, pipe, id in
                process.waitUntilExit()
                let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                return process.terminationReason == .exit && process.terminationStatus == 0 && out.contains(#""eventId":"\#(id)""#) ? id : nil
            }
        }
    }

    static func folder() -> String {
        let path = NSTemporaryDirectory() + "compass-reliability-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Appending processes killed with SIGKILL at random moments: every acknowledged append
    /// is in the log, the log replays with at most a torn last line, and the next append
    /// leaves a clean, sealed log.
    @Test func killedWritersNeverLoseAnAcknowledgedAppend() throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/events.jsonl"
        try Self.seedLog(log)
        var rng = SplitMix64(seed: 8)
        var acknowledged: [String] = []
        var kills = 0
        var round = 0
        let content = String(repeating: "Long notes to widen the write window. ", count: 200)
        while kills < 200 {
            round += 1
            // Four writers at once; each is killed after a random 0–150 ms unless it finished.
            var running: [(Process, Pipe, String)] = []
            for w in 0..<4 {
                let id = "k-\(round)-\(w)"
                let process = Process()
                process.executableURL = URL(fileURLWithPath: Binary.path)
                process.arguments = ["change-status", "--as", "u-pat", "--school", "s-1", "--status", "contacted", "--notes", content,
                                     "--event-id", id, "--json", "--log", log, "--now", "2026-01-02T00:00:00Z"]
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = FileHandle.nullDevice
                try process.run()
                running.append((process, pipe, id))
            }
            usleep(useconds_t(rng.below(150_000)))
            for (process, _, _) in running where process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            for (process, pipe, id) in running {
                process.waitUntilExit()
                let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                if process.terminationReason == .exit, process.terminationStatus == 0, out.contains(#""eventId":"\#(id)""#) {
                    acknowledged.append(id)
                }
            }
        }
        var replayer = Replayer()
        replayer.consume(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: log))))
        for id in acknowledged { #expect(replayer.state.eventIds.contains(id), "acknowledged \(id) is missing") }
        #expect(replayer.problems.allSatisfy { $0.message == "torn last line" && $0.line == replayer.linesRead })
        let last = try Binary.run(["change-status", "--as", "u-pat", "--school", "s-1", "--status", "committed", "--log", log])
        #expect(last.status == 0)
        let verify = try Binary.run(["verify", "--log", log])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("chain: intact\n"))
        print("crash test: \(kills) kills over \(round) rounds, \(acknowledged.count) acknowledged appends all present")
    }

    /// Four processes × 500 appends on one log: 2,000 events, seq 1…2000 after the seed,
    /// the chain intact, every line whole.
    @Test func concurrentWritersSerializeThroughTheLock() throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/events.jsonl"
        try Self.seedLog(log)
        let bench = URL(fileURLWithPath: Binary.path).deletingLastPathComponent().appendingPathComponent("compass-bench")
        let workers = (0..<4).map { w -> Process in
            let process = Process()
            process.executableURL = bench
            process.arguments = ["hammer", log, "500", String(w)]
            return process
        }
        for process in workers { try process.run() }
        for process in workers { process.waitUntilExit(); #expect(process.terminationStatus == 0) }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
        var replayer = Replayer()
        replayer.consume(bytes: bytes)
        #expect(replayer.problems.isEmpty)
        #expect(replayer.state.appliedCount == 2002)
        #expect(replayer.streams.count == 1 && replayer.streams.list[0].seq == 2002)
        for w in 0..<4 { for n in [0, 250, 499] { #expect(replayer.state.eventIds.contains("w\(w)-\(n)")) } }
        #expect(bytes.split(separator: 0x0A).allSatisfy { JSONParser.parse(Array($0)) != nil })
    }

    /// With `--expect-version`, of several writers that saw the same version exactly one wins;
    /// the others get a conflict (exit 1) and nothing is written for them.
    @Test func expectVersionLosersGetAConflictAndWriteNothing() throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/events.jsonl"
        try Self.seedLog(log)
        for round in 0..<5 {
            let seen = 2 + round
            let processes = (0..<4).map { w -> (Process, Pipe) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: Binary.path)
                process.arguments = ["change-status", "--as", "u-pat", "--school", "s-1", "--status", "contacted",
                                     "--notes", "r\(round)-w\(w)", "--expect-version", String(seen), "--log", log]
                let err = Pipe()
                process.standardError = err
                process.standardOutput = FileHandle.nullDevice
                return (process, err)
            }
            for (process, _) in processes { try process.run() }
            var winners = 0
            for (process, err) in processes {
                process.waitUntilExit()
                if process.terminationStatus == 0 { winners += 1; continue }
                #expect(process.terminationStatus == 1)
                #expect(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).hasPrefix("error: Conflict: expected version \(seen) of family fam"))
            }
            #expect(winners == 1)
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == seen + 1)
        }
    }

    /// A 10 MB line is reported as too long and skipped without holding it in memory; the
    /// lines around it still replay.
    @Test func aTenMegabyteLineIsReportedWithoutExhaustingMemory() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return }
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/events.jsonl"
        try Self.seedLog(log)
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data(("{\"seq\":3,\"note\":\"" + String(repeating: "x", count: 50_000_000) + "\"}\n").utf8))
        handle.closeFile()
        let more = try Binary.run(["change-status", "--as", "u-pat", "--school", "s-1", "--status", "committed", "--log", log])
        #expect(more.status == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", Binary.path, "replay", "--log", log]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(stdout.contains("  3: line too long\n"))
        #expect(stdout.contains("applied: 3\n"))
        let peakKB = Int(stderr.split(separator: "\n").last.map(String.init) ?? "") ?? 0
        #expect(peakKB > 0 && peakKB < 45_000, "peak RSS \(peakKB) KB for a 50 MB line")
    }
}
