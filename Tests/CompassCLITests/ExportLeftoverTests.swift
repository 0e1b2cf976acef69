import Foundation
import Testing
@testable import CompassCore
@testable import CompassStore
import CompassTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A killed `export --stream -o FILE` leaves `FILE.tmp-PID` (the family's whole stream) and
/// `FILE.attachments/`: the next export to the same FILE removes them before it writes, so
/// after a retry the folder holds the export and nothing else; `erase` says that exports
/// made before it still hold the member (SPEC §5: they are copies the family took).
@Suite(.serialized) struct ExportLeftoverTests {
    /// The names in `folder` that start with `name`.
    static func entries(_ folder: String, startingWith name: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(name) }.sorted()
    }

    /// The id of a process that has ended.
    static func deadPid() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func whatAKilledExportLeftIsRemovedByTheNextExportToTheSameFile() throws {
        let cli = ErasureTests.family()
        let pid = try Self.deadPid()
        let target = cli.directory + "/out/lopez.jsonl"
        try FileManager.default.createDirectory(atPath: cli.directory + "/out/lopez.jsonl.attachments", withIntermediateDirectories: true)
        // What a kill leaves: the whole stream in a temporary file, blobs and a blob's temporary.
        let stream = cli.run("export --stream --as u-pat").stdout
        #expect(stream.contains("Xyzzyname"))
        cli.write("out/lopez.jsonl.tmp-\(pid)", stream)
        cli.write("out/lopez.jsonl.attachments/\(String(repeating: "a", count: 64))", "a blob of an unfinished export")
        cli.write("out/lopez.jsonl.attachments/\(String(repeating: "b", count: 64)).tmp-\(pid)", "half a blob")
        cli.write("out/other.jsonl.tmp-\(pid)", "someone else's")  // not this export's: left alone
        let retry = cli.run(["export", "--stream", "--as", "u-pat", "-o", target])
        #expect(retry.status == 0, "\(retry.stderr)")
        #expect(Self.entries(cli.directory + "/out", startingWith: "lopez") == ["lopez.jsonl", "lopez.jsonl.attachments"])
        let blobs = try FileManager.default.contentsOfDirectory(atPath: target + ".attachments").sorted()
        #expect(!blobs.isEmpty && blobs.allSatisfy { $0.count == 64 && !$0.hasPrefix("aaaa") }, "\(blobs)")
        #expect(Self.entries(cli.directory + "/out", startingWith: "other") == ["other.jsonl.tmp-\(pid)"])
        #expect(cli.run(["verify", "--log", target]).status == 0)
    }

    @Test func exportsKilledAtRandomMomentsLeaveNothingAfterARetry() throws {
        let cli = ErasureTests.family()
        let folder = cli.directory + "/out"
        let target = folder + "/lopez.jsonl"
        var rng = SplitMix64(seed: 53)
        var killed = 0, leftovers = 0
        for _ in 0..<16 {
            let export = try ReliabilityTests.start(["export", "--stream", "--as", "u-pat", "-o", target, "--log", cli.logPath],
                                                    output: FileHandle.nullDevice)
            usleep(useconds_t(rng.below(2) == 0 ? rng.below(6_000) : rng.below(40_000)))
            if export.isRunning { kill(export.processIdentifier, SIGKILL); killed += 1 }
            export.waitUntilExit()
            if !FileManager.default.fileExists(atPath: target) {
                if !Self.entries(folder, startingWith: "lopez").isEmpty { leftovers += 1 }
                let retry = cli.run(["export", "--stream", "--as", "u-pat", "-o", target])
                #expect(retry.status == 0, "\(retry.stderr)")
            }
            let left = Self.entries(folder, startingWith: "lopez")
            #expect(left == ["lopez.jsonl", "lopez.jsonl.attachments"], "after a retry: \(left)")
            #expect(cli.run(["verify", "--log", target]).status == 0)
            try? FileManager.default.removeItem(atPath: target)
            try? FileManager.default.removeItem(atPath: target + ".attachments")
        }
        print("export kills: \(killed) of 16 killed, \(leftovers) left files behind, each cleaned by the retry")
        #expect(killed > 0)
    }

    @Test func eraseSaysThatEarlierExportsStillHoldTheMember() {
        let cli = ErasureTests.family()
        #expect(cli.run(["export", "--stream", "--as", "u-pat", "-o", cli.directory + "/before.jsonl"]).status == 0)
        let erased = cli.run("erase --as u-pat --member u-kid")
        #expect(erased.status == 0)
        #expect(erased.stdout.contains("Exports made before this erasure"), "\(erased.stdout)")
        #expect(!cli.run("erase --as u-pat --member u-sib --dry-run").stdout.contains("Exports made before"))
    }
}
