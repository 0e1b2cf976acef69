import Testing
@testable import CompassCore
import CompassTestSupport

@Suite struct CodecTests {
    @Test func encodeDecodeEncodeGivesIdenticalBytesForEveryGeneratedEvent() throws {
        let log = HistoryGenerator(families: 3, events: 600, seed: 11).bytes()
        var lines = 0
        var replayer = Replayer(observer: { outcome, _ in
            guard case .applied(_, let event) = outcome else { return }
            let first = EventEncoder.line(for: event)
            guard let draft = try? EnvelopeReader.draft(String(decoding: first, as: UTF8.self)),
                  let payload = try? Rules.payloadIgnoringState(draft, sanitizing: false) else {
                Issue.record("re-decoding failed for seq \(event.seq)")
                return
            }
            var again = event
            again.payload = payload
            #expect(EventEncoder.line(for: again) == first)
            lines += 1
        })
        replayer.consume(bytes: log)
        #expect(lines == 600)
        #expect(replayer.problems.isEmpty)
    }

    /// The encoder writes a line's shape as literal bytes; the general writer, given the line's
    /// own parsed tree, must write the same bytes: every comma, key and escape in its place.
    @Test func eachLineIsWhatTheGeneralWriterWritesOfItsOwnTree() {
        let hostile = "q\"b\\s/\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}é😀 <b>x</b>"
        let at = Timestamp(rfc3339: "2026-02-03T14:15:00.5Z")!
        let payloads: [Payload] = [
            .memberJoined(MemberJoined(userId: "u-1", fullName: hostile, role: .parent)),
            .schoolAdded(SchoolAdded(schoolId: "s-1", name: hostile, status: hostile)),
            .schoolAdded(SchoolAdded(schoolId: "s-1", name: "")),
            .coachAdded(CoachAdded(coachId: "c-1", schoolId: "s-1", firstName: hostile, lastName: "", role: .recruiting)),
            .interactionLogged(InteractionLogged(
                interactionId: "i-1", schoolId: "s-1", coachId: "c-1", eventId: "ev", otherCoachName: hostile, type: .email,
                direction: .inbound, occurredAt: Timestamp(millisecondsSinceEpoch: -62_167_219_200_001), subject: hostile,
                content: hostile, sentiment: .veryPositive, interestAnswers: [true, false, true],
                attachments: [Attachment(name: hostile, sizeBytes: 0, mimeType: "a/b"),
                              Attachment(name: "b", sizeBytes: Int64.max, mimeType: hostile, sha256: SHA256.emptyHex)])),
            .interactionLogged(InteractionLogged(interactionId: "i-2", type: .inPersonVisit, direction: .outbound, interestAnswers: [],
                                                 attachments: [])),
            .interactionDeleted(InteractionDeleted(interactionId: "i-1")),
            .schoolStatusChanged(SchoolStatusChanged(schoolId: "s-1", newStatus: hostile, notes: hostile)),
            .documentUploaded(DocumentUploaded(documentId: "d", title: hostile, docType: "z", fileName: hostile, sizeBytes: -1,
                                               sha256: SHA256.emptyHex)),
            .documentUploaded(DocumentUploaded(documentId: "d", title: "t", docType: "resume")),
            .notificationSettingsChanged(NotificationSettingsChanged(inboundAlerts: false)),
            .notificationsRead(NotificationsRead(upToSeq: Int64.min)),
            .erasureRecorded(ErasureRecorded(oldHead: SHA256.emptyHex, oldLines: 0, erased: 12, scope: .family)),
        ]
        var events = payloads.enumerated().map { index, payload in
            Event(seq: Int64(index + 1), id: hostile, at: index.isMultiple(of: 2) ? at : Timestamp(millisecondsSinceEpoch: 253_402_300_800_000),
                  actor: "u-1", family: "f", payload: payload, prev: index.isMultiple(of: 3) ? nil : SHA256.emptyHex)
        }
        events += LogGen.history(maxFamilies: 3).sample(seed: 12, size: 120)
        for event in events {
            let line = EventEncoder.line(for: event)
            guard let tree = JSONParser.parse(line) else {
                Issue.record("not JSON: \(String(decoding: line, as: UTF8.self))")
                continue
            }
            var general = JSONWriter()
            general.value(tree)
            #expect(general.bytes == line, "\(String(decoding: line, as: UTF8.self))")
            var data = JSONWriter()
            guard case .object(let object) = tree, let payload = object["data"] else { continue }
            data.value(payload)
            #expect(EventEncoder.data(for: event.payload) == data.bytes)
        }
    }

    @Test func writesKeysInSpecOrderWithOptionalFieldsLeftOut() {
        let event = Event(seq: 7, id: "e-7", at: Timestamp(rfc3339: "2026-02-03T14:15:00Z")!, actor: "u-maya", family: "fam",
                          payload: .interactionLogged(InteractionLogged(interactionId: "i-1", schoolId: "s-ucla", type: .phoneCall,
                                                                        direction: .outbound, subject: "Hi \"coach\"")),
                          prev: SHA256.emptyHex)
        let line = String(decoding: EventEncoder.line(for: event), as: UTF8.self)
        #expect(line == #"{"seq":7,"id":"e-7","type":"InteractionLogged","at":"2026-02-03T14:15:00.000Z","actor":"u-maya","family":"fam","data":{"interactionId":"i-1","schoolId":"s-ucla","type":"phone_call","direction":"outbound","subject":"Hi \"coach\""},"prev":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}"#)
    }

    @Test(arguments: [
        (#"{"id":"e","type":"X","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{}}"#, "missing field seq"),
        (#"{"seq":1.0,"id":"e","type":"X","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{}}"#, "field seq must be a positive integer"),
        (#"{"seq":0,"id":"e","type":"X","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{}}"#, "field seq must be a positive integer"),
        (#"{"seq":1,"id":"has space","type":"X","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{}}"#, "field id must be an id"),
        (#"{"seq":1,"id":"e","type":3,"at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{}}"#, "field type must be a string"),
        (#"{"seq":1,"id":"e","type":"X","at":"2026-02-30T00:00:00Z","actor":"u","family":"f","data":{}}"#, "field at must be an RFC 3339 time"),
        (#"{"seq":1,"id":"e","type":"X","at":"2026-01-01T00:00:00Z","family":"f","data":{}}"#, "missing field actor"),
        (#"{"seq":1,"id":"e","type":"X","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":[]}"#, "field data must be an object"),
        (#"{"seq":1,"id":"e","type":"X","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{},"v":"2"}"#, "field v must be an integer"),
        (#"{"seq":1,"id":"e","type":"X","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{},"prev":"XYZ"}"#, "field prev must be a SHA-256 hex string"),
    ])
    func envelopeProblemsNameTheField(line: String, message: String) throws {
        #expect(throws: EventError(message, kind: .shape)) { try EnvelopeReader.draft(line) }
        // The reference on the built tree says the same.
        guard case .object(let object)? = JSONParser.parse(line) else { Issue.record("fixture"); return }
        #expect(throws: EventError(message, kind: .shape)) { try ReferenceEnvelope.decode(object) }
    }

    @Test func unknownFieldsAreIgnored() throws {
        let draft = try EnvelopeReader.draft(#"{"seq":1,"id":"e","type":"MemberJoined","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{"userId":"u","fullName":"U","role":"player","nickname":"x"},"extra":true}"#)
        let event = try Rules.decide(draft, in: CompassState())
        #expect(event.payload == .memberJoined(MemberJoined(userId: "u", fullName: "U", role: .player)))
    }
}
