import Foundation
import Testing
import CompassTestSupport
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

#if canImport(Glibc)
import Glibc
#endif

/// Erasure at its edges: attachment bytes import must not trust, ids never issued twice,
/// readers and snapshots racing an erasure, orphaned blobs and temporaries, a snapshot that
/// cannot be removed, malformed lines, and heads kept between two erasures.
@Suite(.serialized) struct ErasureEdgeTests {
    // MARK: 5. Import never trusts an attachment hash: the bytes must be this family's

    @Test func importRefusesAttachmentsThatAreNotThisFamilysBytes() {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("maya.txt", "Maya's private file\n")
        cli.runAll(["log-interaction --as u-maya --school s-ucla --type email --direction inbound --attach \(cli.directory)/maya.txt",
                    "add-member --user u-x --name 'Xavi Other' --role parent --family f-x",
                    "add-member --as u-x --user u-xp --name 'Xia Other' --role player",
                    "add-school --as u-x --name Duke --school s-duke"])
        let maya = SHA256.hex(Array("Maya's private file\n".utf8))
        func line(_ actor: String, _ school: String, _ sha: String) -> String {
            #"{"type":"InteractionLogged","actor":"\#(actor)","data":{"interactionId":"i-imp","schoolId":"\#(school)","type":"email","direction":"inbound","attachments":[{"name":"f.txt","sizeBytes":20,"mimeType":"text/plain","sha256":"\#(sha)"}]}}"#
        }
        let before = cli.logBytes
        for (actor, school, sha) in [("u-xp", "s-duke", maya), ("u-maya", "s-ucla", String(repeating: "a", count: 64))] {
            cli.write("import.jsonl", line(actor, school, sha) + "\n")
            let result = cli.run(["import", "import.jsonl"])
            #expect(result.status == 1 && result.stderr.contains("line 1: attachment \(sha) is not in this family's store, nor beside the imported file"),
                    "\(result)")
            #expect(cli.logBytes == before)
        }
        // The line that names them is found wherever it is in the file.
        let schools = (1...2).map { #"{"type":"SchoolAdded","actor":"u-xp","data":{"schoolId":"s-imp\#($0)","name":"School \#($0)"}}"# }
        cli.write("import.jsonl", (schools + [line("u-xp", "s-duke", maya)]).joined(separator: "\n") + "\n")
        let third = cli.run(["import", "import.jsonl"])
        #expect(third.status == 1 && third.stderr.contains("line 3: attachment \(maya) is not in this family's store"), "\(third)")
        #expect(cli.logBytes == before)
        // Bytes beside the file that do not hash to the name are refused too.
        cli.write("import.jsonl", line("u-xp", "s-duke", maya) + "\n")
        try? FileManager.default.createDirectory(atPath: cli.directory + "/import.jsonl.attachments", withIntermediateDirectories: true)
        cli.write("import.jsonl.attachments/\(maya)", "not Maya's bytes")
        #expect(cli.run(["import", "import.jsonl"]).status == 1)
        #expect(cli.logBytes == before)
        // The family's own bytes may be named again.
        cli.write("import.jsonl", line("u-maya", "s-ucla", maya) + "\n")
        #expect(cli.run(["import", "import.jsonl"]).status == 0)
        #expect(cli.run(["verify"]).status == 0)
        // The other family cannot reach Maya's file.
        #expect(cli.run(["attachment", "get", "i-imp", "f.txt", "--as", "u-xp"]).status == 1)
    }

    // MARK: 6. Default ids are never issued again after an erasure

    @Test func defaultIdsAfterAnErasureAreAboveEveryOneIssuedBefore() {
        for snapshot in ["off", "0"] {
            let cli = CLIHarness()
            cli.seedFamily()
            let env = ["COMPASS_SNAPSHOT_MIN_BYTES": snapshot]
            var issued: [String] = []
            for (actor, subject) in [("u-maya", "A"), ("u-leo", "B"), ("u-leo", "C"), ("u-maya", "D")] {
                issued.append(cli.run(["log-interaction", "--as", actor, "--school", "s-ucla", "--type", "email", "--direction", "inbound",
                                       "--subject", subject], environment: env).stdout)
            }
            issued.append(cli.run(["upload-document", "--as", "u-leo", "--title", "Leo transcript", "--doc-type", "transcript"], environment: env).stdout)
            #expect(issued == ["i-1\n", "i-2\n", "i-3\n", "i-4\n", "d-1\n"])
            #expect(cli.run(["erase", "--as", "u-pat", "--member", "u-leo"], environment: env).status == 0)
            _ = cli.run(["schools", "--as", "u-pat"], environment: env)
            let next = cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "inbound"],
                               environment: env).stdout
            let document = cli.run(["upload-document", "--as", "u-maya", "--title", "Maya transcript", "--doc-type", "transcript"],
                                   environment: env).stdout
            func number(_ id: String) -> Int { Int(id.dropFirst(2).dropLast()) ?? 0 }
            #expect(!issued.contains(next) && number(next) > 4, "\(next)")
            #expect(!issued.contains(document) && number(document) > 1, "\(document)")
        }
    }

    // MARK: 8. A reader racing erase never writes the erased member back into the snapshot

    @Test func aReaderThatFinishesAfterAnErasureWritesNoSnapshotOfTheOldLog() throws {
        for erases in [false, true] {
            let cli = CLIHarness()
            cli.seedFamily()
            cli.runAll(["log-interaction --as u-leo --school s-ucla --type email --direction inbound --subject 'Leo Lopez secret'"])
            // The reader has replayed; its snapshot waits for its output to be written.
            nonisolated(unsafe) var pending: (() -> Void)?
            let policy = SnapshotPolicy(minimumNewBytes: 0, afterOutput: { pending = $0 })
            _ = try LogReader.replay(path: cli.logPath, fs: POSIXFileSystem(), snapshots: policy, scope: .familyOf("u-pat"))
            let write = try #require(pending)
            if erases { #expect(cli.run(["erase", "--as", "u-pat", "--member", "u-leo"]).status == 0) }
            write()
            let snapshot = FileManager.default.contents(atPath: cli.logPath + ".snapshot")
            if erases {
                #expect(snapshot == nil, "a snapshot of the log before the erasure was written")
                #expect(ErasureFaultTests.holders(of: "Leo Lopez", under: cli.directory).isEmpty)
            } else {
                #expect(snapshot?.range(of: Data("Leo Lopez".utf8)) != nil, "the reader writes its snapshot when nothing raced it")
            }
        }
    }

    @Test func aSnapshotAskedForUnderTheWritersLockIsSkippedNotWaitedFor() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        // An app's store writes snapshots at once; its writer holds the lock while it replays.
        let writer = LogWriter(path: cli.logPath, snapshots: SnapshotPolicy(minimumNewBytes: 0, afterOutput: { $0() }))
        let outcome = try writer.append(eventId: nil, expectVersion: nil, actor: "u-pat") { state, _ throws(StoreError) in
            do throws(EventError) {
                return [try Command.addSchool(AddSchool(name: "Duke")).draft(by: "u-pat", at: Timestamp(rfc3339: "2026-03-01T12:00:00Z")!,
                                                                               eventId: "e-duke", in: state)]
            } catch { throw .rejected(error) }
        }
        guard case .written = outcome else { Issue.record("not written"); return }
        #expect(cli.logText.contains("e-duke"))
    }

    // MARK: 9. Erasure removes every blob no remaining line refers to, and every temporary

    @Test func erasureRemovesOrphanedBlobsAndTemporariesButKeepsReferencedBlobs() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("maya.txt", "Maya keeps this\n")
        cli.runAll(["log-interaction --as u-maya --school s-ucla --type email --direction inbound --attach \(cli.directory)/maya.txt"])
        let folder = cli.logPath + ".attachments"
        let kept = SHA256.hex(Array("Maya keeps this\n".utf8))
        // What an append with --attach killed after storing its blob leaves, and temporaries
        // of writers that died (one under a live process id).
        let orphan = Array("Leo Lopez orphaned bytes".utf8)
        FileManager.default.createFile(atPath: folder + "/" + SHA256.hex(orphan), contents: Data(orphan))
        FileManager.default.createFile(atPath: folder + "/\(SHA256.hex(orphan)).tmp-1", contents: Data(orphan))
        FileManager.default.createFile(atPath: cli.logPath + ".snapshot.tmp-1", contents: Data("Leo Lopez".utf8))
        cli.write("other.jsonl.tmp-1", "another log's temporary")
        let erased = cli.run(["erase", "--as", "u-pat", "--member", "u-leo"])
        #expect(erased.status == 0, "\(erased)")
        #expect(try POSIXFileSystem().list(folder) == [kept])
        #expect(ErasureFaultTests.holders(of: "Leo Lopez", under: cli.directory).isEmpty)
        #expect(FileManager.default.fileExists(atPath: cli.directory + "/other.jsonl.tmp-1"))
        #expect(cli.run(["verify"]).status == 0)
    }

    // MARK: 10. A snapshot that cannot be stat'ed fails the erasure before its commit point

    @Test(arguments: ["stat", "remove"])
    func anErasureThatCannotRemoveTheSnapshotChangesNothing(_ operation: String) {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.runAll(["log-interaction --as u-leo --school s-ucla --type email --direction inbound --subject 'Leo secret'"])
        _ = cli.run(["interactions", "--as", "u-pat"], environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "0"])
        let snapshot = cli.logPath + ".snapshot"
        #expect(FileManager.default.fileExists(atPath: snapshot))
        let before = cli.logBytes
        let fs = PathFaultFileSystem { op, path in op == operation && path == snapshot }
        let erased = cli.run(["erase", "--as", "u-pat", "--member", "u-leo"], fileSystem: fs)
        #expect(erased.status == 1, "\(erased)")
        #expect(cli.logBytes == before)
        // Erasing again with a working file system leaves the member nowhere.
        #expect(cli.run(["erase", "--as", "u-pat", "--member", "u-leo"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: snapshot))
        #expect(ErasureFaultTests.holders(of: "Leo secret", under: cli.directory).isEmpty)
    }

    // MARK: 12, 20, 22. Erasure takes the member's malformed lines, keeps `at` as written, keeps broken links broken

    /// Appends a line to the log: `fields` then `prev` (the previous line's hash unless given).
    static func appendRaw(_ cli: CLIHarness, _ fields: String, prev: String? = nil) {
        let last = cli.logText.split(separator: "\n").last.map(String.init) ?? ""
        let line = "{" + fields + #","prev":""# + (prev ?? SHA256.hex(Array(last.utf8))) + #""}"#
        FileManager.default.createFile(atPath: cli.logPath, contents: Data((cli.logText + line + "\n").utf8))
    }

    @Test func erasureTakesMalformedLinesKeepsAtTextAndKeepsBrokenLinksBroken() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        let env = #""actor":"u-leo","family":"f-u-pat""#
        Self.appendRaw(cli, #""seq":6,"id":"x1","type":"SchoolAdded","at":"2026-01-01T00:00:00Z",\#(env),"data":"Leo secret note""#)
        Self.appendRaw(cli, #""seq":7,"id":"x2","type":"FutureThing","at":"2026-01-01T01:00:00+01:00",\#(env),"data":{"t":"Leo future secret"}"#)
        Self.appendRaw(cli, #""seq":8,"id":"x3","type":"SchoolAdded","at":"2026-01-01T00:00:00.123456Z",\#(env),"data":{"schoolId":"s-leo","name":"Leo school"}"#,
                       prev: String(repeating: "0", count: 64))
        Self.appendRaw(cli, #""seq":9,"id":"x4","type":"SchoolAdded","at":"2026-01-02T00:00:00Z","actor":"u-pat","family":"f-u-pat","data":{"schoolId":"s-pat","name":"Pat school"}"#)
        let before = cli.run(["verify", "--json"]).stdout
        #expect(before.contains(#"{"line":8,"message":"prev does not match line 7"}"#), "\(before)")
        let oldHead = SHA256.hex(Array((cli.logText.split(separator: "\n").last ?? "").utf8))
        let erased = cli.run(["erase", "--as", "u-pat", "--member", "u-leo"])
        #expect(erased.status == 0, "\(erased)")
        // Nothing of Leo's is left, malformed lines included.
        #expect(!cli.logText.contains("Leo"), "\(cli.logText)")
        // Each record keeps its line's `at` text exactly.
        for (id, at) in [("x1", "2026-01-01T00:00:00Z"), ("x2", "2026-01-01T01:00:00+01:00"), ("x3", "2026-01-01T00:00:00.123456Z")] {
            #expect(cli.logText.contains(#""id":"\#(id)","type":"Erased","at":"\#(at)","actor":"-""#), "\(id)")
        }
        // The broken link is still broken, the old head is still proven.
        let after = cli.run(["verify", "--json", "--expect-head", oldHead]).stdout
        #expect(after.contains(#"{"line":8,"message":"prev does not match line 7"}"#), "\(after)")
        #expect(after.contains(#""proven":true"#), "\(after)")
    }

    // MARK: 11, 21. A second erasure's `was` is the hash of the bytes as they stand; verify lists erased seqs

    @Test func aHeadKeptBetweenErasuresIsProvenWhenTheSecondChangesNothingBeforeTheFirst() throws {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.runAll(["log-interaction --as u-leo --school s-ucla --type email --direction inbound --subject 'Leo note'"])
        func head() -> String { SHA256.hex(Array((cli.logText.split(separator: "\n").last ?? "").utf8)) }
        let first = head()
        #expect(cli.run(["erase", "--as", "u-pat", "--member", "u-leo"]).stdout.contains("still verifies"))
        cli.runAll(["add-member --as u-pat --user u-ann --name 'Ann Lopez' --role player",
                    "log-interaction --as u-ann --school s-ucla --type dm --direction outbound --subject 'Ann note'",
                    "add-school --as u-pat --name Yale --school s-yale"])
        // What the erasure must record for Ann's lines: their bytes as they stand now.
        let annLines = cli.logText.split(separator: "\n").filter { $0.contains(#""actor":"u-ann""#) || $0.contains(#""userId":"u-ann""#) }
        let expectedWas = Set(annLines.map { SHA256.hex(Array($0.utf8)) })
        let second = head()
        let erased = cli.run(["erase", "--as", "u-pat", "--member", "u-ann"])
        #expect(erased.stdout.contains("still verifies: compass verify --expect-head \(second)"), "\(erased.stdout)")
        let was = Set(cli.logText.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: #""was":""#) else { return nil }
            return String(line[range.upperBound...].prefix(64))
        })
        #expect(expectedWas.isSubset(of: was), "the was of Ann's lines is not the hash of their bytes as they stood")
        for kept in [first, second] {
            let verified = cli.run(["verify", "--expect-head", kept])
            #expect(verified.status == 0, "\(kept): \(verified.stdout)")
        }
        // verify says which seqs each erasure erased.
        let json = cli.run(["verify", "--json"]).stdout
        #expect(json.contains(#""erasedSeqs":[3,6]"#) && json.contains(#""erasedSeqs":[8,9]"#), "\(json)")
        // A third erasure that takes lines from before the first: its own old head cannot be
        // proven and it says so; the head from before the first erasure still is.
        let third = head()
        let maya = cli.run(["erase", "--as", "u-pat", "--member", "u-maya"])
        #expect(maya.status == 0 && maya.stdout.contains("cannot be proven"), "\(maya.stdout)")
        #expect(cli.run(["verify", "--expect-head", third]).status == 1)
        #expect(cli.run(["verify", "--expect-head", first]).status == 0)
    }
}
