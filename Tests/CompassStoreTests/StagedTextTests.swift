import Foundation
import Testing
@testable import CompassCore
@testable import CompassStore

/// Replay stages an interaction's subject and content as bytes instead of building them
/// (``TextStaging``), and keeps every interaction's texts in a compact table (``TextArena``).
/// Every text the rules could treat differently is held equal to the plain replay in memory,
/// which builds each text the usual way.
@Suite struct StagedTextTests {
    /// A JSON value for a text field, as raw bytes (so invalid UTF-8 can be written).
    static let values: [[UInt8]] = {
        var values: [[UInt8]] = [
            Array(#""plain words""#.utf8), Array(#""caf\u00e9 \"quoted\"""#.utf8), Array("\"Très sympa — 😀\"".utf8),
            Array(#""""#.utf8), Array(#""   ""#.utf8), Array("null".utf8), Array("42".utf8),
            Array("\"".utf8) + [0x62, 0x61, 0x64, 0x20, 0xFF, 0xFE] + Array("\"".utf8),  // not UTF-8
            Array("\"".utf8) + [0x61, 0xE2, 0x82] + Array("\"".utf8),  // a cut sequence
            Array("\"".utf8) + [0xED, 0xA0, 0x80] + Array("\"".utf8),  // a surrogate
            Array("\"".utf8) + [0xC0, 0xAF] + Array("\"".utf8),  // an overlong form
            Array("\"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\"".utf8),  // past U+10FFFF
        ]
        for count in [499, 500, 501, 9_999, 10_000, 10_001] { values.append(Array("\"\(String(repeating: "a", count: count))\"".utf8)) }
        for count in [250, 251, 5_000, 5_001] { values.append(Array("\"\(String(repeating: "😀", count: count))\"".utf8)) }  // 2 UTF-16 units each
        return values
    }()

    /// A generated family's log, then an interaction for every pair of subject and content
    /// values, logged by the athlete who logged the generator's first one.
    static func log() -> [UInt8] {
        var log = HistoryGenerator(families: 1, events: 200, seed: 3).bytes()
        let text = String(decoding: log, as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.contains("\"InteractionLogged\"") }!
        func field(_ name: String) -> String {
            let start = line.range(of: "\"\(name)\":\"")!.upperBound
            return String(line[start...].prefix { $0 != "\"" })
        }
        let (actor, family, school) = (field("actor"), field("family"), field("schoolId"))
        var n = 0
        for subject in values {
            for content in values.prefix(12) + values.suffix(4) {
                n += 1
                var out = Array(#"{"seq":\#(10_000 + n),"id":"staged-\#(n)","type":"InteractionLogged","at":"2026-01-01T00:00:00Z","actor":"\#(actor)","family":"\#(family)","data":{"interactionId":"i-staged-\#(n)","schoolId":"\#(school)","type":"email","direction":"outbound","subject":"#.utf8)
                out += subject
                out += Array(#","content":"#.utf8)
                out += content
                out += Array("}}\n".utf8)
                log += out
            }
        }
        return log
    }

    @Test func stagedTextsReplayAsTheTextsBuiltOneByOne() throws {
        let log = Self.log()
        let streamed = try StreamedReplayTests.streamed(log, cut: ReplayCut())
        let inMemory = StreamedReplayTests.inMemory(log, cut: ReplayCut())
        #expect(streamed == inMemory)
        // Not vacuous: the texts are there, a line that is not UTF-8 is not JSON (the scanner
        // checks before any text is read), and the ones too long were refused with the rules' message.
        let family = try #require(inMemory.state.families.values.first)
        let contents = family.interactions.records.filter { $0.eventId.hasPrefix("staged-") }.compactMap(\.logged.content)
        #expect(contents.contains("Très sympa — 😀") && contents.contains("café \"quoted\"") && contents.contains("plain words"))
        #expect(inMemory.problems.filter { $0.message == "invalid JSON" }.count == 5 * 16 + (Self.values.count - 5) * 5)
        #expect(contents.contains(String(repeating: "😀", count: 5_000)) && !contents.contains(String(repeating: "😀", count: 5_001)))
        #expect(inMemory.problems.contains { $0.message == "Subject must be 500 characters or less" })
        #expect(inMemory.problems.contains { $0.message == "Content must be 10,000 characters or less" })
    }

    @Test func aPlainTextIsStagedAndAnEscapedOneIsBuilt() {
        let plain = Array(#"{"seq":1,"id":"e-1","type":"InteractionLogged","at":"2026-01-01T00:00:00Z","actor":"u-1","family":"f-1","data":{"interactionId":"i-1","schoolId":"s-1","type":"email","direction":"outbound","subject":"Hello","content":"caf\u00e9"}}"#.utf8)
        var tape = JSONTape()
        let line = plain.withUnsafeBufferPointer { PreparedLine($0, keepingPayload: false, tape: &tape, stagingTexts: true) }
        #expect(line.staged.subject.map { Array(plain[Int($0.lowerBound)..<Int($0.upperBound)]) } == Array("Hello".utf8))
        #expect(line.staged.content == nil, "an escaped text is built, not staged")
        guard let event = line.preparedEvent, case .interactionLogged(let logged) = event.payload else {
            Issue.record("the line did not prepare as an event")
            return
        }
        #expect(logged.subject == nil && logged.content == "café")
        // Kept payloads (an observer may want them) are never staged.
        let observed = plain.withUnsafeBufferPointer { PreparedLine($0, keepingPayload: true, tape: &tape, stagingTexts: true) }
        #expect(observed.staged.isEmpty)
    }

    /// With texts staged, an interaction event's id in UUID form is kept only as its key (the
    /// fold spells its bytes from it); any other id, any other event, a line whose payload
    /// fails (its messages name the id) and a line prepared for an observer keep the id as text.
    @Test func anInteractionsUUIDIdIsKeptAsItsKeyAndEveryOtherIdAsText() {
        let uuid = "71c18690-ee42-490b-b1bb-54d8d101b5b9"
        func line(id: String, type: String, data: String) -> [UInt8] {
            Array(#"{"seq":1,"id":"\#(id)","type":"\#(type)","at":"2026-01-01T00:00:00Z","actor":"u-1","family":"f-1","data":\#(data)}"#.utf8)
        }
        let logged = #"{"interactionId":"i-1","schoolId":"s-1","type":"email","direction":"outbound"}"#
        func prepared(_ bytes: [UInt8], keepingPayload: Bool = false) -> PreparedLine {
            var tape = JSONTape()
            return bytes.withUnsafeBufferPointer { PreparedLine($0, keepingPayload: keepingPayload, tape: &tape, stagingTexts: true) }
        }
        func id(_ line: PreparedLine) -> String? {
            switch line.content {
            case .event: line.event.id
            case .draft(let draft, _): draft.id
            default: nil
            }
        }
        let keyed = prepared(line(id: uuid, type: "InteractionLogged", data: logged))
        #expect(keyed.keys?.idInKey == true && id(keyed) == "" && keyed.keys?.eventIdText("") == uuid)
        let deleted = prepared(line(id: uuid, type: "InteractionDeleted", data: #"{"interactionId":"i-1"}"#))
        #expect(deleted.keys?.idInKey == true && id(deleted) == "")
        for (text, why) in [(prepared(line(id: "e-1", type: "InteractionLogged", data: logged)), "an id not in UUID form"),
                            (prepared(line(id: uuid, type: "SchoolAdded", data: #"{"schoolId":"s-1","name":"Duke"}"#)), "another event"),
                            (prepared(line(id: uuid, type: "InteractionLogged", data: #"{"interactionId":"i-1"}"#)), "a payload that fails"),
                            (prepared(line(id: uuid, type: "InteractionLogged", data: logged), keepingPayload: true), "an observer's line")] {
            #expect(text.keys?.idInKey == false, "\(why)")
            #expect(id(text) == (why == "an id not in UUID form" ? "e-1" : uuid), "\(why)")
        }
    }

    @Test func theUTF8CheckAgreesWithSwiftsDecoder() {
        var rng = SplitMix64(seed: 9)
        let pieces: [[UInt8]] = [[0x61], [0xC3, 0xA9], [0xE2, 0x80, 0x94], [0xF0, 0x9F, 0x98, 0x80], [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
                                 [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x80, 0x80, 0x80], [0x80], [0xE2, 0x82], [0x7F]]
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<rng.below(24) { bytes += pieces[rng.below(pieces.count)] }
            let decoded = String(validating: bytes, as: UTF8.self)
            let counted = bytes.withUnsafeBufferPointer { UTF8Check.utf16Count(ifValid: $0) }
            #expect(counted == decoded?.utf16.count, "\(bytes)")
        }
    }

    /// The compact table gives back exactly what was put in: every optional field present or
    /// not, long and non-ASCII texts, attachments, answers, deletions; its snapshot bytes are
    /// the bytes of the records written one by one.
    @Test func theCompactTableGivesBackEveryRecordAsItWasAppended() {
        var table = InteractionTable()
        var expected: [InteractionRecord] = []
        var rng = SplitMix64(seed: 4)
        let texts: [String?] = [nil, "x", "Très sympa — 😀", String(repeating: "long text ", count: 8_000), ""]
        for n in 0..<400 {
            func pick() -> String? { texts[rng.below(texts.count)] }
            let answers: [Bool]? = rng.below(3) == 0 ? (0..<6).map { _ in rng.below(2) == 0 } : rng.below(5) == 0 ? [true, false] : nil
            let attachments: [CompassCore.Attachment]? = rng.below(4) == 0 ? [CompassCore.Attachment(name: "film.mp4", sizeBytes: Int64(n), mimeType: "video/mp4", sha256: pick())] : nil
            let logged = InteractionLogged(
                interactionId: "i-\(n)", schoolId: pick(), coachId: pick(), eventId: pick(), otherCoachName: pick(),
                type: InteractionType.allCases[rng.below(InteractionType.allCases.count)], direction: rng.below(2) == 0 ? .inbound : .outbound,
                occurredAt: rng.below(2) == 0 ? Timestamp(millisecondsSinceEpoch: Int64(n) * 1_000) : nil, subject: pick(), content: pick(),
                sentiment: rng.below(2) == 0 ? nil : Sentiment.allCases[rng.below(Sentiment.allCases.count)], interestAnswers: answers,
                attachments: attachments)
            var record = InteractionRecord(eventId: "e-\(n)", seq: Int64(n + 1), at: Timestamp(millisecondsSinceEpoch: Int64(n)), loggedBy: "u-\(n % 3)",
                                           logged: logged)
            table.append(record)
            if rng.below(4) == 0 {
                let deletion = Deletion(eventId: "d-\(n)", at: Timestamp(millisecondsSinceEpoch: Int64(n) + 5), by: "u-\(n % 3)")
                table.delete("i-\(n)", deletion, hash: "i-\(n)".hashValue)
                record.deletion = deletion
            }
            expected.append(record)
        }
        // One text too long for a span's length field (only an app's own event can hold one).
        let long = InteractionRecord(eventId: "e-long", seq: 401, at: Timestamp(millisecondsSinceEpoch: 401), loggedBy: "u-0",
                                     logged: InteractionLogged(interactionId: "i-long", type: .email, direction: .outbound,
                                                               content: String(repeating: "y", count: TextSpan.longLength + 5)))
        table.append(long)
        expected.append(long)
        // Every number at its longest encoding (ten bytes), deleted: the row's worked-out
        // length must still hold it.
        var extreme = InteractionRecord(eventId: "e-max", seq: .max, at: Timestamp(millisecondsSinceEpoch: .min), loggedBy: "u-0",
                                        logged: InteractionLogged(interactionId: "i-max", type: .dm, direction: .inbound,
                                                                  occurredAt: Timestamp(millisecondsSinceEpoch: .max),
                                                                  attachments: [CompassCore.Attachment(name: "a", sizeBytes: .min, mimeType: "b", sha256: nil)]))
        table.append(extreme)
        let maxDeletion = Deletion(eventId: "d-max", at: Timestamp(millisecondsSinceEpoch: .min), by: "u-0")
        table.delete("i-max", maxDeletion, hash: "i-max".hashValue)
        extreme.deletion = maxDeletion
        expected.append(extreme)
        let sameRecords = Array(table.records) == expected
        #expect(sameRecords, "the table gives back other records")
        #expect(table.count == 402 && table["i-17"] == expected[17] && table["i-400"] == nil)
        #expect(table.isLive("i-3", loggedBy: "u-0", hash: "i-3".hashValue) == (expected[3].deletion == nil))
        #expect(!table.isLive("i-3", loggedBy: "u-1", hash: "i-3".hashValue))
        var compact = ByteWriter()
        table.encode(into: &compact)
        let sameBytes = compact.bytes == Self.encodedOneByOne(expected)  // (not printed: 16 MiB)
        #expect(sameBytes, "the table's encoding differs from its records' written one by one")
        // Read back (as a snapshot's family section is), the table holds the same records.
        let decoded = compact.bytes.withUnsafeBufferPointer { buffer -> InteractionTable? in
            var reader = ByteReader(buffer)
            var decoded = InteractionTable()
            guard let count = reader.uint(), decoded.decode(count, from: &reader, ranges: false), reader.isAtEnd else { return nil }
            return decoded
        }
        // (Answers that are not six, which only an unchecked app event can hold, come back as
        // the six bits the section keeps: as the codec has always read them.)
        let roundTripped = expected.map { record -> InteractionRecord in
            var record = record
            if let answers = record.logged.interestAnswers, answers.count != 6 {
                record.logged.interestAnswers = (0..<6).map { $0 < answers.count && answers[$0] }
            }
            return record
        }
        #expect(decoded.map { Array($0.records) == roundTripped } == true, "the decoded section differs")
        // A section that repeats an interaction id, or ends early, is not a table.
        var twice = ByteWriter()
        twice.uint(2)
        let one = Array(Self.encodedOneByOne([expected[0]]).dropFirst())
        twice.bytes += one + one
        for bytes in [twice.bytes, Array(compact.bytes.dropLast())] {
            let read = bytes.withUnsafeBufferPointer { buffer -> Bool in
                var reader = ByteReader(buffer)
                var table = InteractionTable()
                guard let count = reader.uint() else { return false }
                return table.decode(count, from: &reader, ranges: false)
            }
            #expect(!read)
        }
    }

    /// A text too long for a span's length field (only an app folding its own unchecked
    /// events can make one) keeps its length in the arena and comes back whole.
    @Test func aTextLongerThanASpanDescribesComesBackWhole() {
        var arena = TextArena()
        let long = String(repeating: "0123456789abcdef", count: 1 << 20 + 1)  // 16 MiB + 16 bytes
        let spans = [arena.add("before"), arena.add(long), arena.add(""), arena.add("after"), arena.add(nil as String?)]
        #expect(arena.string(spans[1]) == long && arena.equals(spans[1], long))
        #expect(spans.map(arena.optionalString) == ["before", long, "", "after", nil])
        let full = String(repeating: "x", count: TextArena.chunkSize)
        let edge = [arena.add(full), arena.add(""), arena.add("y")]  // a chunk filled exactly, then more
        #expect(edge.map(arena.string) == [full, "", "y"])
    }

    /// A UUID kept as its key's 16 bytes reads back as the id spelled, with its length, and
    /// compares equal to it; a text whose length is the marker's reads back as itself.
    @Test func aUUIDKeptAsItsKeyReadsAsTheIdSpelled() {
        var arena = TextArena()
        var rng = SplitMix64(seed: 7)
        let ids = (0..<200).map { _ in rng.uuid() } + ["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"]
        let spans = ids.map { id -> TextSpan in
            _ = arena.add("between")  // keys land at every alignment
            return arena.add(uuid: EventIdKey(id))
        }
        #expect(spans.map(arena.string) == ids)
        #expect(spans.allSatisfy { arena.length($0) == 36 })
        #expect(zip(spans, ids).allSatisfy { arena.equals($0, $1) && !arena.equals($0, String($1.dropLast())) })
        let marker = String(repeating: "m", count: TextSpan.uuidLength)
        let span = arena.add(marker)
        #expect(arena.length(span) == marker.utf8.count && arena.string(span) == marker)
    }

    /// A copy of an arena shares its chunks but never writes into one the other holds: after
    /// the copy, each adds its own texts (on its own thread) and each reads back exactly what
    /// it was given, the shared texts included.
    @Test func copiesOfAnArenaAddWithoutTouchingEachOther() async {
        var original = TextArena()
        let shared = (0..<50).map { "shared text \($0)" }
        let sharedSpans = shared.map { original.add($0) }
        func grow(_ arena: TextArena, tag: String) -> (TextArena, [TextSpan], [String]) {
            var arena = arena
            let texts = (0..<20_000).map { "\(tag) \($0) " + String(repeating: tag, count: $0 % 97) }
            let spans = texts.map { arena.add($0) }
            return (arena, spans, texts)
        }
        let copy = original
        async let left = grow(original, tag: "a")
        async let right = grow(copy, tag: "b")
        let results = await [left, right]
        for (arena, spans, texts) in results {
            #expect(spans.map(arena.string) == texts)
            #expect(sharedSpans.map(arena.string) == shared)
        }
        // The original, untouched by either, still reads its own texts, and can add more.
        #expect(sharedSpans.map(original.string) == shared)
        let more = original.add("more")
        #expect(original.string(more) == "more" && sharedSpans.map(original.string) == shared)
    }

    /// Texts added in room reserved for them (a row's ids, one check for the lot) read back as
    /// added, at every fill of the last chunk; a chunk's worth or more is refused; and an arena
    /// copied before the room was made is never written into.
    @Test func textsAddedInReservedRoomReadBackAndLeaveCopiesAlone() {
        var arena = TextArena()
        var rng = SplitMix64(seed: 11)
        var expected: [(TextSpan, String)] = []
        for round in 0..<3_000 {
            let texts = (0..<Int(rng.below(7))).map { "id-\(round)-\($0)" + String(repeating: "z", count: Int(rng.below(40))) }
            let uuid = rng.uuid()
            var copy = round % 3 == 0 ? arena : TextArena()  // shares the last chunk
            let reserved = arena.reserve(texts.reduce(16) { $0 + $1.utf8.count })
            #expect(reserved)
            expected.append((arena.addReserved(uuid: EventIdKey(uuid)), uuid))
            for text in texts { expected.append((arena.addReserved(text), text)) }
            expected.append((arena.addReserved(nil as String?), ""))
            let intruderText = "written by the copy \(round)" + String(repeating: "w", count: 40)
            _ = copy.reserve(intruderText.utf8.count)
            let intruder = copy.addReserved(intruderText)  // must land in a chunk of its own
            #expect(copy.string(intruder) == intruderText)
            if round % 500 == 0 { _ = arena.add(String(repeating: "f", count: TextArena.chunkSize - 3)) }  // fill a chunk nearly
        }
        #expect(expected.allSatisfy { arena.optionalString($0.0) ?? "" == $0.1 })
        let tooMuch = arena.reserve(TextArena.chunkSize)
        #expect(!tooMuch)
    }

    /// The snapshot's interaction section written from built records (the codec's form
    /// before records were stored compactly).
    static func encodedOneByOne(_ records: [InteractionRecord]) -> [UInt8] {
        var w = ByteWriter()
        w.uint(UInt64(records.count))
        for r in records {
            w.string(r.eventId); w.int(r.seq); w.int(r.at.millisecondsSinceEpoch); w.string(r.loggedBy)
            let i = r.logged
            w.string(i.interactionId); w.optional(i.schoolId); w.optional(i.coachId); w.optional(i.eventId); w.optional(i.otherCoachName)
            w.choice(i.type); w.choice(i.direction)
            w.optionalInt(i.occurredAt?.millisecondsSinceEpoch)
            w.optional(i.subject); w.optional(i.content); w.optionalChoice(i.sentiment)
            if let answers = i.interestAnswers {
                w.uint(1); w.uint(UInt64(answers.enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) }))
            } else { w.uint(0) }
            w.uint(UInt64(i.attachments.map { $0.count + 1 } ?? 0))
            for a in i.attachments ?? [] { w.string(a.name); w.int(a.sizeBytes); w.string(a.mimeType); w.optional(a.sha256) }
            if let d = r.deletion { w.uint(1); w.string(d.eventId); w.int(d.at.millisecondsSinceEpoch); w.string(d.by) } else { w.uint(0) }
        }
        return w.bytes
    }
}
