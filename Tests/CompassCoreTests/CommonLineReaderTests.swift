import Testing
@testable import CompassCore
import CompassTestSupport

/// A common line read straight from its bytes against the tape: whenever
/// the direct reader answers, the prepared line (its event, keys, and where its staged texts
/// are in it) is the one the tape makes; whenever it does not, it leaves nothing behind.
@Suite struct CommonLineReaderTests {
    /// A line prepared as replay prepares it (no payload kept, texts staged), with or without
    /// the direct reader, and the bytes its staged texts name in it.
    static func prepared(_ line: [UInt8], direct: Bool) -> (line: PreparedLine, staged: [[UInt8]]) {
        var tape = JSONTape()
        let prepared = line.withUnsafeBufferPointer {
            PreparedLine($0, keepingPayload: false, tape: &tape, commonLines: direct, stagingTexts: true)
        }
        let staged = [prepared.staged.subject, prepared.staged.content].compactMap { $0 }.map { Array(line[Int($0.lowerBound)..<Int($0.upperBound)]) }
        return (prepared, staged)
    }

    /// Whether the direct reader answers for the line (and does not leave it to the tape).
    static func readsDirectly(_ line: [UInt8]) -> Bool {
        line.withUnsafeBufferPointer { bytes in
            var texts = TextStaging(line: bytes.baseAddress!)
            return CommonLineReader.read(bytes, keyingId: true, staging: &texts) != nil
        }
    }

    /// Holds the direct reader equal to the tape on `line`; true when it answered.
    @discardableResult
    static func expectAgreement(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let direct = prepared(line, direct: true), tape = prepared(line, direct: false)
        #expect(direct.line == tape.line, "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        #expect(direct.staged == tape.staged, "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        return readsDirectly(line)
    }

    static let common = Array(#"{"seq":9,"id":"2f4abd8e-3606-4fce-b34a-c9856d9da608","type":"InteractionLogged","at":"2025-01-06T20:55:12.502Z","actor":"u-50-2","family":"fam-50","data":{"interactionId":"i-1-545718","schoolId":"s-3","coachId":"c-2","eventId":"ev-24","type":"showcase","direction":"outbound","occurredAt":"2025-01-01T06:15:46.046Z","subject":"Follow-up après showcase","content":"Très sympa — very friendly staff.","sentiment":"positive"},"prev":"3891cb389fa256d910fdc6c233dbf63b3e7b91cd0c91bd5dde922c951013444c"}"#.utf8)

    /// A common line and its event are put in their places one stored property at a time:
    /// every stored property of a prepared line and of an event must be one that is set there
    /// (a new one would be left uninitialized), and the line put there is the one the tape makes.
    @Test func preparedLinesStoredPropertiesAreTheOnesSetInPlace() throws {
        let line = Array(#"{"seq":1,"id":"4b1f0c52-8a3e-4f57-9d62-1a2b3c4d5e6f","type":"InteractionDeleted","at":"2026-01-01T00:00:00.000Z","actor":"u-1","family":"f","data":{"interactionId":"i-1"},"prev":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}"#.utf8)
        #expect(Self.readsDirectly(line))
        let prepared = Self.prepared(line, direct: true).line
        let stored = Mirror(reflecting: prepared).children.compactMap(\.label)
        #expect(stored.sorted() == PreparedLine.propertiesSetInPlace.sorted())
        guard let event = prepared.preparedEvent else { Issue.record("no event"); return }
        #expect(Mirror(reflecting: event).children.compactMap(\.label).sorted() == CommonLineReader.eventPropertiesSetInPlace.sorted())
        #expect(prepared == Self.prepared(line, direct: false).line)
        // An interaction's payload too.
        #expect(Self.readsDirectly(Self.common))
        guard let logged = Self.prepared(Self.common, direct: true).line.preparedEvent,
              case .interactionLogged(let payload) = logged.payload else { Issue.record("no interaction"); return }
        #expect(Mirror(reflecting: payload).children.compactMap(\.label).sorted() == CommonLineReader.interactionPropertiesSetInPlace.sorted())
    }

    /// Texts of one-, two-, three- and four-byte characters (one UTF-16 unit each but the last,
    /// which is two) right around each limit: the reader counts them as it checks their UTF-8,
    /// and reads a line itself exactly when its text is within the limit (the tape then agrees).
    @Test func textsAtTheirLimitsAreCountedInUTF16Units() {
        let subject = "Follow-up après showcase", content = "Très sympa — very friendly staff.", name = "Université Laval"
        for (character, units) in [("a", 1), ("é", 1), ("€", 1), ("🎥", 2)] {
            for (field, limit, line, original) in [("subject", InteractionLogged.subjectLimit, Self.common, subject),
                                                   ("content", InteractionLogged.contentLimit, Self.common, content),
                                                   ("name", 200, Self.schoolAdded, name)] {
                for total in (limit - 1)...(limit + 1) {
                    // At least one ASCII letter: a name of other characters only is left to the tape.
                    let count = (total - 1) / units
                    let text = String(repeating: "A", count: total - count * units) + String(repeating: character, count: count)
                    let changed = Array(String(decoding: line, as: UTF8.self).replacingOccurrences(of: "\"\(original)\"", with: "\"\(text)\"").utf8)
                    let within = text.utf16.count <= limit
                    #expect(text.utf16.count == total)
                    #expect(Self.expectAgreement(changed) == within, "\(field): \(count) × \(character) (\(total) of \(limit) units)")
                }
            }
        }
    }

    @Test func readsTheCommonShapeAsTheTapeDoes() throws {
        #expect(Self.expectAgreement(Self.common))
        let (line, staged) = Self.prepared(Self.common, direct: true)
        #expect(staged.map { String(decoding: $0, as: UTF8.self) } == ["Follow-up après showcase", "Très sympa — very friendly staff."])
        guard let event = line.preparedEvent, case .interactionLogged(let logged) = event.payload else {
            Issue.record("not an interaction: \(line.content)")
            return
        }
        #expect(logged.interactionId == "i-1-545718" && logged.schoolId == "s-3" && logged.coachId == "c-2" && logged.eventId == "ev-24")
        #expect(logged.type == .showcase && logged.direction == .outbound && logged.sentiment == .positive)
        #expect(logged.subject == nil && logged.content == nil)  // staged, not built
        let subject = try #require(line.staged.subject)
        #expect(String(decoding: Self.common[Int(subject.lowerBound)..<Int(subject.upperBound)], as: UTF8.self) == "Follow-up après showcase")
        #expect(line.keys?.idInKey == true && event.id.isEmpty && event.actor == "u-50-2" && event.family == "fam-50")
    }

    static let deleted = Array(#"{"seq":10,"id":"a5eb02f4-52a7-4747-8345-3b47435b2d51","type":"InteractionDeleted","at":"2025-01-06T23:40:27.941Z","actor":"u-70-2","family":"fam-70","data":{"interactionId":"i-1-27950"},"prev":"e6597ba982448c65ad8714ffdc0d0a7f0de301037f23f6bfc529c9c48acccd69"}"#.utf8)
    static let statusChanged = Array(#"{"seq":9,"id":"dd92b8f9-ab50-43af-9537-0b00eb091e82","type":"SchoolStatusChanged","at":"2025-01-06T22:45:06.925Z","actor":"u-112-1","family":"fam-112","data":{"schoolId":"s-1","newStatus":"interested","notes":"Coach Díaz called"},"prev":"3f23f42e7e0e8d0302ad3211f534e96874a96e7d765c4c518558cdf025e30bae"}"#.utf8)

    static let schoolAdded = Array(#"{"seq":3,"id":"f679bf82-f646-41a1-b4b8-f365a7391077","type":"SchoolAdded","at":"2025-01-06T19:26:35.489Z","actor":"u-50-1","family":"fam-50","data":{"schoolId":"s-1","name":"Université Laval","status":"not_interested"},"prev":"5f8b1d8de2fae14dadf188738d0322ba0b28c233a8ab8b9125130c671e7c4ea3"}"#.utf8)
    static let coachAdded = Array(#"{"seq":6,"id":"43486d1c-90f5-4513-9e7b-da31b3c64880","type":"CoachAdded","at":"2025-01-07T21:30:24.007Z","actor":"u-53-2","family":"fam-53","data":{"coachId":"c-1","schoolId":"s-3","firstName":"Zoë","lastName":"O'Brien","role":"assistant"},"prev":"472f606cdde256fd285c6eed0300778578c86598dc3452ead4e90a070abffc82"}"#.utf8)
    static let documentUploaded = Array(#"{"seq":13,"id":"4f9cd2ac-e67c-4f82-857d-c9c66ab5db1b","type":"DocumentUploaded","at":"2025-01-10T21:27:05.645Z","actor":"u-98-1","family":"fam-98","data":{"documentId":"d-1","title":"Coach letter ⚽","docType":"medical","fileName":"file-1.pdf","sizeBytes":4545821,"sha256":"68ecd718daeaed148bbef536796b5b2b7c82fc947eadd9c82f8f27ebc4d7b477"},"prev":"68ecd718daeaed148bbef536796b5b2b7c82fc947eadd9c82f8f27ebc4d7b477"}"#.utf8)

    /// Every byte of a common line of each type changed to each of the bytes that matter to
    /// JSON and to the fields, or dropped: the two readers agree on all of them (most are
    /// refused by both, some read by both as another valid line, the rest left to the tape).
    @Test func agreesOnEveryByteOfACommonLineChangedToEveryByteThatMatters() {
        let replacements: [UInt8] = Array(#"" \,:{}[]0129aAfz-_.TZ+"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xFF]
        for common in [Self.common, Self.deleted, Self.statusChanged, Self.schoolAdded, Self.coachAdded, Self.documentUploaded] {
            #expect(Self.expectAgreement(common))
            var read = 0, left = 0
            for position in common.indices {
                for byte in replacements where byte != common[position] {
                    var line = common
                    line[position] = byte
                    if Self.expectAgreement(line) { read += 1 } else { left += 1 }
                }
                var shorter = common
                shorter.remove(at: position)
                Self.expectAgreement(shorter)
            }
            #expect(read > 100 && left > 4_000)  // both ways taken, many times
        }
    }

    /// The shapes it reads, and those it leaves to the tape, each still read as the tape reads it.
    @Test func readsTheShapesCompassWritesAndLeavesEveryOtherToTheTape() {
        let text = String(decoding: Self.common, as: UTF8.self)
        func variant(_ old: String, _ new: String) -> String {
            #expect(text.contains(old))
            return text.replacingOccurrences(of: old, with: new)
        }
        let answers = #","sentiment":"positive","interestAnswers":[true,false,true,true,true,false]"#
        let attachment = #"{"name":"a.pdf","sizeBytes":1,"mimeType":"application/pdf"}"#
        let hash = #","sha256":"3891cb389fa256d910fdc6c233dbf63b3e7b91cd0c91bd5dde922c951013444c""#
        let deleted = String(decoding: Self.deleted, as: UTF8.self), changed = String(decoding: Self.statusChanged, as: UTF8.self)
        let school = String(decoding: Self.schoolAdded, as: UTF8.self), coach = String(decoding: Self.coachAdded, as: UTF8.self)
        let document = String(decoding: Self.documentUploaded, as: UTF8.self)
        let fileHash = #","sha256":"68ecd718daeaed148bbef536796b5b2b7c82fc947eadd9c82f8f27ebc4d7b477""#
        let read: [String] = [
            deleted, changed, school, coach, document,
            school.replacingOccurrences(of: #","status":"not_interested""#, with: ""),
            school.replacingOccurrences(of: #""not_interested""#, with: #""""#),
            school.replacingOccurrences(of: "Université Laval", with: "x" + String(repeating: "é", count: 199)),  // 200 UTF-16 units
            school.replacingOccurrences(of: "Université Laval", with: " x "),
            coach.replacingOccurrences(of: "assistant", with: "head"),
            coach.replacingOccurrences(of: "Zoë", with: String(repeating: "Z", count: 5_000)),
            document.replacingOccurrences(of: fileHash, with: ""),
            document.replacingOccurrences(of: #","sizeBytes":4545821"#, with: "").replacingOccurrences(of: fileHash, with: ""),
            document.replacingOccurrences(of: #","fileName":"file-1.pdf""#, with: ""),
            document.replacingOccurrences(of: #""file-1.pdf""#, with: #""""#),
            document.replacingOccurrences(of: "4545821", with: "0"),
            changed.replacingOccurrences(of: #","notes":"Coach Díaz called""#, with: ""),
            changed.replacingOccurrences(of: #","notes":"Coach Díaz called""#, with: #","notes":"""#),
            changed.replacingOccurrences(of: "interested", with: "some_custom_status_2"),
            variant(#""seq":9,"#, #""seq":9007199254740991,"#),  // the largest seq
            variant("i-1-545718", String(repeating: "i", count: 64)),
            variant(#""id":"2f4abd8e-3606-4fce-b34a-c9856d9da608""#, #""id":"ev-1""#),  // spelled, not keyed
            variant(#""id":"2f4abd8e-3606-4fce-b34a-c9856d9da608""#, #""id":"2F4ABD8E-3606-4fce-b34a-c9856d9da608""#),
            variant("2025-01-01T06:15:46.046Z", "2025-01-01T06:15:46+02:00"),
            variant(#""subject":"Follow-up après showcase","#, #""subject":"","#),
            variant(#","schoolId":"s-3""#, ""),  // a coach without a school
            variant(#","eventId":"ev-24""#, #","eventId":"ev-24","otherCoachName":"Zoë Ng""#),
            variant(#","eventId":"ev-24""#, #","eventId":"ev-24","otherCoachName":"""#),
            variant(#""direction":"outbound""#, #""direction":"inbound""#).replacingOccurrences(of: #","sentiment":"positive""#, with: answers),
            variant(#","sentiment":"positive""#, #","sentiment":"positive","attachments":["# + attachment + "]"),
            variant(#","sentiment":"positive""#, #","attachments":["# + attachment + "," + attachment.replacingOccurrences(of: "}", with: hash + "}") + "]"),
            variant(#""direction":"outbound""#, #""direction":"inbound""#)
                .replacingOccurrences(of: #","sentiment":"positive""#, with: answers + #","attachments":["# + attachment + "]"),
        ]
        let left: [String] = [
            school.replacingOccurrences(of: "Université Laval", with: "x" + String(repeating: "é", count: 200)),
            school.replacingOccurrences(of: "Université Laval", with: String(repeating: "é", count: 3)),  // not known here not to be blank
            school.replacingOccurrences(of: "Université Laval", with: "   "),
            school.replacingOccurrences(of: "Université Laval", with: ""),
            school.replacingOccurrences(of: "Université Laval", with: "\u{00A0}"),  // blank: the tape says so
            school.replacingOccurrences(of: "not_interested", with: "Not interested"),
            school.replacingOccurrences(of: #","status":"not_interested""#, with: #","status":null"#),
            coach.replacingOccurrences(of: "assistant", with: "coach"),
            coach.replacingOccurrences(of: #""schoolId":"s-3","#, with: ""),
            coach.replacingOccurrences(of: "O'Brien", with: ""),
            coach.replacingOccurrences(of: "O'Brien", with: #"O\u0027Brien"#),
            document.replacingOccurrences(of: #","sizeBytes":4545821"#, with: ""),  // a hash without a size
            document.replacingOccurrences(of: #","sizeBytes":4545821"#, with: #","sizeBytes":-1"#),
            document.replacingOccurrences(of: #","sizeBytes":4545821"#, with: #","sizeBytes":1.5"#),
            document.replacingOccurrences(of: #","sizeBytes":4545821"#, with: #","sizeBytes":0123"#),
            document.replacingOccurrences(of: "68ecd718daeaed14", with: "68ECD718DAEAED14"),
            document.replacingOccurrences(of: #""sha256":"68ecd718"#, with: #""sha256":"8ecd718"#),
            document.replacingOccurrences(of: "medical", with: "Medical records"),
            document.replacingOccurrences(of: "Coach letter ⚽", with: String(repeating: "⚽", count: 101)),
            document.replacingOccurrences(of: #","fileName":"file-1.pdf""#, with: #","fileName":7"#),
            deleted.replacingOccurrences(of: #""i-1-27950""#, with: #""""#),
            deleted.replacingOccurrences(of: #""i-1-27950""#, with: "null"),
            deleted.replacingOccurrences(of: #""i-1-27950"}"#, with: #""i-1-27950","note":1}"#),
            changed.replacingOccurrences(of: "interested", with: "Interested"),
            changed.replacingOccurrences(of: "interested", with: String(repeating: "a", count: 41)),
            changed.replacingOccurrences(of: "Coach Díaz called", with: #"Coach D\u00edaz called"#),
            changed.replacingOccurrences(of: #""schoolId":"s-1","newStatus":"interested""#, with: #""newStatus":"interested","schoolId":"s-1""#),
            changed.replacingOccurrences(of: "SchoolStatusChanged", with: "SchoolAdded"),
            variant(#","schoolId":"s-3""#, #","schoolId":null"#),
            variant(#","schoolId":"s-3""#, #","schoolId":"""#),
            variant(#","schoolId":"s-3","coachId":"c-2""#, ""),  // no school, no coach
            variant(#","eventId":"ev-24""#, #","eventId":"ev-24","otherCoachName":"Z\u00f6e""#),
            variant(#","eventId":"ev-24""#, #","eventId":"ev-24","otherCoachName":null"#),
            variant(#","sentiment":"positive""#, answers),  // outbound: no calibration
            variant(#""direction":"outbound""#, #""direction":"inbound""#)
                .replacingOccurrences(of: #","sentiment":"positive""#, with: answers.replacingOccurrences(of: "false]", with: "false,true]")),
            variant(#""direction":"outbound""#, #""direction":"inbound""#)
                .replacingOccurrences(of: #","sentiment":"positive""#, with: answers.replacingOccurrences(of: "true,false,", with: "true,1,")),
            variant(#","sentiment":"positive""#, #","sentiment":"positive","attachments":[]"#),
            variant(#","sentiment":"positive""#, #","attachments":["# + attachment.replacingOccurrences(of: "a.pdf", with: "") + "]"),
            variant(#","sentiment":"positive""#, #","attachments":["# + attachment.replacingOccurrences(of: ":1,", with: ":10485761,") + "]"),
            variant(#","sentiment":"positive""#, #","attachments":["# + attachment.replacingOccurrences(of: ":1,", with: ":-1,") + "]"),
            variant(#","sentiment":"positive""#, #","attachments":["# + attachment.replacingOccurrences(of: "application/pdf", with: "application/zip") + "]"),
            variant(#","sentiment":"positive""#, #","attachments":["# + attachment.replacingOccurrences(of: "}", with: #","sha256":""}"#) + "]"),
            variant(#","sentiment":"positive""#, #","attachments":["# + attachment.replacingOccurrences(of: "}", with: hash.uppercased() + "}") + "]"),
            variant(#","sentiment":"positive""#, #","attachments":["# + attachment.replacingOccurrences(of: "}", with: #","note":1}"#) + "]"),
            variant("Très sympa", #"Tr\u00e8s sympa"#),
            variant("Très sympa", #"a "quoted" word"#),
            variant("Follow-up après showcase", String(repeating: "x", count: 501)),
            variant("Très sympa", String(repeating: "é", count: 10_001)),
            variant(#""type":"showcase","direction":"outbound""#, #""direction":"outbound","type":"showcase""#),
            variant(#""seq":9,"id""#, #""seq": 9,"id""#),
            variant(#""seq":9,"#, #""seq":09,"#),
            variant(#""seq":9,"#, #""seq":9.0,"#),
            variant(#""seq":9,"#, #""seq":9007199254740992,"#),
            variant(#","prev":"3891cb389fa256d910fdc6c233dbf63b3e7b91cd0c91bd5dde922c951013444c""#, ""),
            variant("3891cb38", "3891CB38"),
            variant(#""family":"fam-50","#, #""family":"fam-50","v":1,"#),
            variant(#""family":"fam-50","#, #""family":"fam-50","note":"x","#),
            variant(#""sentiment":"positive""#, #""sentiment":"positive","sentiment":"neutral""#),
            variant("i-1-545718", String(repeating: "i", count: 65)),
            variant("2025-01-01T06:15:46.046Z", "2025-02-30T06:15:46Z"),
            variant("2025-01-01T06:15:46.046Z", ""),
            variant("outbound", "sideways"),
            text + " ", text + "\r", " " + text,
            String(text.dropLast()),
        ]
        for line in read { #expect(Self.expectAgreement(Array(line.utf8)), "\(line)") }
        for line in left { #expect(!Self.expectAgreement(Array(line.utf8)), "\(line)") }
        // Invalid UTF-8 in a name the reader builds: refused, as the tape refuses it.
        var broken = Array(variant(#","eventId":"ev-24""#, #","eventId":"ev-24","otherCoachName":"Zo#""#).utf8)
        broken[broken.firstIndex(of: UInt8(ascii: "#"))!] = 0xC3
        #expect(!Self.expectAgreement(broken))
    }

    /// Lines prepared one after another with the ids kept from line to line (``IdInterner``, as
    /// a replay's preparing threads keep them) are the lines prepared each on its own: with room
    /// for every id, and with so little that ids keep replacing each other.
    @Test func idsKeptFromLineToLineGiveEachLineItsOwnIds() {
        var lines = HistoryGenerator(families: 40, events: 3_000, seed: 5).bytes().split(separator: 0x0A).map(Array.init)
        // Ids of every length an interner keeps and past it, and ids that differ in their last byte only.
        let changed = String(decoding: Self.statusChanged, as: UTF8.self)
        for (index, length) in [1, 7, 8, 9, 15, 16, 17, 24, 33, 39, 40, 41, 64].enumerated() {
            for last in ["a", "b"] {
                let id = String(repeating: "x", count: length - 1) + last
                let family = String((id + "-\(index)").suffix(64))
                lines.append(Array(changed.replacingOccurrences(of: "u-112-1", with: id).replacingOccurrences(of: "fam-112", with: family)
                    .replacingOccurrences(of: #""s-1""#, with: "\"\(id)\"").utf8))
            }
        }
        for slotCount in [2, 16, IdInterner.defaultSlotCount] {
            var ids = IdInterner(slotCount: slotCount), tape = JSONTape(), alone = JSONTape()
            var read = 0
            for line in lines + lines {
                line.withUnsafeBufferPointer { bytes in
                    let kept = withUnsafeTemporaryAllocation(of: PreparedLine.self, capacity: 1) { place in
                        PreparedLine.prepare(bytes, hash: nil, keepingPayload: false, tape: &tape, ids: &ids, stagingTexts: true,
                                             into: place.baseAddress!)
                        return place.baseAddress!.move()
                    }
                    let own = PreparedLine.prepared(bytes, hash: nil, keepingPayload: false, tape: &alone, stagingTexts: true)
                    #expect(kept == own, "\(String(decoding: line, as: UTF8.self))")
                    if let event = kept.preparedEvent {
                        #expect(kept.keys?.actor == event.actor.hashValue && kept.keys?.family == event.family.hashValue)
                        read += 1
                    }
                }
            }
            #expect(read > lines.count)  // most lines read directly, twice
        }
    }

    /// An id read from the middle of a line is looked up by its own bytes only: the bytes
    /// after it, loaded with it, are masked off. Every id of 1 to 40 bytes, followed by bytes
    /// that would make it a longer id already kept, gives its own text and hash, through a
    /// cache of 2 slots (every id pushing the last out) and of 8,192.
    @Test func anIdReadInALineIsNotTakenForALongerOneKeptBefore() {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-_.:".utf8)
        for slotCount in [2, IdInterner.defaultSlotCount] {
            var ids = IdInterner(slotCount: slotCount)
            for length in 1...40 {
                let long = Array((0..<(length + 8)).map { alphabet[($0 * 7 + length) % alphabet.count] })
                let line = long + Array(#"","more":"after the id"}"#.utf8) + [UInt8](repeating: 0x20, count: 48)
                line.withUnsafeBufferPointer { buffer in
                    let end = buffer.baseAddress! + buffer.count
                    let longer = UnsafeBufferPointer(rebasing: buffer[0..<(length + 8)])
                    let longerText = String(decoding: longer, as: UTF8.self)
                    #expect(ids.id(longer, readableTo: end) == (longerText, longerText.hashValue))
                    for cut in [length, length + 1, length + 7] {
                        let id = UnsafeBufferPointer(rebasing: buffer[0..<cut])
                        let text = String(decoding: id, as: UTF8.self)
                        ids.prefetch(id, readableTo: end)
                        #expect(ids.id(id, readableTo: end) == (text, text.hashValue), "\(slotCount) slots: \(text) after \(longerText)")
                        #expect(ids.id(id) == (text, text.hashValue))
                    }
                }
            }
        }
    }

    /// A replay sizes its id caches to the log it reads: a power of two from 256 to 8,192
    /// slots, never fewer for a larger log; a family's 3 MB log gets 512, the 58 MB one 8,192.
    @Test func idCachesAreSizedToTheLog() {
        var last = 0
        for bytes in [0, 1, 4_096, 2_097_152, 2_097_153, 3_000_000, 58_403_893, 602_259_013, Int.max / 2] {
            let slots = IdInterner.slotCount(forLogBytes: bytes)
            #expect(slots.nonzeroBitCount == 1 && (256...IdInterner.defaultSlotCount).contains(slots) && slots >= last, "\(bytes) bytes: \(slots)")
            last = slots
        }
        #expect(IdInterner.slotCount(forLogBytes: 2_097_152) == 256)
        #expect(IdInterner.slotCount(forLogBytes: 3_000_000) == 512)
        #expect(IdInterner.slotCount(forLogBytes: 58_403_893) == IdInterner.defaultSlotCount)
    }

    /// Whole generated logs, their lines mutated: the same lines either way.
    @Test func agreesOnGeneratedAndMutatedLogs() {
        var rng = SplitMix64(seed: 0x1A)
        var lines = Sealed.lines(LogGen.history(maxFamilies: 3).sample(seed: 79, size: 120))
        lines += HistoryGenerator(families: 3, events: 2_000, seed: 3).bytes().split(separator: 0x0A).map(Array.init)
        var read = 0
        for round in 0..<3 {
            for original in lines {
                var line = original
                for _ in 0..<round where !line.isEmpty { line[rng.below(line.count)] ^= UInt8(1 << rng.below(8)) }
                if Self.expectAgreement(line) { read += 1 }
            }
        }
        #expect(read > lines.count / 2)  // the common shape is most of a generated log
    }
}
