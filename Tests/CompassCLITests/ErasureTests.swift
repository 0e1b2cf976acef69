import Foundation
import Testing
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore
import CompassTestSupport

/// SPEC §5 end to end: `compass erase` forgets a member for good, the family's remaining
/// views are those of a log that never had the erased lines, and `verify --expect-head`
/// proves the old head and nothing else.
@Suite struct ErasureTests {
    /// Strings only the erased athlete wrote, or that live only in lines the erasure takes:
    /// none may be left anywhere in the log's folder.
    static let kidStrings = ["Xyzzyname", "Qwertyuni", "Kidcoachlast", "Plughsubject", "Frobcontent", "KIDBYTES-unique",
                             "kidfile-secret", "Wibblesub", "Graultnotes", "Garplytitle", "Waldofile", "Fredtorn"]

    /// A family whose athlete `u-kid` wrote every kind of personal data, with a sibling whose
    /// data stays, a torn fragment of the athlete's in `LOG.torn` and a snapshot.
    static func family() -> CLIHarness {
        let cli = CLIHarness()
        cli.write("kidfile-secret.txt", "KIDBYTES-unique: the athlete's own file")
        cli.write("sib-file.txt", "SIBBYTES: the sibling's file")
        cli.runAll([
            "add-member --user u-pat --name 'Pat Parent' --role parent --family fam-z",
            "add-member --as u-pat --user u-kid --name 'Kid Xyzzyname' --role player",
            "add-member --as u-pat --user u-sib --name 'Sib Sibling' --role player",
            "add-school --as u-pat --name UCLA --school s-ucla --status interested",
            "add-school --as u-kid --name 'Kidschool Qwertyuni' --school s-kid",
            "add-coach --as u-pat --school s-kid --first Carl --last Kidcoachlast --role head",
            "log-interaction --as u-kid --school s-ucla --type email --direction outbound --subject 'Re Plughsubject' --content 'Body Frobcontent' --attach \(cli.directory)/kidfile-secret.txt",
            "log-interaction --as u-sib --school s-ucla --type email --direction inbound --subject 'Sib camp' --attach \(cli.directory)/sib-file.txt",
            "log-interaction --as u-sib --school s-kid --type phone_call --direction outbound --subject 'Call Wibblesub'",
            "change-status --as u-kid --school s-ucla --status contacted --notes 'Notes Graultnotes'",
            "upload-document --as u-kid --title 'Transcript Garplytitle' --doc-type transcript --file \(cli.directory)/kidfile-secret.txt",
            "add-member --user u-other --name 'Other Family' --role parent --family fam-other",
        ])
        // The document's file name, as recorded.
        cli.runAll(["upload-document --as u-kid --title 'Reel' --doc-type video --document d-reel"])
        var bytes = cli.logBytes
        bytes += Array(#"{"seq":99,"id":"torn-1","type":"SchoolAdded","at":"2026-03-01T12:00:00.000Z","actor":"u-kid","family":"fam-z","data":{"schoolId":"s-t","name":"Torn Fredtorn"#.utf8)
        FileManager.default.createFile(atPath: cli.logPath, contents: Data(bytes))
        cli.runAll(["add-school --as u-sib --name Stanford --school s-stan"])  // moves the torn fragment aside
        return cli
    }

    /// Every file under `folder`, with its bytes.
    static func files(under folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = folder + "/" + name
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                out[name] = FileManager.default.contents(atPath: path)
            }
        }
        return out
    }

    @Test func erasingAMemberLeavesNoneOfTheirStringsInTheFolder() throws {
        let cli = Self.family()
        // The document's file name goes in through the upload's `--file`.
        cli.write("Waldofile.pdf", "%PDF")
        cli.runAll(["upload-document --as u-kid --title 'Scan' --doc-type transcript --file \(cli.directory)/Waldofile.pdf"])
        _ = cli.run(["interactions", "--as", "u-pat"], environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "0"])
        let before = Self.files(under: cli.directory)
        #expect(before.keys.contains("events.jsonl.snapshot"))
        #expect(before.keys.contains("events.jsonl.torn"))
        for string in Self.kidStrings {
            #expect(before.values.contains { $0.range(of: Data(string.utf8)) != nil }, "the fixture lacks \(string)")
        }
        // The inputs the test wrote are not the log's: only the log's own files are searched.
        for input in ["kidfile-secret.txt", "sib-file.txt", "Waldofile.pdf"] { try FileManager.default.removeItem(atPath: cli.directory + "/" + input) }

        let result = cli.run("erase --as u-pat --member u-kid")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("attachments removed: 2\n"), "\(result.stdout)")  // the attachment and the document's file
        #expect(result.stdout.contains("torn fragments removed: 1\n"))
        #expect(result.stdout.contains("snapshot removed\n"))
        let after = Self.files(under: cli.directory)
        for string in Self.kidStrings {
            let holders = after.filter { $0.value.range(of: Data(string.utf8)) != nil }.keys.sorted()
            #expect(holders.isEmpty, "\(string) is still in \(holders)")
        }
        // The sibling's attachment stays, and nothing temporary is left.
        #expect(after.values.contains { $0.range(of: Data("SIBBYTES".utf8)) != nil })
        #expect(!after.keys.contains { $0.contains(".tmp-") || $0.hasSuffix(".erasing") })
        #expect(cli.run("verify").status == 0)
    }

    /// The personal texts of a line: names, subjects, contents, notes, titles, file names.
    static func texts(_ line: Substring) -> Set<String> {
        guard case .object(let object)? = JSONParser.parse(Array(line.utf8)), case .object(let data)? = object["data"] else { return [] }
        var out: Set<String> = []
        func collect(_ value: JSONValue, key: String) {
            switch value {
            case .string(let text) where ["fullName", "name", "subject", "content", "notes", "title", "fileName", "firstName",
                                          "lastName", "otherCoachName"].contains(key):
                out.insert(text)
            case .array(let items): for item in items { collect(item, key: key) }
            case .object(let fields): for field in fields.members { collect(field.value, key: field.key) }
            default: break
            }
        }
        for field in data.members { collect(field.value, key: field.key) }
        return out
    }

    @Test func inAGeneratedLogNoTextOnlyTheErasedLinesHadIsLeftAnywhere() throws {
        let cli = CLIHarness()
        let generated = cli.run("generate --families 3 --events 600 --seed 7")
        cli.write("events.jsonl", generated.stdout)
        let state = try #require(try? LogReader.replay(path: cli.logPath, fs: POSIXFileSystem())).state
        // An athlete of the first family (athletes add no members).
        let family = try #require(state.families.values.sorted { $0.id < $1.id }.first)
        let athlete = try #require(family.memberIds.first { state.members[$0]?.role == .player })
        let parent = try #require(family.memberIds.first { state.members[$0]?.role == .parent })
        let old = cli.logText.split(separator: "\n")
        let result = cli.run(["erase", "--as", parent, "--member", athlete])
        #expect(result.status == 0, "\(result.stderr)")
        let new = cli.logText.split(separator: "\n")
        var erasedTexts: Set<String> = [], keptTexts: Set<String> = []
        for (line, now) in zip(old, new) {
            if now.contains(#""type":"Erased""#) { erasedTexts.formUnion(Self.texts(line)) } else { keptTexts.formUnion(Self.texts(line)) }
        }
        // Texts no kept line has, not even inside a longer text (generated texts repeat).
        let onlyErased = erasedTexts.subtracting(keptTexts).filter { text in !keptTexts.contains { $0.contains(text) } }
        #expect(onlyErased.count > 20, "too few texts to search: \(onlyErased.count)")
        let folder = Self.files(under: cli.directory)
        for text in onlyErased {
            #expect(!folder.values.contains { $0.range(of: Data(text.utf8)) != nil }, "\(text) is still in the folder")
        }
        #expect(cli.run("verify").status == 0)
    }

    @Test func theRemainingViewsAreThoseOfALogThatNeverHadTheErasedLines() throws {
        let cli = Self.family()
        let old = cli.logText
        #expect(cli.run("erase --as u-kid --member u-kid").status == 0)
        let erased = cli.logText.split(separator: "\n").map(String.init)
        #expect(erased.last?.contains(#""type":"ErasureRecorded""#) == true)
        // The same log without the erased lines (and without the record, which shows nothing).
        let never = CLIHarness()
        let kept = zip(old.split(separator: "\n"), erased).filter { !$0.1.contains(#""type":"Erased""#) }.map { $0.0 + "\n" }
        never.write("events.jsonl", kept.joined())
        for viewer in ["u-pat", "u-sib", "u-other"] {
            for command in ["interactions", "activity", "schools", "coaches", "members", "documents", "notifications", "analytics"] {
                let words = [command, "--as", viewer, "--json", "--now", "2026-04-01T00:00:00Z"]
                let a = cli.run(words), b = never.run(words)
                #expect(a.status == 0 && a.stdout == b.stdout, "\(command) as \(viewer) differs")
            }
        }
        #expect(cli.run("members --as u-kid").stderr == "error: Unknown user u-kid\n")
        // The audit shows an erased line with its seq and time only.
        let audit = cli.run("audit --as u-pat --json").stdout.split(separator: "\n")
        let erasedEntry = try #require(audit.first { $0.contains(#""type":"Erased""#) })
        #expect(erasedEntry.contains(#""summary":"erased""#) && erasedEntry.contains(#""actorName":null"#))
        #expect(!cli.run("audit --as u-pat").stdout.contains("Xyzzyname"))
        let replay = cli.run("replay --json")
        #expect(replay.stdout.contains(#""erased":"#) && !replay.stdout.contains(#""erased":0"#))
    }

    /// Broken logs (``LogBreaker``), a family's or a member's erasure: every line of the
    /// family's stream that can be read as theirs goes, no other family's line changes by a byte
    /// and no other family's view changes; a refused erasure changes nothing (but a torn tail,
    /// moved aside as every writer does). A soak of such logs through the binary found only the
    /// documented gap: a line whose family is broken is in no stream of the family and is kept.
    @Test func anErasureOfABrokenLogTakesEveryReadableLineOfItsOwnAndNothingElse() throws {
        var erased = 0, changed = 0, outside = 0
        for seed in 1...UInt64(8) {
            var rng = SplitMix64(seed: 0xE2A5_0000 + seed)
            let families = 2 + rng.below(2)
            // Some lines' family broken first, of the member and of another family (in no stream).
            var text = String(decoding: HistoryGenerator(families: families, events: 300 + rng.below(500), seed: seed).bytes(), as: UTF8.self)
            var brokenFamilies = 0
            text = text.split(separator: "\n").map { line -> String in
                guard line.contains(#""actor":"u-1-2""#) || line.contains(#""actor":"u-2-1""#), rng.below(8) == 0 else { return String(line) }
                brokenFamilies += 1
                return line.replacingOccurrences(of: #""family":"fam-"#, with: [#""fam{ly":"fam-"#, #""family":"f{m-"#, #""famil":"fam-"#][rng.below(3)])
            }.joined(separator: "\n") + "\n"
            #expect(brokenFamilies > 2)
            let log = LogBreaker.broken(Array(text.utf8), rng: &rng)
            let cli = CLIHarness()
            FileManager.default.createFile(atPath: cli.logPath, contents: Data(log))
            let others = (2...families).flatMap { ["u-\($0)-1", "u-\($0)-2"] }
            func views() -> [String] { others.map { cli.run(["interactions", "--json", "--as", $0]).stdout } }
            let before = views()
            let wholeFamily = seed % 2 == 0
            let result = cli.run(wholeFamily ? ["erase", "--as", "u-1-1", "--family"] : ["erase", "--as", "u-1-1", "--member", "u-1-2"])
            let after = try Data(contentsOf: URL(fileURLWithPath: cli.logPath))
            guard result.status == 0 else {
                let complete = log.last == 0x0A ? log : Array(log[..<((log.lastIndex(of: 0x0A) ?? -1) + 1)])
                #expect(Array(after) == complete, "seed \(seed): \(result.stderr)")
                continue
            }
            erased += 1
            #expect(views() == before, "seed \(seed): another family's view changed")
            // The users the erasure covers: the member, or every member of the family.
            var replayer = Replayer(problems: .summary)
            replayer.consume(bytes: log)
            let members = Set(replayer.state.members.filter { $0.value.family == "fam-1" }.map(\.key))
            let users = wholeFamily ? members : ["u-1-2"]
            let oldLines = log.split(separator: 0x0A, omittingEmptySubsequences: false)
            let newLines = Array(after).split(separator: 0x0A, omittingEmptySubsequences: false)
            for (index, new) in newLines.enumerated() {
                let line = (try? JSONSerialization.jsonObject(with: Data(new))) as? [String: Any]
                let type = line?["type"] as? String, family = line?["family"] as? String
                let inNoStream = !(family.map(Identifier.isValid) ?? false)
                // A line that changed is its family's: erased, re-sealed with a new `prev`, or the
                // record appended where the old log ended; or a line of no stream, erased.
                if index < oldLines.count, Array(oldLines[index]) != Array(new) {
                    changed += 1
                    let oldLine = (try? JSONSerialization.jsonObject(with: Data(oldLines[index]))) as? [String: Any]
                    let outsideRecord = type == "Erased" && line?.count == 3 && line?["actor"] as? String == "-"
                    if outsideRecord { outside += 1 }
                    // A line of no stream goes by its actor, the member it adds, or (its actor of the
                    // family) an entity it names.
                    let oldActor = oldLine?["actor"] as? String ?? "", joined = (oldLine?["data"] as? [String: Any])?["userId"] as? String
                    // A line the parser refuses is read for whose it is by erasure's tolerant scan.
                    let tolerant = oldLine == nil ? Array(oldLines[index]).withUnsafeBufferPointer { TolerantEnvelope($0) } : nil
                    let tolerantlyTheirs = tolerant.map { line in
                        line.values("actor").contains(where: users.contains) || (line.data["userId"] ?? []).contains(where: users.contains)
                            || (wholeFamily && line.values("family").contains("fam-1"))
                            || line.values("actor").contains(where: members.contains)  // naming an entity an erased line created
                    } ?? false
                    #expect(family == "fam-1" || outsideRecord && (members.contains(oldActor) || joined.map(users.contains) == true || tolerantlyTheirs),
                            "seed \(seed): another family's line \(index + 1) changed")
                }
                // An erasure takes lines of the family's own stream (SPEC §1.1, §5) and lines of no
                // stream by its users; a line of another family's stream is kept, whoever it names.
                guard type != "Erased", type != "ErasureRecorded", let line else { continue }
                let actor = line["actor"] as? String
                if family == "fam-1" {
                    #expect(!wholeFamily && actor != "u-1-2", "seed \(seed): a line erased is left at \(index + 1)")
                } else if inNoStream, let actor {
                    #expect(!users.contains(actor), "seed \(seed): a line of no stream by \(actor) is left at \(index + 1)")
                }
            }
        }
        #expect(erased >= 4 && changed > erased * 20 && outside > erased)
    }

    /// A complete line whose `family` is broken is in no stream (SPEC §1.1); it goes with its
    /// actor, or the member it adds, or — when its actor is of the family — an entity it names,
    /// and leaves an `Erased` record in no stream that keeps only its hash. Lines of no stream
    /// that are someone else's, lines of another family's stream, and lines that say nobody's
    /// stay byte for byte; the old head is still proven.
    @Test func aLineInNoStreamGoesWithItsActorAndLeavesARecordInNoStream() throws {
        let cli = Self.family()
        let at = #""at":"2026-04-01T10:00:00Z""#
        let added: [(line: String, erased: Bool)] = [
            (#"{"seq":40,"id":"o-1","type":"SchoolAdded",\#(at),"actor":"u-kid","fam{ly":"fam-z","data":{"schoolId":"s-o1","name":"Outkidschool"}}"#, true),
            (#"{"seq":41,"id":"o-2","type":"InteractionLogged",\#(at),"actor":"u-kid","family":"fa{-z","data":{"schoolId":"s-ucla","type":"email","direction":"outbound","subject":"Outkidsubject"}}"#, true),
            (#"{"id":"o-3","type":"MemberJoined",\#(at),"actor":"u-pat","data":{"userId":"u-kid","fullName":"Kid Outjoinname","role":"player"}}"#, true),
            (#"{"id":"o-4","type":"InteractionLogged","actor":"u-sib","family":null,"data":{"schoolId":"s-kid","subject":"Sibaboutkidschool"}}"#, true),
            (#"{"id":"o-5","type":"SchoolAdded","actor":"u-sib","family":"f{m-z","data":{"schoolId":"s-sib2","name":"Sibkeepname"}}"#, false),
            (#"{"id":"o-6","type":"SchoolAdded","actor":"u-other","data":{"schoolId":"s-o6","name":"Otherkeepname"}}"#, false),
            (#"{"seq":9,"id":"o-7","type":"SchoolAdded",\#(at),"actor":"u-kid","family":"fam-other","data":{"schoolId":"s-o7","name":"Otherstreamname"}}"#, false),
            (#"{"type":"SchoolAdded","data":{"schoolId":"s-o8","name":"Nobodysname"}}"#, false),
            (#"["u-kid","Arraykeepname"]"#, false),
        ]
        let start = cli.logText.split(separator: "\n").count
        cli.appendToLog(added.map(\.line).joined(separator: "\n") + "\n")
        let verified = cli.run("verify --json").stdout
        let oldHead = try #require(verified.components(separatedBy: #"{"family":"fam-z","seq":"#).dropFirst().first?
            .components(separatedBy: #""head":""#).dropFirst().first?.prefix(64)).description
        let erasedBefore = try #require(Self.number("erased", in: cli.run("replay --json").stdout))

        let result = cli.run("erase --as u-pat --member u-kid --json")
        #expect(result.status == 0, "\(result)")
        let lines = cli.logText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (offset, item) in added.enumerated() {
            let line = lines[start + offset]
            if item.erased {
                let was = SHA256.hex(Array(item.line.utf8))
                #expect(line == #"{"type":"Erased","actor":"-","data":{"was":"\#(was)"}}"#, "line \(start + offset + 1): \(line)")
            } else {
                #expect(line == item.line, "line \(start + offset + 1) changed")
            }
        }
        for gone in ["Outkidschool", "Outkidsubject", "Outjoinname", "Sibaboutkidschool"] { #expect(!cli.logText.contains(gone), "\(gone)") }
        let outside = added.indices.filter { added[$0].erased }.map { String(start + $0 + 1) }
        #expect(result.stdout.contains(#""outsideStreams":[\#(outside.joined(separator: ","))]"#), "\(result.stdout)")
        #expect(result.stdout.contains(#""unreadableLinesKept":[\#(start + 8),\#(start + 9)]"#), "\(result.stdout)")
        // `ErasureRecorded` counts the stream's records only; replay counts every record.
        let erased = try #require(Self.number("erased", in: result.stdout))
        #expect(cli.logText.contains(#""erased":\#(erased - 4),"scope":"member""#))
        let replay = cli.run("replay --json").stdout
        #expect(Self.number("erased", in: replay) == erasedBefore + erased)
        for line in outside { #expect(!replay.contains(#"{"line":\#(line),"#), "line \(line) is a problem: \(replay)") }
        let after = cli.run(["verify", "--json", "--expect-head", oldHead]).stdout
        #expect(after.contains(#""proven":true"#), "\(after)")
        // The sibling's own line in no stream is theirs: their erasure would take it, and only it.
        let sibling = cli.run("erase --as u-pat --member u-sib --dry-run")
        #expect(sibling.stdout.contains("erased in no family's stream (their family field is broken; no head covers them): lines \(start + 5)\n"),
                "\(sibling.stdout)")
    }

    /// Lines the JSON parser refuses but whose `actor` and `family` can be read: a duplicate
    /// key at the top level or inside `data`, a lone `\ud800` escape, nesting 200 and 100,000
    /// deep. Each is the member's (SPEC §5, "readable or not"): `erase --member` takes those
    /// whose actor is the member, `erase --family` every one naming the family, each leaving a
    /// record in no stream that keeps only its hash; someone else's stays byte for byte.
    static func parserRefusedLines(actor: String, family: String, secret: String) -> [String] {
        let at = #""at":"2026-04-01T10:00:00Z""#
        let envelope = #""type":"SchoolAdded",\#(at),"actor":"\#(actor)","family":"\#(family)""#
        return [
            #"{"seq":50,"id":"m-1",\#(envelope),"data":{"schoolId":"s-m1","name":"\#(secret)a","name":"x"}}"#,
            #"{"seq":51,"id":"m-2",\#(envelope),"id":"m-2b","data":{"schoolId":"s-m2","name":"\#(secret)b"}}"#,
            #"{"seq":52,"id":"m-3",\#(envelope),"data":{"schoolId":"s-m3","name":"\#(secret)c \ud800"}}"#,
            #"{"seq":53,"id":"m-4",\#(envelope),"data":{"schoolId":"s-m4","name":"\#(secret)d","deep":\#(String(repeating: "[", count: 200))\#(String(repeating: "]", count: 200))}}"#,
            #"{"seq":54,"id":"m-5",\#(envelope),"data":{"schoolId":"s-m5","name":"\#(secret)e","deep":\#(String(repeating: "[", count: 100_000))\#(String(repeating: "]", count: 100_000))}}"#,
            #"{"seq":55,"id":"m-6","type":"SchoolAdded","actor":"\#(actor)","actor":"u-else","family":"\#(family)","data":{"name":"\#(secret)f"}}"#,
        ]
    }

    @Test(arguments: ["--member u-kid", "--family"])
    func aLineTheParserRefusesStillGoesWithItsActorOrFamily(target: String) throws {
        let cli = Self.family()
        let theirs = Self.parserRefusedLines(actor: "u-kid", family: "fam-z", secret: "Kidmalformed")
        let others = Self.parserRefusedLines(actor: "u-other", family: "fam-other", secret: "Othermalformed")
        let start = cli.logText.split(separator: "\n").count
        cli.appendToLog((theirs + others).joined(separator: "\n") + "\n")
        let before = cli.run("replay --json").stdout
        for offset in 0..<(theirs.count + others.count) {
            #expect(before.contains(#"{"line":\#(start + offset + 1),"#), "line \(start + offset + 1) should be a problem before")
        }
        let result = cli.run("erase --as u-pat \(target) --json")
        #expect(result.status == 0, "\(result)")
        #expect(!cli.logText.contains("Kidmalformed"), "the member's malformed lines are left")
        let lines = cli.logText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (offset, line) in theirs.enumerated() {
            let was = SHA256.hex(Array(line.utf8))
            #expect(lines[start + offset] == #"{"type":"Erased","actor":"-","data":{"was":"\#(was)"}}"#, "line \(start + offset + 1)")
        }
        for (offset, line) in others.enumerated() {
            #expect(lines[start + theirs.count + offset] == line, "another family's malformed line \(start + theirs.count + offset + 1) changed")
        }
        let outside = (0..<theirs.count).map { String(start + $0 + 1) }.joined(separator: ",")
        #expect(result.stdout.contains(#""outsideStreams":[\#(outside)]"#), "\(result.stdout)")
        let replay = cli.run("replay --json").stdout
        for offset in 0..<theirs.count { #expect(!replay.contains(#"{"line":\#(start + offset + 1),"#), "a record is a problem") }
    }

    /// The issue's repro: a parent, athletes A and B, a school; B logs, A logs; B is erased; A
    /// logs again; the head is kept; the family is erased. `erase` and `verify` say the same of
    /// every head (one rule), each erasure's `erasedSeqs` is exactly the seqs it replaced, and
    /// the first erasure's printed new head, re-sealed by the second, is said lost by `erase`
    /// and refused by `verify`.
    @Test func eraseAndVerifyAgreeOnWhatIsProvableAcrossInterleavedErasures() throws {
        let cli = CLIHarness()
        cli.runAll([
            "add-member --user u-p --name Parent --role parent --family fam-i",
            "add-member --as u-p --user u-a --name Athlete --role player",
            "add-member --as u-p --user u-b --name Bee --role player",
            "add-school --as u-p --name UCLA --school s-ucla",
            "log-interaction --as u-b --school s-ucla --type email --direction outbound --subject Bsub",
            "log-interaction --as u-a --school s-ucla --type email --direction outbound --subject Asub",
        ])
        let first = cli.run("erase --as u-p --member u-b --json")
        #expect(first.status == 0 && first.stdout.contains(#""oldHeadProvable":true"#) && first.stdout.contains(#""headsLost":[]"#),
                "\(first.stdout)")
        let firstNewHead = try #require(first.stdout.components(separatedBy: #""newHead":""#).dropFirst().first?.prefix(64)).description
        cli.runAll(["log-interaction --as u-a --school s-ucla --type email --direction outbound --subject A2"])
        let kept = SHA256.hex(Array(try #require(cli.logText.split(separator: "\n").last).utf8))
        let second = cli.run("erase --as u-p --family")
        #expect(second.status == 0)
        #expect(second.stdout.contains("still verifies: compass verify --expect-head \(kept)"), "\(second.stdout)")
        // Lost: the first erasure's own new head (seq 7); not the kept one, whose line (8) is erased.
        #expect(second.stdout.contains("Heads kept at seq 7 cannot be proven any more"), "\(second.stdout)")
        // verify agrees on every head erase spoke of.
        #expect(cli.run(["verify", "--expect-head", kept]).status == 0)
        #expect(cli.run(["verify", "--expect-head", firstNewHead]).status != 0, "a re-sealed head was proven")
        // Each erasure's seqs, exactly: B's MemberJoined (3) and interaction (5); then the rest.
        let verify = cli.run("verify --json").stdout
        #expect(verify.contains(#""erasedSeqs":[3,5],"seqsListed":true,"proven":true"#), "\(verify)")
        #expect(verify.contains(#""erasedSeqs":[1,2,4,6,8],"seqsListed":true,"proven":true"#), "\(verify)")
    }

    /// A record written before records listed their seqs is still read, counted in file
    /// order, and `verify` says so; a list of the wrong shape is a problem.
    @Test func anOlderRecordWithoutItsSeqsIsCountedInFileOrderAndSaidSo() throws {
        let cli = CLIHarness()
        cli.runAll([
            "add-member --user u-p --name Parent --role parent --family fam-o",
            "add-member --as u-p --user u-b --name Bee --role player",
            "add-school --as u-b --name UCLA --school s-ucla",
        ])
        #expect(cli.run("erase --as u-p --member u-b").status == 0)
        // Strip the list from the record and re-seal nothing after it (it is the last line): the
        // chain is intact, as an older build wrote it.
        var lines = cli.logText.split(separator: "\n").map(String.init)
        lines[lines.count - 1] = lines[lines.count - 1].replacingOccurrences(of: #","erasedSeqs":[2,3]"#, with: "")
        cli.write("events.jsonl", lines.joined(separator: "\n") + "\n")
        let verify = cli.run("verify")
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout.contains("counted in file order: the record does not list them"), "\(verify.stdout)")
        for bad in [#"[3,2]"#, #"[2]"#, #"[0,3]"#, #"[2,"3"]"#] {
            var broken = lines
            broken[broken.count - 1] = broken[broken.count - 1].replacingOccurrences(of: #""scope":"member""#, with: #""scope":"member","erasedSeqs":\#(bad)"#)
            cli.write("events.jsonl", broken.joined(separator: "\n") + "\n")
            #expect(cli.run("replay").stdout.contains("field data.erasedSeqs must be"), "\(bad)")
        }
    }

    /// Replay skips the record of a line in no stream only in its exact shape; anything else
    /// without a family is a problem, and no writer but `erase` may append it.
    @Test func aRecordInNoStreamIsSkippedOnlyInItsExactShapeAndNeverImported() {
        let cli = Self.family()
        let was = SHA256.hex(Array("x".utf8))
        let exact = #"{"type":"Erased","actor":"-","data":{"was":"\#(was)"}}"#
        let nearMisses = [
            #"{"type":"Erased","actor":"u-kid","data":{"was":"\#(was)"}}"#,
            #"{"type":"Erased","actor":"-","data":{"was":"\#(was.uppercased())"}}"#,
            #"{"type":"Erased","actor":"-","data":{"was":"\#(was)","name":"x"}}"#,
            #"{"type":"Erased","actor":"-","data":{"was":"\#(was)"},"prev":"\#(was)"}"#,
            #"{"type":"Erased","type":"Erased","actor":"-","data":{"was":"\#(was)"}}"#,
            #"{"type":"Erased","actor":"-","family":"fa{-z","data":{"was":"\#(was)"}}"#,
        ]
        let before = cli.run("replay --json").stdout
        let start = cli.logText.split(separator: "\n").count
        cli.appendToLog(([exact] + nearMisses).joined(separator: "\n") + "\n")
        let replay = cli.run("replay --json").stdout
        #expect(Self.number("erased", in: replay) == Self.number("erased", in: before)! + 1)
        #expect(!replay.contains(#"{"line":\#(start + 1),"#), "\(replay)")
        for offset in nearMisses.indices { #expect(replay.contains(#"{"line":\#(start + 2 + offset),"#), "\(offset): \(replay)") }
        // A viewer's audit never shows it; the views are those of the log without it.
        #expect(!cli.run("audit --as u-pat --json").stdout.contains(#""line":\#(start + 1),"#))
        cli.write("forged.jsonl", exact + "\n")
        let imported = cli.run("import forged.jsonl")
        #expect(imported.status == 1 && imported.stderr.contains("line 1:"), "\(imported)")
    }

    /// The number after `"key":` in a JSON text.
    static func number(_ key: String, in json: String) -> Int? {
        json.components(separatedBy: "\"\(key)\":").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
    }

    @Test func verifyProvesTheOldHeadThroughErasuresAndNotAfterTampering() throws {
        let cli = Self.family()
        let verified = cli.run("verify --json").stdout
        let head = try #require(verified.components(separatedBy: #"{"family":"fam-z","seq":"#).dropFirst().first?
            .components(separatedBy: #""head":""#).dropFirst().first?.prefix(64))
        let oldHead = String(head)
        #expect(cli.run("erase --as u-pat --member u-kid").status == 0)
        cli.runAll(["add-school --as u-sib --name Yale --school s-yale"])
        #expect(cli.run("erase --as u-sib --member u-sib").status == 0)
        let verify = cli.run(["verify", "--expect-head", oldHead])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("expected head: proven through the erasure at line"))
        #expect(verify.stdout.components(separatedBy: "erasure at line").count - 1 == 3)  // two erasures and the proof
        #expect(cli.run(["verify", "--expect-head", String(repeating: "ab", count: 32)]).status == 1)
        // One byte changed anywhere in what the old head covers: the proof fails.
        let clean = cli.logBytes
        for offset in stride(from: 5, to: clean.count / 2, by: 97) where clean[offset] != 0x0A {
            var tampered = clean
            tampered[offset] = tampered[offset] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
            FileManager.default.createFile(atPath: cli.logPath, contents: Data(tampered))
            #expect(cli.run(["verify", "--expect-head", oldHead]).status == 1, "a change at byte \(offset) still verifies")
        }
    }

    @Test func onlyEraseWritesErasureRecords() {
        let cli = Self.family()
        let before = cli.logBytes
        cli.write("forged.jsonl", [
            #"{"id":"f-1","type":"Erased","actor":"-","family":"fam-z","data":{"was":"\#(SHA256.emptyHex)"}}"#,
            #"{"id":"f-2","type":"ErasureRecorded","actor":"-","family":"fam-z","data":{"oldHead":"\#(SHA256.emptyHex)","oldLines":1,"erased":1,"scope":"member"}}"#,
        ].joined(separator: "\n") + "\n")
        let result = cli.run("import forged.jsonl")
        #expect(result.status == 1)
        #expect(result.stderr.contains("line 1: Erased lines are written only by compass erase"))
        #expect(result.stderr.contains("line 2: ErasureRecorded lines are written only by compass erase"))
        #expect(cli.logBytes == before)
    }

    @Test func aDryRunChangesNothingAndSaysWhatWouldGo() throws {
        let cli = Self.family()
        let before = Self.files(under: cli.directory)
        let result = cli.run("erase --as u-pat --member u-kid --dry-run --json")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(#"{"dryRun":true,"scope":"member","family":"fam-z","member":"u-kid","erased":"#))
        #expect(result.stdout.contains(#""attachments":1,"tornFragments":1,"#))
        #expect(Self.files(under: cli.directory) == before)
    }

    @Test func onlyTheMemberOrAParentMayEraseAndNobodyReachesAnotherFamily() {
        let cli = Self.family()
        let before = cli.logBytes
        #expect(cli.run("erase --as u-sib --member u-kid").stderr == "error: Only a parent or the member can erase a member's data\n")
        #expect(cli.run("erase --as u-sib --family").stderr == "error: Only a parent can erase the family's data\n")
        #expect(cli.run("erase --as u-pat --member u-other").stderr == "error: Unknown user u-other\n")
        #expect(cli.run("erase --as u-other --member u-kid").stderr == "error: Unknown user u-kid\n")
        let founder = cli.run("erase --as u-pat --member u-pat")
        #expect(founder.status == 1 && founder.stderr.contains("they added u-kid, u-sib to the family"))
        #expect(cli.run("erase --as u-pat").status == 2)
        #expect(cli.run("erase --as u-pat --family --member u-kid").status == 2)
        #expect(cli.logBytes == before)
        // A whole family goes; the other family stays as it was.
        let other = cli.run("members --as u-other --json").stdout
        #expect(cli.run("erase --as u-pat --family").status == 0)
        #expect(cli.run("members --as u-other --json").stdout == other)
        #expect(!cli.logText.contains("Pat Parent") && !cli.logText.contains("Sib Sibling"))
        #expect(cli.run("verify").status == 0)
    }
}
