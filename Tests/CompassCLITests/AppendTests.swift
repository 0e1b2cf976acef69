import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

/// The write side of `compass`: durable, validated, idempotent appends.
@Suite struct AppendTests {
    @Test func appendThenReplayShowsTheEvents() {
        let cli = CLIHarness()
        cli.seedFamily()
        let logged = cli.run("log-interaction --as u-maya --school s-ucla --coach c-jane-doe --type email --direction inbound --subject 'Camp invite' --json")
        #expect(logged.status == 0)
        #expect(logged.stdout == #"{"seq":6,"version":6,"eventId":"evt-6","id":"i-1"}"# + "\n")
        let replay = cli.run("replay --json")
        #expect(replay.status == 0)
        #expect(replay.stdout == #"{"events":6,"applied":6,"erased":0,"byType":{"CoachAdded":1,"InteractionLogged":1,"MemberJoined":3,"SchoolAdded":1},"members":3,"liveInteractions":1,"problems":[]}"# + "\n")
    }

    @Test func everyLineIsSealedWithThePreviousLinesHash() {
        let cli = CLIHarness()
        cli.seedFamily()
        let lines = cli.logText.split(separator: "\n")
        var previous = SHA256.emptyHex
        for line in lines {
            #expect(line.hasSuffix(#","prev":"\#(previous)"}"#))
            previous = SHA256.hex(Array(line.utf8))
        }
        #expect(cli.run("verify").stdout.contains("family f-u-pat: seq 5\n  head \(previous)\n"))
    }

    @Test func rejectedAppendWritesNothingAndExitsOne() {
        let cli = CLIHarness()
        cli.seedFamily()
        let before = cli.logBytes
        let result = cli.run("log-interaction --as u-pat --school s-ucla --type email --direction inbound")
        #expect(result.status == 1)
        #expect(result.stderr == "error: Only players can create interactions\n")
        let subject = String(repeating: "🔥", count: 250) + "!"
        let tooLong = cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "inbound", "--subject", subject])
        #expect(tooLong.stderr == "error: Subject must be 500 characters or less\n")
        #expect(cli.logBytes == before)
    }

    @Test func usageErrorsExitTwo() {
        let cli = CLIHarness()
        #expect(cli.run("add-school --as u-pat --frobnicate").status == 2)
        #expect(cli.run("add-school --as u-pat --name").stderr.hasPrefix("error: missing value for '--name'"))
        #expect(cli.run("add-school --name X").stderr.hasPrefix("error: missing '--as USER'"))
        #expect(cli.run("replay --tz Mars/Olympus").status == 2)
        #expect(cli.run("nonsense").status == 2)
        #expect(cli.run("log-interaction --as u --interest y,maybe").status == 2)
    }

    @Test func everyCommandHasHelp() {
        let cli = CLIHarness()
        for spec in CommandCatalog.all {
            let result = cli.run([spec.name, "--help"])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("usage: compass \(spec.name)"))
        }
    }

    @Test func idempotentRetryWritesNothingAndPrintsTheOriginal() {
        let cli = CLIHarness()
        cli.seedFamily()
        let first = cli.run("add-school --as u-pat --name Stanford --event-id retry-1 --json")
        let before = cli.logBytes
        cli.now = "2026-03-02T12:00:00Z"
        let again = cli.run("add-school --as u-pat --name Stanford --event-id retry-1 --json")
        #expect(again.status == 0)
        #expect(again.stdout == first.stdout)
        #expect(cli.logBytes == before)
        let different = cli.run("add-school --as u-pat --name Stanford2 --event-id retry-1")
        #expect(different.status == 1)
        #expect(different.stderr.contains("Conflict"))
        #expect(cli.logBytes == before)
    }

    @Test func idempotentRetryReusesTheGeneratedInteractionId() {
        let cli = CLIHarness()
        cli.seedFamily()
        let words = "log-interaction --as u-maya --school s-ucla --type dm --direction outbound --occurred-at 2026-02-01T10:00:00Z --subject '<b>Hi</b>' --event-id ev-dm"
        let first = cli.run(words)
        #expect(first.stdout == "i-1\n")
        #expect(cli.run("log-interaction --as u-maya --school s-ucla --type dm --direction outbound").stdout == "i-2\n")
        let retry = cli.run(words)
        #expect(retry.status == 0)
        #expect(retry.stdout == "i-1\n")
    }

    /// SPEC §1.1: `--expect-version N` is the family's last `seq`; `--expect-seq` is gone.
    @Test func expectVersionIsTheFamilysLastSeq() {
        let cli = CLIHarness()
        cli.seedFamily()
        let before = cli.logBytes
        let stale = cli.run("add-school --as u-pat --name Rice --expect-version 4")
        #expect(stale.status == 1)
        #expect(stale.stderr == "error: Conflict: expected version 4 of family f-u-pat, but it is 5\n")
        #expect(cli.logBytes == before)
        #expect(cli.run("add-school --as u-pat --name Rice --expect-seq 5").status == 2)
        #expect(cli.logBytes == before)
        let written = cli.run("add-school --as u-pat --name Rice --expect-version 5 --json")
        #expect(written.status == 0)
        #expect(written.stdout.hasPrefix(#"{"seq":6,"version":6,"eventId":""#))
        #expect(written.stdout.hasSuffix(#"","id":"s-rice"}"# + "\n"))
    }

    @Test func tornTailIsMovedAsideBeforeTheNextAppend() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        let fragment = #"{"seq":6,"id":"half"#
        let handle = try #require(FileHandle(forWritingAtPath: cli.logPath))
        handle.seekToEndOfFile()
        handle.write(Data(fragment.utf8))
        handle.closeFile()
        let replay = cli.run("replay")
        #expect(replay.status == 1)
        #expect(replay.stdout.contains("6: torn last line"))
        #expect(cli.run("add-school --as u-pat --name Duke").status == 0)
        let side = try #require(try POSIXFileSystem().readFile(cli.logPath + ".torn"))
        #expect(String(decoding: side, as: UTF8.self) == fragment + "\n")
        let verify = cli.run("verify")
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("chain: intact"))
    }

    @Test func logAndFolderAreCreatedWhenAbsent() {
        let cli = CLIHarness()
        let nested = cli.directory + "/a/b/log.jsonl"
        #expect(cli.run(["add-member", "--user", "u-1", "--name", "One", "--role", "player", "--family", "f-1", "--log", nested]).status == 0)
        #expect(FileManager.default.fileExists(atPath: nested))
    }

    @Test func attachmentsAreCheckedHashedAndStoredByContent() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("notes.TXT", "hello coach")
        cli.write("virus.exe", "x")
        #expect(cli.run("log-interaction --as u-maya --school s-ucla --type email --direction inbound --attach virus.exe").stderr
                == "error: Unsupported file type\n")
        let result = cli.run("log-interaction --as u-maya --school s-ucla --type email --direction inbound --attach notes.TXT")
        #expect(result.status == 0, "\(result.stderr)")
        let sha = SHA256.hex(Array("hello coach".utf8))
        #expect(cli.logText.contains(#""attachments":[{"name":"notes.TXT","sizeBytes":11,"mimeType":"text/plain","sha256":"\#(sha)"}]"#))
        let stored = try #require(try POSIXFileSystem().readFile(cli.logPath + ".attachments/" + sha))
        #expect(stored == Array("hello coach".utf8))
    }

    @Test func attachmentOverTenMegabytesIsRefused() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        FileManager.default.createFile(atPath: cli.directory + "/big.pdf", contents: Data(count: 10_485_761))
        #expect(cli.run("log-interaction --as u-maya --school s-ucla --type email --direction inbound --attach big.pdf").stderr
                == "error: File exceeds 10MB limit\n")
    }

    @Test func defaultIdsAreReadableAndUnique() {
        let cli = CLIHarness()
        cli.seedFamily()
        #expect(cli.run("add-school --as u-pat --name 'Arizona State'").stdout == "s-arizona-state\n")
        #expect(cli.run("add-school --as u-pat --name 'Arizona  State!'").stdout == "s-arizona-state-2\n")
        #expect(cli.run("upload-document --as u-maya --title Transcript --doc-type transcript").stdout == "d-1\n")
        #expect(cli.run("change-status --as u-maya --school s-ucla --status offer_received --notes 'Full ride'").stdout == "s-ucla\n")
    }

    @Test func deleteInteractionFollowsTheRule() {
        let cli = CLIHarness()
        cli.seedFamily()
        _ = cli.run("log-interaction --as u-maya --school s-ucla --type email --direction inbound")
        #expect(cli.run("delete-interaction i-1 --as u-pat").stderr == "error: Only the player who logged this interaction can delete it\n")
        #expect(cli.run("delete-interaction i-1 --as u-leo").stderr == "error: Interaction not found\n")
        #expect(cli.run("delete-interaction i-1 --as u-maya").status == 0)
        #expect(cli.run("delete-interaction i-1 --as u-maya").stderr == "error: Interaction not found\n")
    }

    @Test func generateIsDeterministic() {
        let cli = CLIHarness()
        let a = cli.run("generate --events 300 --families 2 --seed 9")
        let b = cli.run("generate --events 300 --families 2 --seed 9")
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.split(separator: "\n").count == 300)
    }
}

/// `compass import`: all or nothing, every rejected line reported.
@Suite struct ImportTests {
    static func sample(_ lines: ClosedRange<Int>) -> String {
        let text = try! String(contentsOfFile: Binary.packageRoot + "/events-samples/family.jsonl", encoding: .utf8)
        return text.split(separator: "\n")[(lines.lowerBound - 1)...(lines.upperBound - 1)].joined(separator: "\n") + "\n"
    }

    @Test func importingAnExportedHistoryRebuildsTheSameBytes() throws {
        let cli = CLIHarness()
        cli.write("first.jsonl", Self.sample(1...30))
        cli.write("rest.jsonl", Self.sample(31...79))
        // An exported history brings its attachments' bytes beside it, as a log keeps them.
        for file in ["first", "rest"] {
            try FileManager.default.copyItem(atPath: Binary.packageRoot + "/events-samples/family.jsonl.attachments",
                                             toPath: cli.directory + "/\(file).jsonl.attachments")
        }
        #expect(cli.run("import first.jsonl").stdout == "imported 30 events\n  fam-lopez: seq 1–30\n")
        #expect(cli.run("import rest.jsonl --json").stdout
            == #"{"imported":49,"families":[{"family":"fam-lopez","firstSeq":31,"lastSeq":79}]}"# + "\n")
        let original = try String(contentsOfFile: Binary.packageRoot + "/events-samples/family.jsonl", encoding: .utf8)
        #expect(cli.logText == original)
    }

    @Test func aBatchWithRejectedLinesWritesNothingAndReportsEveryOne() {
        let cli = CLIHarness()
        cli.seedFamily()
        let before = cli.logBytes
        cli.write("batch.jsonl", """
        {"type":"SchoolAdded","actor":"u-pat","data":{"schoolId":"s-rice","name":"Rice"}}
        {oops
        {"type":"InteractionLogged","actor":"u-pat","data":{"interactionId":"i-1","schoolId":"s-rice","type":"email","direction":"inbound"}}
        {"type":"InteractionLogged","actor":"u-maya","data":{"interactionId":"i-1","schoolId":"s-rice","type":"email","direction":"inbound","subject":"<b>ok</b>"}}
        {"actor":"u-maya","data":{}}
        {"type":"SchoolAdded","actor":"u-pat","data":{"schoolId":"s-rice","name":"Rice again"}}

        """)
        let result = cli.run("import batch.jsonl")
        #expect(result.status == 1)
        #expect(result.stderr == """
        error: 4 lines rejected; nothing was imported
          line 2: invalid JSON
          line 3: Only players can create interactions
          line 5: missing field type
          line 6: School s-rice already exists

        """)
        #expect(cli.logBytes == before)
    }

    @Test func importedTextIsSanitizedLikeAnyAppend() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("one.jsonl", #"{"id":"web-1","type":"InteractionLogged","actor":"u-maya","at":"2026-02-01T10:00:00Z","data":{"interactionId":"i-7","schoolId":"s-ucla","type":"email","direction":"inbound","subject":"<b>Hi</b>"}}"# + "\n")
        #expect(cli.run("import one.jsonl").status == 0)
        #expect(cli.logText.contains(#""id":"web-1","type":"InteractionLogged","at":"2026-02-01T10:00:00.000Z""#))
        #expect(cli.logText.contains(#""subject":"Hi""#))
        #expect(cli.run("import one.jsonl").stderr.contains("line 1: duplicate event id web-1"))
    }

    @Test func importHonoursExpectVersionOfItsOneFamily() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("one.jsonl", #"{"type":"SchoolAdded","actor":"u-pat","data":{"schoolId":"s-rice","name":"Rice"}}"# + "\n")
        #expect(cli.run("import one.jsonl --expect-version 4").status == 1)
        #expect(cli.run("import one.jsonl --expect-version 5").status == 0)
    }
}

/// In-process writers keep their state between appends and fold what others appended.
@Suite struct LogWriterCacheTests {
    static func append(_ writer: LogWriter, _ type: EventType, _ actor: String, _ data: [(String, String)], id: String) -> String? {
        do {
            _ = try writer.append(eventId: nil, expectVersion: nil) { (_, _) throws(StoreError) -> [EventDraft] in
                [EventDraft(seq: 1, id: id, type: type.rawValue, at: Timestamp(rfc3339: "2026-01-01T00:00:00Z")!, actor: actor, family: "fam",
                            data: JSONObject(data.map { JSONObject.Member($0.0, .string($0.1)) }))]
            }
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aWriterSeesWhatAnotherWriterAppendedSinceItsLastAppend() throws {
        let cli = CLIHarness()
        let a = LogWriter(path: cli.logPath), b = LogWriter(path: cli.logPath)
        #expect(Self.append(a, .memberJoined, "u-p", [("userId", "u-p"), ("fullName", "Pat"), ("role", "parent")], id: "e1") == nil)
        #expect(Self.append(a, .schoolAdded, "u-p", [("schoolId", "s-1"), ("name", "UCLA")], id: "e2") == nil)
        #expect(Self.append(b, .schoolAdded, "u-p", [("schoolId", "s-2"), ("name", "Rice")], id: "e3") == nil)
        // A's cached state must include B's school, and B's event id.
        #expect(Self.append(a, .schoolAdded, "u-p", [("schoolId", "s-2"), ("name", "Rice again")], id: "e4") == "School s-2 already exists")
        #expect(Self.append(a, .schoolAdded, "u-p", [("schoolId", "s-3"), ("name", "Duke")], id: "e3") == "duplicate event id e3")
        // A torn tail written by a crashed process is moved aside by the next append, cached or not.
        let handle = try #require(FileHandle(forWritingAtPath: cli.logPath))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":4,"id":"half"#.utf8))
        handle.closeFile()
        #expect(Self.append(a, .schoolAdded, "u-p", [("schoolId", "s-3"), ("name", "Duke")], id: "e5") == nil)
        #expect(Self.append(b, .schoolAdded, "u-p", [("schoolId", "s-4"), ("name", "Yale")], id: "e6") == nil)
        // A log rewritten behind the writer's back is replayed from the start.
        let lines = cli.logText.split(separator: "\n")
        cli.write("events.jsonl", lines.prefix(2).map { $0 + "\n" }.joined())
        #expect(Self.append(a, .schoolAdded, "u-p", [("schoolId", "s-2"), ("name", "Rice")], id: "e7") == nil)
        let verify = cli.run("verify")
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(cli.logText.split(separator: "\n").count == 3)
    }
}

/// A writer keeps the log open between appends, but only while the path names that file.
@Suite struct LogWriterFileTests {
    @Test func aLogMovedAwayIsNotAppendedToAgain() throws {
        let cli = CLIHarness()
        let writer = LogWriter(path: cli.logPath)
        #expect(LogWriterCacheTests.append(writer, .memberJoined, "u-p", [("userId", "u-p"), ("fullName", "Pat"), ("role", "parent")], id: "e1") == nil)
        let moved = cli.logPath + ".moved"
        try FileManager.default.moveItem(atPath: cli.logPath, toPath: moved)
        // The path is empty now: the next append starts a new log there, the moved file is left alone.
        #expect(LogWriterCacheTests.append(writer, .memberJoined, "u-q", [("userId", "u-q"), ("fullName", "Quinn"), ("role", "parent")], id: "e2") == nil)
        #expect(try String(contentsOfFile: moved, encoding: .utf8).split(separator: "\n").count == 1)
        #expect(cli.logText.split(separator: "\n").count == 1)
        #expect(cli.logText.contains(#""id":"e2""#))
        #expect(cli.run("verify").status == 0)
    }
}
