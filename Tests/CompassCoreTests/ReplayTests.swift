import Testing
import Foundation
@testable import CompassCore

/// SPEC §2.2: every problem with its line, and the rest of the log still applied.
@Suite struct ReplayTests {
    /// A small valid sealed log from the generator, as lines without `\n`.
    static func lines(_ count: Int = 40, seed: UInt64 = 5) -> [String] {
        String(decoding: HistoryGenerator(families: 1, events: count, seed: seed).bytes(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    static func replay(_ lines: [String], tornTail: String? = nil, cut: ReplayCut = ReplayCut()) -> Replayer {
        var bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        if let tornTail { bytes += Array(tornTail.utf8) }
        var replayer = Replayer(cut: cut)
        replayer.consume(bytes: bytes)
        return replayer
    }

    /// Room made ahead for a large log's event ids changes nothing the replay gives, and
    /// neither does asking for it after lines were read (the states are equal).
    @Test func roomMadeAheadForEventIdsChangesNothing() {
        let bytes = HistoryGenerator(families: 3, events: 800, seed: 8).bytes()
        var plain = Replayer(), ahead = Replayer(), late = Replayer()
        plain.consume(bytes: bytes)
        ahead.reserveCapacity(forLogBytes: 700 * 50_000)
        ahead.consume(bytes: bytes)
        late.consume(bytes: Array(bytes.prefix(through: bytes.firstIndex(of: 0x0A)!)))
        late.reserveCapacity(forLogBytes: 700 * 50_000)
        late.consume(bytes: Array(bytes[(bytes.firstIndex(of: 0x0A)! + 1)...]))
        #expect(ahead.state == plain.state && late.state == plain.state)
        #expect(ahead.state.appliedCount == 800 && ahead.problems.isEmpty)
    }

    @Test func aValidGeneratedLogReplaysWithoutProblems() {
        let replayer = Self.replay(Self.lines(300))
        #expect(replayer.problems.isEmpty)
        #expect(replayer.state.appliedCount == 300)
        #expect(replayer.streams.version(of: "fam-1") == 300)
        #expect(replayer.sealedLines == 300)
    }

    @Test func malformedLineIsReportedAndTheRestStillReplays() {
        var lines = Self.lines()
        lines.insert("{not json", at: 10)
        let replayer = Self.replay(lines)
        #expect(replayer.problems.first == Problem(line: 11, message: "invalid JSON", kind: .unreadable))
        #expect(replayer.state.appliedCount == 40)
        #expect(replayer.linesRead == 41)
    }

    @Test func blankLineIsAProblem() {
        var lines = Self.lines()
        lines.insert("", at: 5)
        let replayer = Self.replay(lines)
        #expect(replayer.problems.contains(Problem(line: 6, message: "blank line", kind: .unreadable)))
        #expect(replayer.state.appliedCount == 40)
    }

    @Test func tornLastLineIsReportedAndNotApplied() {
        let lines = Self.lines()
        let replayer = Self.replay(Array(lines.dropLast()), tornTail: String(lines.last!.prefix(30)))
        #expect(replayer.problems == [Problem(line: 40, message: "torn last line", kind: .torn)])
        #expect(replayer.state.appliedCount == 39)
        #expect(replayer.linesRead == 40)
    }

    @Test func aWholeLastLineWithoutNewlineIsStillTorn() {
        let lines = Self.lines()
        let replayer = Self.replay(Array(lines.dropLast()), tornTail: lines.last!)
        #expect(replayer.problems == [Problem(line: 40, message: "torn last line", kind: .torn)])
    }

    @Test func duplicateEventIdIsSkipped() {
        var lines = Self.lines()
        lines.append(lines[3])
        let replayer = Self.replay(lines)
        let id = Self.field(lines[3], "id")
        #expect(replayer.problems.contains(Problem(line: 41, message: "duplicate event id \(id)", kind: .duplicate)))
        #expect(replayer.state.appliedCount == 40)
    }

    @Test func seqGapIsAProblemButTheEventIsApplied() {
        var lines = Self.lines()
        lines[20] = lines[20].replacingOccurrences(of: #"{"seq":21,"#, with: #"{"seq":25,"#)
        let replayer = Self.replay(lines)
        #expect(replayer.problems.contains(Problem(line: 21, message: "seq 25, expected 21", kind: .sequence)))
        #expect(replayer.problems.contains(Problem(line: 22, message: "seq 22, expected 26", kind: .sequence)))
        #expect(replayer.state.appliedCount == 40)
    }

    @Test func brokenPrevLinkNamesThePreviousLineAndStillApplies() {
        var lines = Self.lines()
        lines[9] = lines[9].replacingOccurrences(of: #""fam-1""#, with: #""fam-1" "#)  // edits bytes, same JSON
        let replayer = Self.replay(lines)
        #expect(replayer.problems == [Problem(line: 11, message: "prev does not match line 10", kind: .chain)])
        #expect(replayer.state.appliedCount == 40)
    }

    @Test func unknownTypeAndVersionAreSkippedWithAProblem() {
        var lines = Self.lines(10)
        lines.append(#"{"seq":11,"id":"e-new","type":"TeamFormed","at":"2026-01-01T00:00:00Z","actor":"u","family":"fam-1","data":{}}"#)
        lines.append(#"{"seq":12,"id":"e-v2","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u","family":"fam-1","data":{},"v":2}"#)
        let replayer = Self.replay(lines)
        // The hand-written lines carry no `prev` after a sealed prefix: a chain problem too (SPEC §1 v2).
        #expect(replayer.problems == [
            Problem(line: 11, message: "missing field prev", kind: .chain),
            Problem(line: 11, message: "unknown event type TeamFormed", kind: .unknownType),
            Problem(line: 12, message: "missing field prev", kind: .chain),
            Problem(line: 12, message: "unsupported version 2", kind: .unsupportedVersion),
        ])
    }

    @Test func ruleViolationsOnReplayGetTheRuleMessage() {
        var lines = Self.lines(10)
        lines.append(#"{"seq":11,"id":"e-x","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u-ghost","family":"fam-1","data":{"schoolId":"s-x","name":"X"}}"#)
        let replayer = Self.replay(lines)
        #expect(replayer.problems == [Problem(line: 11, message: "missing field prev", kind: .chain), Problem(line: 11, message: "Unknown user u-ghost", kind: .notFound)])
    }

    @Test func atSeqEndsTheFamilysStreamAfterItsSeqButNotAtUnreadableLines() {
        var lines = Self.lines()
        lines.insert("garbage", at: 5)
        let replayer = Self.replay(lines, cut: ReplayCut(atSeq: 10))
        #expect(replayer.streams.version(of: "fam-1") == 10)
        #expect(replayer.linesInCut == 11)  // 10 events and the garbage line
        #expect(replayer.linesRead == 41)  // every line is numbered as in the file
        #expect(replayer.state.appliedCount == 10)
    }

    /// SPEC §1.1: each family is its own stream; a line is checked against its own family's
    /// last line, and problems name the family's previous line.
    @Test func interleavedFamiliesChainAndCountOnTheirOwn() {
        func line(_ seq: Int, _ id: String, _ family: String, _ user: String, prev: String) -> String {
            #"{"seq":\#(seq),"id":"\#(id)","type":"MemberJoined","at":"2026-01-01T00:00:00Z","actor":"\#(user)","family":"\#(family)","data":{"userId":"\#(user)","fullName":"N","role":"parent"},"prev":"\#(prev)"}"#
        }
        let a1 = line(1, "e-1", "fam-a", "u-a", prev: SHA256.emptyHex)
        let b1 = line(1, "e-2", "fam-b", "u-b", prev: SHA256.emptyHex)
        let a2 = #"{"seq":2,"id":"e-3","type":"NotificationSettingsChanged","at":"2026-01-01T00:00:00Z","actor":"u-a","family":"fam-a","data":{"inboundAlerts":false},"prev":"\#(SHA256.hex(Array(a1.utf8)))"}"#
        let clean = Self.replay([a1, b1, a2])
        #expect(clean.problems.isEmpty)
        #expect(clean.streams.version(of: "fam-a") == 2 && clean.streams.version(of: "fam-b") == 1)
        #expect(clean.streams[family: "fam-a"]?.head.text == SHA256.hex(Array(a2.utf8)))
        // Chained to the line before in the file (another family's) instead of its own: broken.
        let wrong = #"{"seq":3,"id":"e-4","type":"NotificationSettingsChanged","at":"2026-01-01T00:00:00Z","actor":"u-b","family":"fam-b","data":{"inboundAlerts":false},"prev":"\#(SHA256.hex(Array(a2.utf8)))"}"#
        let broken = Self.replay([a1, b1, a2, wrong])
        #expect(broken.problems == [Problem(line: 4, message: "seq 3, expected 2", kind: .sequence), Problem(line: 4, message: "prev does not match line 2", kind: .chain)])
        #expect(broken.state.appliedCount == 4)  // still applied (SPEC §2.2)
    }

    @Test func asOfStopsBeforeTheFirstLineRecordedLater() throws {
        let lines = Self.lines()
        let at = try #require(Timestamp(rfc3339: Self.field(lines[14], "at")))
        let replayer = Self.replay(lines, cut: ReplayCut(asOf: at))
        #expect(replayer.streams.version(of: "fam-1") == 15)
    }

    @Test func atSeqEqualsTheTruncatedLog() {
        let lines = Self.lines(120, seed: 9)
        for n in [0, 1, 7, 60, 119, 120] {
            let cut = Self.replay(lines, cut: ReplayCut(atSeq: Int64(n)))
            let truncated = Self.replay(Array(lines.prefix(n)))
            #expect(cut.state.appliedCount == truncated.state.appliedCount)
            #expect(cut.state.families == truncated.state.families)
            #expect(cut.streams.sorted.filter { $0.lines > 0 } == truncated.streams.sorted)
        }
    }

    static func field(_ line: String, _ key: String) -> String {
        guard case .object(let object)? = JSONParser.parse(line), case .string(let value)? = object[key] else { return "" }
        return value
    }
}

@Suite struct GeneratorTests {
    @Test func sameSeedSameBytesOtherSeedOtherBytes() {
        let a = HistoryGenerator(families: 2, events: 200, seed: 42).bytes()
        #expect(a == HistoryGenerator(families: 2, events: 200, seed: 42).bytes())
        #expect(a != HistoryGenerator(families: 2, events: 200, seed: 43).bytes())
    }

    @Test func coversEveryEventTypeAndOptionalField() {
        var replayer = Replayer()
        replayer.consume(bytes: HistoryGenerator(families: 3, events: 3000, seed: 1).bytes())
        #expect(replayer.problems.isEmpty)
        // Every type a family writes (`ErasureRecorded` is written only by `erase`).
        for type in EventType.allCases where type != .erasureRecorded { #expect((replayer.state.countsByType[type] ?? 0) > 0, "\(type)") }
        let logged = replayer.state.families.values.flatMap { $0.interactions.records.map(\.logged) }
        #expect(Set(logged.map(\.type)) == Set(InteractionType.allCases))
        #expect(Set(logged.compactMap(\.sentiment)) == Set(Sentiment.allCases))
        #expect(logged.contains { $0.interestAnswers != nil })
        #expect(logged.contains { $0.attachments != nil })
        #expect(logged.contains { $0.schoolId == nil })
        #expect(logged.contains { $0.otherCoachName != nil })
        #expect(logged.contains { $0.occurredAt == nil })
        #expect(logged.contains { $0.eventId != nil })
    }

    @Test func splitMixBelowStaysInBoundsAndIsRepeatable() {
        var a = SplitMix64(seed: 7), b = SplitMix64(seed: 7)
        for bound in [1, 2, 3, 10, 1000, Int(Int32.max)] {
            for _ in 0..<200 {
                let x = a.below(bound)
                #expect(x >= 0 && x < bound)
                #expect(x == b.below(bound))
            }
        }
    }
}
