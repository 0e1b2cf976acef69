import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

/// Every write the store makes, failed or crashed at every single file operation, the way
/// SQLite's I/O-error and crash tests loop over every step: afterwards an acknowledged append
/// is there and readable, a failed one left the log byte-identical and created nothing, a
/// batch is all or nothing, and the next writer leaves a clean, verifiable log.
@Suite(.serialized) struct FaultInjectionTests {
    /// One store operation to attack.
    struct Scenario: CustomStringConvertible, Sendable {
        var name: String
        /// Prepares the folder with the real file system.
        var setUp: @Sendable (CLIHarness) -> Void
        /// The command run through the faulty file system.
        var words: [String]
        var environment: [String: String] = [:]
        /// The event ids the command appends (all of them, or none, must be in the log).
        var eventIds: [String]
        /// Who appends next, once the fault has passed.
        var nextActor = "u-pat"
        /// Event ids of an uncommitted batch (behind a hot journal) that must never be committed.
        var neverCommitted: [String] = []
        /// Text the command's output must never show (what only uncommitted lines hold).
        var forbiddenOutput: String?
        /// Whether the folder has a file `victim` that links in the folder point at, which no
        /// step may write through.
        var victim = false
        var description: String { name }
    }

    static let importLines = (1...6).map { n in
        #"{"id":"imp-\#(n)","type":"SchoolAdded","actor":"u-pat","data":{"schoolId":"s-imp-\#(n)","name":"Imported \#(n)"}}"#
    }.joined(separator: "\n") + "\n"

    /// An app's lines (no `seq`, no `prev`) of a generated 520-event history of 4 families,
    /// and their event ids: in blocks of 260 lines, each block is sealed one family per core
    /// and written on another thread while the next is decided.
    static let appLines: (text: String, ids: [String]) = {
        let generated = CLIHarness().run(["generate", "--events", "520", "--families", "4", "--seed", "3"]).stdout
        var text = ""
        var ids: [String] = []
        for line in generated.split(separator: "\n") {
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            ids.append(object["id"] as! String)
            text += String(line).replacing(#/^\{"seq":[0-9]+,/#, with: "{").replacing(#/,"prev":"[0-9a-f]{64}"\}$/#, with: "}") + "\n"
        }
        return (text, ids)
    }()

    /// A family's exported stream after an erasure (`Erased` records and `ErasureRecorded`
    /// included), and the ids of its lines that take one (all but the `Erased` records).
    static let restoreExport: (text: String, ids: [String]) = {
        let source = CLIHarness()
        source.idPrefix = "src-"  // not the ids the store restored into gives out
        source.seedFamily()
        source.runAll(["log-interaction --as u-leo --school s-ucla --type email --direction inbound --subject 'Leo note'",
                       "log-interaction --as u-maya --school s-ucla --type dm --direction outbound --subject 'Maya note'",
                       "erase --as u-pat --member u-leo"])
        let text = source.run(["export", "--stream", "--as", "u-pat"]).stdout
        let ids = text.split(separator: "\n").compactMap { line -> String? in
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return object["type"] as? String == "Erased" ? nil : object["id"] as? String
        }
        return (text, ids)
    }()

    static let scenarios: [Scenario] = [
        Scenario(name: "single append", setUp: { $0.seedFamily() },
                 words: ["add-school", "--as", "u-pat", "--name", "Duke", "--school", "s-duke", "--event-id", "ev-duke"],
                 eventIds: ["ev-duke"]),
        Scenario(name: "first append into missing folders", setUp: { _ in },
                 words: ["add-member", "--user", "u-1", "--name", "One", "--role", "parent", "--family", "f-1",
                         "--event-id", "ev-first", "--log", "new/sub/events.jsonl"],
                 eventIds: ["ev-first"], nextActor: "u-1"),
        Scenario(name: "import batch", setUp: { cli in cli.seedFamily(); cli.write("batch.jsonl", importLines) },
                 words: ["import", "batch.jsonl"], eventIds: (1...6).map { "imp-\($0)" }),
        // Six lines in three blocks: the first two written before the last is decided.
        Scenario(name: "import in blocks", setUp: { cli in cli.seedFamily(); cli.write("batch.jsonl", importLines) },
                 words: ["import", "batch.jsonl"], environment: ["COMPASS_IMPORT_BLOCK_LINES": "2"],
                 eventIds: (1...6).map { "imp-\($0)" }),
        Scenario(name: "import of an app's lines, blocks sealed one family per core",
                 setUp: { cli in cli.seedFamily(); cli.write("app.jsonl", appLines.text) },
                 words: ["import", "app.jsonl"], environment: ["COMPASS_IMPORT_BLOCK_LINES": "260"],
                 eventIds: appLines.ids),
        Scenario(name: "heal a torn tail, then append", setUp: { cli in
                     cli.seedFamily()
                     let handle = FileHandle(forWritingAtPath: cli.logPath)!
                     handle.seekToEndOfFile()
                     handle.write(Data(#"{"seq":6,"id":"torn-half","type":"Scho"#.utf8))
                     handle.closeFile()
                 },
                 words: ["change-status", "--as", "u-pat", "--school", "s-ucla", "--status", "visited", "--event-id", "ev-heal"],
                 eventIds: ["ev-heal"]),
        Scenario(name: "append with an attachment", setUp: { cli in cli.seedFamily(); cli.write("notes.txt", "Coach's notes\n") },
                 words: ["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "inbound",
                         "--attach", "notes.txt", "--event-id", "ev-attach"],
                 eventIds: ["ev-attach"]),
        Scenario(name: "a query writing its snapshot", setUp: { $0.seedFamily() },
                 words: ["interactions", "--as", "u-pat", "--json"], environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "0"],
                 eventIds: []),
        // `replay` leaves texts in the log and reads them back to write its snapshot.
        Scenario(name: "a replay writing its snapshot", setUp: { cli in
                     cli.seedFamily()
                     cli.runAll(["log-interaction --as u-maya --school s-ucla --type email --direction inbound --subject 'Camp invite' --content 'See you in June'",
                                 "log-interaction --as u-leo --school s-ucla --type phone_call --direction outbound --content 'Talked about the visit'"])
                 },
                 words: ["replay", "--json"], environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "0"],
                 eventIds: []),
        Scenario(name: "append over a hot journal", setUp: { cli in _ = StorageFailureTests.hotJournal(cli) },
                 words: ["add-school", "--as", "u-pat", "--name", "Hot", "--event-id", "ev-hot"],
                 eventIds: ["ev-hot"], neverCommitted: ["half-1", "half-2"]),
        Scenario(name: "a read over a hot journal", setUp: { cli in _ = StorageFailureTests.hotJournal(cli) },
                 words: ["schools", "--as", "u-pat", "--json"], environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "0"],
                 eventIds: [], neverCommitted: ["half-1", "half-2"], forbiddenOutput: "Uncommitted"),
        Scenario(name: "restore of an erased family's stream",
                 setUp: { cli in
                     cli.runAll(["add-member --user u-zed --name 'Zed Other' --role parent --family fam-zed --event-id zed-1"])
                     cli.write("restore.jsonl", restoreExport.text)
                 },
                 words: ["import", "--restore", "restore.jsonl"], eventIds: restoreExport.ids, nextActor: "u-zed"),
        Scenario(name: "import with symlinked temporaries", setUp: { cli in
                     cli.seedFamily()
                     cli.write("batch.jsonl", importLines)
                     cli.write("victim", "precious\n")
                     for temporary in [".journal.tmp-\(getpid())", ".tmp-\(getpid())", ".snapshot.tmp-\(getpid())"] {
                         try? FileManager.default.createSymbolicLink(atPath: cli.logPath + temporary, withDestinationPath: cli.directory + "/victim")
                     }
                 },
                 words: ["import", "batch.jsonl"], eventIds: (1...6).map { "imp-\($0)" }, victim: true),
    ]

    @Test(arguments: scenarios)
    func everyOperationFailedOrCrashedKeepsEveryPromise(_ scenario: Scenario) throws {
        var faults: [FaultyFileSystem.Fault: Int] = [:]
        var acknowledged = 0
        for fault in FaultyFileSystem.Fault.allCases {
            var step = 1
            while true {
                let cli = CLIHarness()
                scenario.setUp(cli)
                let logPath = scenario.words.contains("--log") ? cli.directory + "/new/sub/events.jsonl" : cli.logPath
                let before = (try? POSIXFileSystem().readFile(logPath)) ?? nil
                let filesBefore = Self.files(under: cli.directory)
                let expected = Self.committed(logPath)
                let fs = FaultyFileSystem(root: cli.directory, failAt: step, fault: fault)
                let result = cli.run(scenario.words, environment: scenario.environment, fileSystem: fs)
                #expect(fs.strayCloses.isEmpty, "descriptors closed twice: \(scenario), \(fs.injected ?? "no fault")")
                #expect(fs.openDescriptors.isEmpty, "descriptors left open: \(scenario), \(fs.injected ?? "no fault")")
                guard fs.hitFault else {
                    #expect(result.status == 0, "\(scenario) ran clean (\(fs.operations) operations): \(result.stderr)")
                    break
                }
                faults[fault, default: 0] += 1
                if fault == .powerLoss { fs.recoverFromPowerLoss() }
                let context = "\(scenario), \(fs.injected ?? ""), exit \(result.status): \(result.stderr)"
                let after = Self.committed(logPath)
                        let found = scenario.eventIds.filter { after.ids.contains($0) }
                // A batch is all or nothing; an acknowledged write is all there.
                #expect(found.isEmpty || found.count == scenario.eventIds.count, "partial batch: \(context)")
                if result.status == 0 {
                    acknowledged += 1
                    #expect(found.count == scenario.eventIds.count, "acknowledged but missing: \(context)")
                } else if fault == .error || fault == .shortWrite {
                    // A failed append changes nothing: the log byte-identical (a torn tail moved
                    // aside excepted), no new file or folder but `LOG.torn`.
                    #expect(found.isEmpty, "failed but applied: \(context)")
                    let now = (try? POSIXFileSystem().readFile(logPath)) ?? nil
                    // A writer may first move a torn tail aside or roll back an uncommitted batch.
                    if scenario.name.hasPrefix("heal") || !scenario.neverCommitted.isEmpty {
                        #expect(now == before || now.map { before?.starts(with: $0) ?? false } == true, "\(context)")
                    } else {
                        #expect(now == before, "log changed: \(context)")
                    }
                    let added = Self.files(under: cli.directory).subtracting(filesBefore)
                        .filter { !$0.hasSuffix(".torn") && !$0.hasSuffix(".snapshot") }
                    #expect(added.isEmpty, "left behind \(added.sorted()): \(context)")
                }
                // A torn tail cut from the log is in `LOG.torn` (made durable, its folder entry
                // too, before the cut), whatever failed or crashed.
                if scenario.name.hasPrefix("heal") {
                    let fragment = Array(#"{"seq":6,"id":"torn-half","type":"Scho"#.utf8)
                    let log = (try? POSIXFileSystem().readFile(logPath)).flatMap { $0 } ?? []
                    let torn = (try? POSIXFileSystem().readFile(logPath + ".torn")).flatMap { $0 } ?? []
                    let kept = log.suffix(fragment.count).elementsEqual(fragment) || torn.starts(with: fragment)
                    #expect(kept, "torn fragment lost: \(context)")
                }
                if let forbidden = scenario.forbiddenOutput { #expect(!result.stdout.contains(forbidden), "showed \(forbidden): \(context)") }
                // A batch behind a hot journal is never committed, whatever failed.
                for id in scenario.neverCommitted { #expect(!after.ids.contains(id), "uncommitted \(id) committed: \(context)") }
                if scenario.victim {
                    #expect(FileManager.default.contents(atPath: cli.directory + "/victim") == Data("precious\n".utf8),
                            "written through a link: \(context)")
                }
                // What was committed before is still there, and nothing else is half there.
                #expect(after.applied >= expected.applied, "lost committed events: \(context)")
                #expect(after.problems.allSatisfy { $0.kind == .torn }, "\(after.problems): \(context)")
                // The next writer (the real file system) leaves a clean, verifiable log.
                if after.members > 0 {
                    let next = cli.run(["add-member", "--as", scenario.nextActor, "--user", "u-next-\(step)", "--name", "Next",
                                        "--role", "player", "--log", logPath])
                    #expect(next.status == 0, "next append: \(next.stderr) after \(context)")
                    let verify = cli.run(["verify", "--log", logPath])
                    #expect(verify.status == 0, "verify after \(context): \(verify.stdout)")
                }
                for id in scenario.neverCommitted { #expect(!Self.committed(logPath).ids.contains(id), "after the next writer: \(context)") }
                // A snapshot left in place never changes an answer.
                if scenario.words.first == "interactions" || scenario.words.first == "replay" {
                    let again = cli.run(scenario.words)
                    let plain = cli.run(scenario.words, environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "off"])
                    #expect(again.stdout == plain.stdout, "\(context)")
                }
                step += 1
            }
        }
        let summary = faults.sorted { "\($0.key)" < "\($1.key)" }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("fault injection, \(scenario): \(summary); \(acknowledged) acknowledged despite a later fault, all present")
        #expect(faults.values.allSatisfy { $0 > 0 })
    }

    /// Standard output that cannot be written (a full disk): every scenario's command exits 1
    /// saying so; an append it made is all there (it was durable before the output).
    @Test(arguments: scenarios)
    func aFailedStandardOutputIsAnErrorAndLosesNothingAcknowledged(_ scenario: Scenario) {
        let cli = CLIHarness()
        scenario.setUp(cli)
        let result = cli.run(scenario.words, environment: scenario.environment, outputFails: true)
        #expect(result.status == 1 && result.stderr.hasSuffix("error: cannot write output: No space left on device\n"), "\(scenario): \(result)")
        let after = Self.committed(scenario.words.contains("--log") ? cli.directory + "/new/sub/events.jsonl" : cli.logPath)
        #expect(scenario.eventIds.allSatisfy(after.ids.contains), "\(scenario)")
        for id in scenario.neverCommitted { #expect(!after.ids.contains(id)) }
    }

    /// The committed view of a log (as every reader sees it): event ids, members, problems.
    static func committed(_ path: String) -> (ids: EventIdSet, applied: Int, members: Int, problems: [Problem]) {
        guard let replayer = try? LogReader.replay(path: path, fs: POSIXFileSystem()) else { return (EventIdSet(), 0, 0, []) }
        return (replayer.state.eventIds, replayer.state.appliedCount, replayer.state.members.count, replayer.problems)
    }

    static func files(under folder: String) -> Set<String> {
        var all: Set<String> = []
        let fs = POSIXFileSystem()
        func walk(_ path: String) {
            for name in (try? fs.list(path)) ?? [] {
                let child = path + "/" + name
                all.insert(child)
                if (try? fs.entry(at: child)) == .directory { walk(child) }
            }
        }
        walk(folder)
        return all
    }
}
