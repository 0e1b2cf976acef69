import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

#if canImport(Glibc)
import Glibc
#endif

/// `erase` attacked like every other write: an I/O error, a short write, a kill or a power
/// loss at every single file operation leaves the old log or the new one, whole; the next
/// writer finishes what was left (orphaned blobs) and the log verifies. And erasure racing
/// four appending processes, killed at random moments, loses no acknowledged append.
@Suite(.serialized) struct ErasureFaultTests {
    static let secret = "Mayaunique"

    /// A family whose athlete u-maya has an attachment, a torn fragment and a snapshot.
    static func setUp(_ cli: CLIHarness) {
        cli.seedFamily()
        cli.write("maya.txt", "MAYABYTES \(secret)")
        cli.runAll(["log-interaction --as u-maya --school s-ucla --type email --direction outbound --subject 'Hi \(secret)' --attach \(cli.directory)/maya.txt",
                    "log-interaction --as u-leo --school s-ucla --type email --direction inbound --subject 'Leo stays'"])
        try? FileManager.default.removeItem(atPath: cli.directory + "/maya.txt")
        let handle = FileHandle(forWritingAtPath: cli.logPath)!
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":9,"id":"torn-m","type":"SchoolAdded","at":"2026-03-01T12:00:00.000Z","actor":"u-maya","family":"f-u-pat","data":{"name":"\#(secret)"#.utf8))
        handle.closeFile()
        cli.runAll(["add-school --as u-leo --name Yale --school s-yale"])
        _ = cli.run(["interactions", "--as", "u-pat"], environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "0"])
    }

    static func holders(of text: String, under folder: String) -> [String] {
        FaultInjectionTests.files(under: folder).filter { path in
            FileManager.default.contents(atPath: path)?.range(of: Data(text.utf8)) != nil
        }.sorted()
    }

    @Test func anErasureFailedOrCrashedAtEveryStepLeavesTheOldLogOrTheNewOne() throws {
        var runs: [FaultyFileSystem.Fault: Int] = [:]
        var outcomes = (old: 0, new: 0)
        for fault in FaultyFileSystem.Fault.allCases {
            var step = 1
            while true {
                let cli = CLIHarness()
                Self.setUp(cli)
                let old = cli.logBytes
                let fs = FaultyFileSystem(root: cli.directory, failAt: step, fault: fault)
                let result = cli.run(["erase", "--as", "u-pat", "--member", "u-maya"], fileSystem: fs)
                #expect(fs.strayCloses.isEmpty, "descriptors closed twice: \(fs.injected ?? "no fault")")
                #expect(fs.openDescriptors.isEmpty, "descriptors left open: \(fs.injected ?? "no fault")")
                guard fs.hitFault else {
                    #expect(result.status == 0, "erase ran clean (\(fs.operations) operations): \(result.stderr)")
                    break
                }
                runs[fault, default: 0] += 1
                if fault == .powerLoss { fs.recoverFromPowerLoss() }
                let context = "\(fs.injected ?? ""), exit \(result.status): \(result.stderr)"
                let now = cli.logBytes
                var replayer = Replayer()
                replayer.consume(bytes: now)
                let isNew = replayer.state.erasedLineCount > 0
                if isNew {
                    outcomes.new += 1
                    #expect(replayer.problems.isEmpty, "new log with problems: \(context)")
                    #expect(replayer.state.members["u-maya"] == nil && replayer.state.countsByType[.erasureRecorded] == 1, "\(context)")
                } else {
                    outcomes.old += 1
                    #expect(now == old, "neither the old log nor the new one: \(context)")
                    // Acknowledged is exit 0 without a warning; a warning says the erasure was
                    // in place but its folder entry might not be durable (here, a "dead"
                    // process went on: a really killed one reports nothing at all).
                    #expect(result.status != 0 || result.stderr.hasPrefix("warning: the erasure is in place"),
                            "acknowledged but not erased: \(context)")
                }
                // The next writer finishes or drops what was left; the log verifies.
                let next = cli.run(["add-school", "--as", "u-leo", "--name", "Brown", "--school", "s-brown-\(step)"])
                #expect(next.status == 0, "next append: \(next.stderr) after \(context)")
                let verify = cli.run("verify")
                #expect(verify.status == 0, "verify after \(context): \(verify.stdout)")
                // A killed process's temporaries are removed by the next writer because their
                // owner is dead; here the "killed" process is this one, so its own are excused.
                let mine = ".tmp-\(getpid())"
                let left = FaultInjectionTests.files(under: cli.directory).filter {
                    $0.hasSuffix(".erasing") || ($0.contains(".tmp-") && !((fault == .kill || fault == .powerLoss) && $0.hasSuffix(mine)))
                }
                #expect(left.isEmpty, "left behind \(left): \(context)")
                if isNew {
                    #expect(Self.holders(of: Self.secret, under: cli.directory).isEmpty, "\(Self.holders(of: Self.secret, under: cli.directory)) after \(context)")
                    #expect(Self.holders(of: "MAYABYTES", under: cli.directory).isEmpty, "a blob is left after \(context)")
                }
                step += 1
            }
        }
        print("erase fault injection: \(runs.sorted { "\($0.key)" < "\($1.key)" }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); old log kept \(outcomes.old), new log \(outcomes.new)")
        #expect(runs.values.allSatisfy { $0 > 0 })
        #expect(outcomes.old > 0 && outcomes.new > 0)
    }

    /// Four processes append while erasures of other members run and are killed at random
    /// moments: every acknowledged append is in the final log, which verifies; each erasure
    /// happened whole or not at all.
    @Test func erasuresRacingFourAppendersAndKillsLoseNoAcknowledgedAppend() throws {
        let dir = ReliabilityTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/events.jsonl"
        try ReliabilityTests.seedLog(log)
        let members = (1...16).map { "u-kid\($0)" }
        for (n, kid) in members.enumerated() {
            for words in [["add-member", "--as", "u-pat", "--user", kid, "--name", "Kid \(n) Racename", "--role", "player"],
                          ["add-school", "--as", kid, "--name", "Kid school \(n)", "--school", "s-kid-\(n)"]] {
                #expect(try Binary.run(words + ["--log", log]).status == 0)
            }
        }
        var rng = SplitMix64(seed: 16)
        var acknowledged: [String] = []
        var erasureKills = 0
        var erased: [String] = []
        for (round, kid) in members.enumerated() {
            let appenders = try ReliabilityTests.RacingAppenders(log: log, round: round)
            let eraser = try ReliabilityTests.start(["erase", "--as", "u-pat", "--member", kid, "--log", log], output: FileHandle.nullDevice)
            usleep(useconds_t(rng.below(30_000)))
            if round % 2 == 0, eraser.isRunning {
                kill(eraser.processIdentifier, SIGKILL)
                erasureKills += 1
            }
            appenders.killOne(&rng)  // one appender in four is killed too
            eraser.waitUntilExit()
            if eraser.terminationReason == .exit, eraser.terminationStatus == 0 { erased.append(kid) }
            acknowledged += appenders.acknowledged()
        }
        // The next writer heals what a killed one left; then everything is checked.
        #expect(try Binary.run(["add-school", "--as", "u-pat", "--name", "Last", "--school", "s-last", "--log", log]).status == 0)
        var replayer = Replayer()
        replayer.consume(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: log))))
        for id in acknowledged { #expect(replayer.state.eventIds.contains(id), "acknowledged \(id) is missing") }
        #expect(replayer.problems.isEmpty, "\(replayer.problems.prefix(3))")
        for kid in erased { #expect(replayer.state.members[kid] == nil, "\(kid) was erased, yet is there") }
        // Every erasure happened whole or not at all: a kid is a member with their school, or neither.
        for (n, kid) in members.enumerated() {
            let member = replayer.state.members[kid] != nil
            let school = replayer.state.families["fam"]?.schools["s-kid-\(n)"] != nil
            #expect(member == school, "\(kid) half erased")
        }
        let verify = try Binary.run(["verify", "--log", log])
        #expect(verify.status == 0, "\(verify.stdout)")
        print("erase race: \(members.count) erasures (\(erasureKills) killed, \(erased.count) acknowledged) against 4 appenders; \(acknowledged.count) acknowledged appends all present")
        #expect(!erased.isEmpty)
    }
}
