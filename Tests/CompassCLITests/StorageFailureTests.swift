import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

#if canImport(Glibc)
import Glibc
#endif

/// The store on a file system that fails, fills, links and lies: a journal that cannot be
/// read, output that cannot be written, input past its bounds, a folder fsync after a commit,
/// symbolic links in the folder. Each test failed on the code before its fix.
@Suite(.serialized) struct StorageFailureTests {
    // MARK: 1–2. A journal that cannot be read or stat'ed is an error, never "no journal"

    /// A seeded family, then a two-line batch past the committed size a hot journal records:
    /// the state a writer that died between writing a batch and its commit leaves.
    static func hotJournal(_ cli: CLIHarness) -> (committed: [UInt8], journal: String) {
        cli.seedFamily()
        let committed = cli.logBytes
        cli.write("batch.jsonl", """
            {"id":"half-1","type":"SchoolAdded","actor":"u-pat","data":{"schoolId":"s-half-1","name":"Uncommitted One"}}
            {"id":"half-2","type":"SchoolAdded","actor":"u-pat","data":{"schoolId":"s-half-2","name":"Uncommitted Two"}}

            """)
        #expect(cli.run(["import", "batch.jsonl"]).status == 0)
        let journal = cli.logPath + ".journal"
        cli.write("events.jsonl.journal", LogJournal.magic + "\(committed.count)\n")
        return (committed, journal)
    }

    @Test(arguments: ["open", "read", "stat"])
    func aJournalThatCannotBeReadStopsReadersAndWriters(_ operation: String) {
        let cli = CLIHarness()
        let (committed, journal) = Self.hotJournal(cli)
        let fs = PathFaultFileSystem { op, path in op == operation && path == journal }
        // A reader never counts the uncommitted lines: it stops with the error (a reader reads
        // the journal without a separate stat, so a failed stat does not reach it).
        let read = cli.run(["schools", "--as", "u-pat", "--json"], fileSystem: fs)
        if operation != "stat" {
            #expect(read.status == 1 && read.stderr.hasPrefix("error: ") && read.stderr.contains("journal"), "\(read)")
        }
        #expect(!read.stdout.contains("Uncommitted") && read.stdout.contains("UCLA") == (read.status == 0))
        // A writer neither deletes the journal nor appends after the uncommitted bytes.
        let append = cli.run(["add-school", "--as", "u-pat", "--name", "Acked", "--event-id", "acked-1"], fileSystem: fs)
        #expect(append.status == 1, "\(append)")
        #expect(FileManager.default.fileExists(atPath: journal))
        #expect(!cli.logText.contains("acked-1"))
        // The next writer that can read the journal rolls the batch back and appends.
        #expect(cli.run(["add-school", "--as", "u-pat", "--name", "Acked", "--event-id", "acked-1"]).status == 0)
        #expect(cli.logBytes.starts(with: committed))
        #expect(!cli.logText.contains("half-") && cli.logText.contains("acked-1"))
        #expect(cli.run(["verify"]).status == 0)
    }

    @Test func verifyReportsABlobItCannotReadAsAnErrorNotAsMissing() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("notes.txt", "Coach's notes\n")
        cli.runAll(["log-interaction --as u-maya --school s-ucla --type email --direction inbound --attach \(cli.directory)/notes.txt"])
        let blob = cli.logPath + ".attachments/" + SHA256.hex(Array("Coach's notes\n".utf8))
        let verified = cli.run(["verify"], fileSystem: PathFaultFileSystem { op, path in op == "open" && path == blob })
        #expect(verified.status == 1 && verified.stderr.contains("injected I/O error") && !verified.stdout.contains("missing"), "\(verified)")
        #expect(cli.run(["verify"]).status == 0)
    }

    // MARK: 3. No writer acknowledges a seq above 2^53 − 1

    @Test func anAppendOrErasurePastTheLargestSeqIsRefusedAndWritesNothing() {
        let cli = CLIHarness()
        cli.seedFamily()
        let last = cli.logText.split(separator: "\n").last.map(String.init) ?? ""
        let big = #"{"seq":9007199254740991,"id":"big","type":"SchoolAdded","at":"2026-03-01T12:00:00.000Z","actor":"u-pat","family":"f-u-pat","data":{"schoolId":"s-big","name":"Big"},"prev":"\#(SHA256.hex(Array(last.utf8)))"}"#
        FileManager.default.createFile(atPath: cli.logPath, contents: Data((cli.logText + big + "\n").utf8))
        let before = cli.logBytes
        cli.write("batch.jsonl", FaultInjectionTests.importLines)
        for words in [["add-school", "--as", "u-pat", "--name", "Duke"], ["import", "batch.jsonl"],
                      ["erase", "--as", "u-pat", "--member", "u-leo"], ["notifications", "--as", "u-pat", "--mark-read"]] {
            let result = cli.run(words)
            #expect(result.status == 1 && result.stderr.contains("The log is full: its last seq is 9007199254740991"), "\(words): \(result)")
            #expect(cli.logBytes == before, "\(words)")
        }
        // Everything the log holds still replays.
        #expect(cli.run(["schools", "--as", "u-pat"]).stdout.contains("Big"))
    }

    // MARK: 4. A failed write of standard output is an error (a closed pipe stays quiet)

    /// Runs the built binary with standard output on `output`; returns status and stderr.
    static func runBinary(_ words: [String], output: FileHandle, directory: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = words
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = output
        let err = Pipe()
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errData, as: UTF8.self))
    }

    @Test func everyCommandThatCannotWriteItsOutputSaysSoAndExitsOne() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.runAll(["log-interaction --as u-maya --school s-ucla --type email --direction inbound --subject Hello"])
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let now = ["--now", "2026-03-02T00:00:00Z"]
        for words in [["export", "--as", "u-pat"] + now, ["interactions", "--as", "u-pat"] + now, ["report", "--as", "u-pat"] + now,
                      ["schools", "--as", "u-pat", "--json"] + now, ["replay"], ["verify"], ["audit", "--as", "u-pat"],
                      ["generate", "--families", "1", "--events", "20", "--seed", "1"], ["--help"], ["show", "i-1", "--as", "u-maya", "--csv"] + now] {
            let (status, stderr) = try Self.runBinary(words, output: full, directory: cli.directory)
            #expect(status == 1 && stderr.hasSuffix("error: cannot write output: No space left on device\n"), "\(words): \(status) \(stderr)")
        }
        // A reader that stops early (`| head`) ends the output quietly.
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let (status, stderr) = try Self.runBinary(["generate", "--families", "2", "--events", "20000", "--seed", "1"],
                                                 output: pipe.fileHandleForWriting, directory: cli.directory)
        #expect((status == 0 || status == 141 || status == SIGPIPE) && stderr.isEmpty, "\(status) \(stderr)")
    }

    // MARK: 16. Input is read in bounded memory; sizes that cannot be met are refused

    @Test func contentFromStandardInputIsRefusedPastALineWithoutReadingItAll() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        let before = cli.logBytes
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "outbound",
                             "--content", "-", "--log", cli.logPath]
        let input = Pipe(), err = Pipe()
        process.standardInput = input
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // 64 MiB offered; the tool stops reading after one line's worth and the pipe closes.
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        var offered = 0
        do {
            for _ in 0..<64 {
                try input.fileHandleForWriting.write(contentsOf: chunk)
                offered += 1
            }
            try input.fileHandleForWriting.close()
        } catch {}
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1 && stderr.contains("'--content' is larger than 1048576 bytes"), "\(stderr)")
        #expect(offered < 64, "all 64 MiB were read")
        #expect(cli.logBytes == before)
    }

    @Test func importOfAMillionUnreadableLinesReportsEachInBoundedMemory() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return }
        let cli = CLIHarness()
        cli.seedFamily()
        let before = cli.logBytes
        cli.write("empty.jsonl", String(repeating: "{}\n", count: 1_000_000))
        let (status, peakKB, stderr) = try AttackRegressionTests.peakMemory(["import", cli.directory + "/empty.jsonl", "--log", cli.logPath])
        #expect(status == 1 && stderr.hasPrefix("error: 1000000 lines rejected; nothing was imported\n  line 1: missing field type\n"))
        #expect(stderr.contains("\n  line 1000000: missing field type\n"))
        // Every line is reported, each as a small problem: not a decoded draft per line (it was 930 MB).
        #expect(peakKB > 0 && peakKB < 300_000, "peak RSS \(peakKB) KB for 1M unreadable lines (3 MB)")
        #expect(cli.logBytes == before)
    }

    @Test func generatingMoreFamiliesThanEventsIsAUsageError() {
        let cli = CLIHarness()
        let result = cli.run(["generate", "--families", "2147483647", "--events", "1"])
        #expect(result.status == 2 && result.stderr.hasPrefix("error: --families 2147483647 is more than --events 1"), "\(result)")
    }

    // MARK: 17. After the commit point a failed folder fsync is a warning, not a false failure

    /// Fails every folder fsync once the file at `committing` has been renamed into place.
    final class AfterRename: @unchecked Sendable {
        private let lock = NSLock()
        private var renamed = false
        let committing: String
        init(_ committing: String) { self.committing = committing }
        func fails(_ operation: String, _ path: String) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if operation == "rename", path == committing { renamed = true }
            return renamed && operation == "syncdir"
        }
    }

    @Test func aCommittedEraseOrCopyWhoseFolderCannotBeSyncedSucceedsWithAWarning() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("leo.txt", "Leo Lopez bytes\n")
        cli.runAll(["log-interaction --as u-leo --school s-ucla --type email --direction inbound --attach \(cli.directory)/leo.txt"])
        try FileManager.default.removeItem(atPath: cli.directory + "/leo.txt")
        let copy = AfterRename(cli.directory + "/copy.txt.tmp-\(getpid())")
        let got = cli.run(["attachment", "get", "i-1", "leo.txt", "--as", "u-leo", "-o", cli.directory + "/copy.txt"],
                          fileSystem: PathFaultFileSystem(failing: copy.fails))
        #expect(got.status == 0 && got.stderr.hasPrefix("warning: the change is in place, but cannot sync"), "\(got)")
        #expect(FileManager.default.contents(atPath: cli.directory + "/copy.txt") == Data("Leo Lopez bytes\n".utf8))
        try FileManager.default.removeItem(atPath: cli.directory + "/copy.txt")

        let erase = AfterRename(cli.logPath + ".tmp-\(getpid())")
        let erased = cli.run(["erase", "--as", "u-pat", "--member", "u-leo"], fileSystem: PathFaultFileSystem(failing: erase.fails))
        #expect(erased.status == 0 && erased.stderr.hasPrefix("warning: the erasure is in place"), "\(erased)")
        #expect(!cli.logText.contains("Leo Lopez"))
        // The next writer finishes what the erasure left: its blob goes.
        #expect(cli.run(["add-school", "--as", "u-pat", "--name", "Duke"]).status == 0)
        #expect(ErasureFaultTests.holders(of: "Leo Lopez", under: cli.directory).isEmpty)
        #expect(cli.run(["verify"]).status == 0)
    }

    // MARK: 14. Side files are never written through a symbolic link

    @Test func aSymlinkedTemporaryIsNeverWrittenThrough() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("victim", "precious\n")
        let victim = cli.directory + "/victim"
        for temporary in [".journal.tmp-\(getpid())", ".tmp-\(getpid())", ".snapshot.tmp-\(getpid())"] {
            try FileManager.default.createSymbolicLink(atPath: cli.logPath + temporary, withDestinationPath: victim)
        }
        cli.write("batch.jsonl", FaultInjectionTests.importLines)
        #expect(cli.run(["import", "batch.jsonl"]).status == 0)
        _ = cli.run(["interactions", "--as", "u-pat"], environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "0"])
        #expect(cli.run(["erase", "--as", "u-pat", "--member", "u-leo"]).status == 0)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(cli.run(["verify"]).status == 0)
    }

    @Test func aSymlinkedSideFileIsAnErrorAndChangesNothing() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("victim", "precious\n")
        let victim = cli.directory + "/victim"
        // A torn tail to move aside, into a LOG.torn that is a link.
        let handle = try #require(FileHandle(forWritingAtPath: cli.logPath))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":6,"id":"torn","type":"Scho"#.utf8))
        handle.closeFile()
        try FileManager.default.createSymbolicLink(atPath: cli.logPath + ".torn", withDestinationPath: victim)
        let before = cli.logBytes
        let append = cli.run(["add-school", "--as", "u-pat", "--name", "Duke"])
        #expect(append.status == 1 && append.stderr.contains("is a symbolic link"), "\(append)")
        #expect(cli.logBytes == before)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        // A journal that is a link is refused by readers too.
        try FileManager.default.removeItem(atPath: cli.logPath + ".torn")
        try FileManager.default.createSymbolicLink(atPath: cli.logPath + ".journal", withDestinationPath: victim)
        let read = cli.run(["schools", "--as", "u-pat"])
        #expect(read.status == 1 && read.stderr.contains("is a symbolic link"), "\(read)")
    }

    // MARK: 15. attachment get never replaces a link, a device or a file unasked

    @Test func attachmentGetWritesOnlyNewOrRegularFiles() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("notes.txt", "Coach's notes\n")
        cli.runAll(["log-interaction --as u-maya --school s-ucla --type email --direction inbound --attach \(cli.directory)/notes.txt"])
        let id = "i-1"
        cli.write("victim", "precious\n")
        let victim = cli.directory + "/victim"
        let link = cli.directory + "/link.txt"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        let viaLink = cli.run(["attachment", "get", id, "notes.txt", "--as", "u-maya", "-o", link])
        #expect(viaLink.status == 1 && viaLink.stderr.contains("symbolic link"), "\(viaLink)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == victim)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        // A dangling link under the attachment's own name is not replaced either.
        try FileManager.default.removeItem(atPath: cli.directory + "/notes.txt")
        try FileManager.default.createSymbolicLink(atPath: cli.directory + "/notes.txt", withDestinationPath: cli.directory + "/nowhere")
        let dangling = cli.run(["attachment", "get", id, "notes.txt", "--as", "u-maya"])
        #expect(dangling.status == 1, "\(dangling)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/nowhere"))
        // Something that is not a regular file (a FIFO here) is never replaced.
        let fifo = cli.directory + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let toFifo = cli.run(["attachment", "get", id, "notes.txt", "--as", "u-maya", "-o", fifo])
        #expect(toFifo.status == 1 && toFifo.stderr.contains("not a regular file"), "\(toFifo)")
        #expect(try POSIXFileSystem().entry(at: fifo) == .other)
        // A regular file named with -o is replaced, as asked.
        cli.write("out.txt", "old")
        #expect(cli.run(["attachment", "get", id, "notes.txt", "--as", "u-maya", "-o", cli.directory + "/out.txt"]).status == 0)
        #expect(try String(contentsOfFile: cli.directory + "/out.txt", encoding: .utf8) == "Coach's notes\n")
    }

    // MARK: 19. A symbolic link loop is named as such

    @Test func aSymlinkLoopIsReportedAsALoopNotAsNoLog() throws {
        let cli = CLIHarness()
        let loop = cli.directory + "/loop.jsonl"
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        for words in [["schools", "--as", "u-pat"], ["verify"], ["add-school", "--as", "u-pat", "--name", "X"]] {
            let result = cli.run(words + ["--log", loop])
            #expect(result.status == 1 && result.stderr.contains("loop of symbolic links"), "\(words): \(result.stderr)")
        }
    }
}
