import Foundation
import Testing
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

/// Runs `compass` in-process against a temporary folder, with a fixed clock and ids.
final class CLIHarness {
    let directory: String
    var now = "2026-03-01T12:00:00Z"
    private var counter = 0
    /// What the ids this harness gives out start with (another store's history needs others).
    var idPrefix = "evt-"

    init() {
        directory = NSTemporaryDirectory() + "compass-test-" + UUID().uuidString.lowercased()
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Where the log is: the folder's `events.jsonl`, or a database address when set.
    var database: String?
    var logPath: String { database ?? directory + "/events.jsonl" }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs one command; `--log` and `--now` default to the harness's.
    @discardableResult
    func run(_ words: [String], environment: [String: String] = [:], fileSystem: FileSystem = POSIXFileSystem(),
             outputFails: Bool = false) -> Result {
        let console = Console(capturing: true)
        if outputFails { console.failOutput(ENOSPC) }
        var words = words
        let options = words.first.flatMap(CommandCatalog.find)?.options.map(\.name) ?? []
        if options.contains("log"), !words.contains("--log") { words += ["--log", logPath] }
        let takesNow = options.contains("now")
        if takesNow, !words.contains("--now"), !words.contains("--as-of") { words += ["--now", now] }
        let status = Compass.run(words, environment: environment, console: console,
                                 clock: { Timestamp(rfc3339: "2030-01-01T00:00:00Z")! },
                                 makeId: { [unowned self] in self.counter += 1; return "\(self.idPrefix)\(self.counter)" },
                                 currentDirectory: directory, fileSystem: fileSystem)
        return Result(status: status, stdout: String(decoding: console.capturedOut, as: UTF8.self),
                      stderr: String(decoding: console.capturedErr, as: UTF8.self))
    }

    func run(_ line: String) -> Result { run(Self.words(line)) }

    /// Splits a command line on spaces, honouring single quotes.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for ch in line {
            if ch == "'" { quoted.toggle(); started = true; continue }
            if ch == " " && !quoted {
                if started { words.append(current); current = ""; started = false }
                continue
            }
            current.append(ch)
            started = true
        }
        if started { words.append(current) }
        return words
    }

    /// A family: parent u-pat, athletes u-maya and u-leo, UCLA with a coach.
    func seedFamily() {
        runAll([
            "add-member --user u-pat --name 'Pat Lopez' --role parent --family f-u-pat",
            "add-member --as u-pat --user u-maya --name 'Maya Lopez' --role player",
            "add-member --as u-pat --user u-leo --name 'Leo Lopez' --role player",
            "add-school --as u-pat --name UCLA --school s-ucla --status interested",
            "add-coach --as u-pat --school s-ucla --first Jane --last Doe --role head",
        ])
    }

    /// Runs each command line in turn, expecting each to succeed.
    func runAll(_ lines: [String]) {
        for line in lines {
            let result = run(line)
            #expect(result.status == 0, "\(line): \(result.stderr)")
        }
    }

    var logBytes: [UInt8] { (try? POSIXFileSystem().readFile(logPath)) .flatMap { $0 } ?? [] }
    var logText: String { String(decoding: logBytes, as: UTF8.self) }

    func write(_ path: String, _ text: String) {
        FileManager.default.createFile(atPath: directory + "/" + path, contents: Data(text.utf8))
    }

    /// Appends raw bytes to the log, as a hand edit or another program would.
    func appendToLog(_ text: String) {
        FileManager.default.createFile(atPath: logPath, contents: Data(logBytes + Array(text.utf8)))
    }
}
