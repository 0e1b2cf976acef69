import Foundation
import Testing
import CompassCore
@testable import CompassStore
import CompassTestSupport

/// What an append acknowledges, replay applies (SPEC §2.2: one rule set decides both).
///
/// Commands are drawn with random and hostile text in every field (ids with spaces, `;`,
/// tabs, 65 characters, accents; markup; control characters; empty strings) and acted by
/// random users, hostile ones too. Every command the store acknowledges must be applied by
/// a fresh replay of the file, with no problem on any line; every refused one leaves the
/// file as it was.
@Suite struct AppendReplayAgreementTests {
    /// Text for any field: well-formed ids and words, and what a hostile client would send.
    static let texts: [String] = [
        "p1", "a1", "s-ucla", "c-jo", "i-1", "d-1", "fam-2", "f-p1", "interested", "email", "inbound", "positive",
        "parent", "player", "head_coach", "transcript", "2026-01-02T03:04:05Z", "2026-01-02T03:04:05.123+02:00",
        "fam 2", "f-1;drop", "a\tb", String(repeating: "x", count: 64), String(repeating: "y", count: 65), "é", "école",
        "", " ", "\n", "\u{0}", "\u{1B}[31m", "<b>bold</b>", "<script>x</script>", "\"quoted\"", "back\\slash",
        "\u{2028}", "🏈", "日本", "9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "10000-01-01T00:00:00Z",
        String(repeating: "n", count: 201), "x:y.z_-", "-", ".", "NaN",
    ]

    static func text(_ rng: inout SplitMix64) -> String { texts[rng.below(texts.count)] }
    static func maybe(_ rng: inout SplitMix64) -> String? { rng.below(3) == 0 ? nil : text(&rng) }

    /// A random command whose every field is drawn from ``texts``.
    static func command(_ rng: inout SplitMix64) -> Command {
        switch rng.below(9) {
        case 0: return .addMember(AddMember(userId: text(&rng), fullName: text(&rng), role: text(&rng), newFamily: maybe(&rng)))
        case 1: return .addSchool(AddSchool(name: text(&rng), schoolId: maybe(&rng), status: maybe(&rng)))
        case 2: return .addCoach(AddCoach(schoolId: text(&rng), firstName: text(&rng), lastName: text(&rng), role: text(&rng),
                                          coachId: maybe(&rng)))
        case 3:
            let attachments = rng.below(4) == 0
                ? [Attachment(name: text(&rng), sizeBytes: Int64(rng.below(3)) * 6_000_000, mimeType: text(&rng))] : []
            return .logInteraction(LogInteraction(
                type: text(&rng), direction: text(&rng), schoolId: maybe(&rng), coachId: maybe(&rng), eventId: maybe(&rng),
                otherCoachName: maybe(&rng), occurredAt: maybe(&rng), subject: maybe(&rng), content: maybe(&rng),
                sentiment: maybe(&rng), interestAnswers: rng.below(4) == 0 ? (0..<rng.below(8)).map { _ in rng.below(2) == 0 } : nil,
                attachments: attachments, interactionId: maybe(&rng)))
        case 4: return .deleteInteraction(DeleteInteraction(interactionId: text(&rng)))
        case 5: return .changeStatus(ChangeStatus(schoolId: text(&rng), newStatus: text(&rng), notes: maybe(&rng)))
        case 6: return .uploadDocument(UploadDocument(title: text(&rng), docType: text(&rng), fileName: maybe(&rng),
                                                      sizeBytes: rng.below(3) == 0 ? Int64(rng.below(100)) : nil,
                                                      documentId: maybe(&rng)))
        case 7: return .changeNotificationSettings(ChangeNotificationSettings(inboundAlerts: rng.below(2) == 0))
        default: return .markNotificationsRead(MarkNotificationsRead(upToSeq: Int64(rng.below(40)) - 2))
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func everyAcknowledgedAppendIsAppliedByReplay(seed: UInt64) throws {
        let folder = NSTemporaryDirectory() + "compass-agree-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/events.jsonl"
        var rng = SplitMix64(seed: seed)
        nonisolated(unsafe) var clockTick: Int64 = 1_767_225_600_000
        nonisolated(unsafe) var idCount = 0
        let store = try CompassStore(path: log, configuration: .init(
            clock: { clockTick += 1_000; return Timestamp(millisecondsSinceEpoch: clockTick) },
            makeId: { idCount += 1; return "ev-\(idCount)" }))
        // A well-formed family to act in, so most commands reach the rules past membership.
        try store.append(.addMember(AddMember(userId: "p1", fullName: "Pat", role: .parent, newFamily: "fam-1")), as: "p1")
        try store.append(.addMember(AddMember(userId: "a1", fullName: "Ash", role: .player)), as: "p1")
        try store.append(.addSchool(AddSchool(name: "UCLA", schoolId: "s-ucla")), as: "p1")
        var acknowledged: [String] = ["ev-1", "ev-2", "ev-3"]
        var refused = 0
        for _ in 0..<400 {
            var actor = rng.below(4) == 0 ? Self.text(&rng) : (rng.below(2) == 0 ? "p1" : "a1")
            let command = Self.command(&rng)
            // A new family's first member acts for themselves: reach the family rules often.
            if case .addMember(let member) = command, member.newFamily != nil || rng.below(2) == 0, rng.below(3) != 0 { actor = member.userId }
            let key: String? = rng.below(5) == 0 ? Self.text(&rng) : nil
            let before = try Data(contentsOf: URL(fileURLWithPath: log))
            do {
                let receipt = try store.append(command, as: actor, idempotencyKey: key)
                acknowledged.append(receipt.eventId)
            } catch {
                refused += 1
                let after = try Data(contentsOf: URL(fileURLWithPath: log))
                #expect(after == before, "a refused \(command) by \(actor.debugDescription) changed the log: \(error)")
            }
        }
        let replayer = try LogReader.replay(path: log, fs: POSIXFileSystem(), problems: .all)
        #expect(replayer.problems.isEmpty, "replay refused acknowledged lines: \(replayer.problems.prefix(5))")
        for id in acknowledged {
            #expect(replayer.state.eventIds.contains(id), "acknowledged event \(id) is not applied by replay")
        }
        #expect(refused > 0 && acknowledged.count > 10, "the draw exercised both outcomes (\(acknowledged.count) acknowledged, \(refused) refused)")
    }

    @Test(arguments: ["fam 2", "f-1;drop", "a\tb", String(repeating: "f", count: 65), "é", ""])
    func aNewFamilyWhoseIdIsNotAnIdIsRefusedAndNothingIsWritten(family: String) throws {
        let folder = NSTemporaryDirectory() + "compass-agree-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/events.jsonl"
        let store = try CompassStore(path: log)
        #expect(throws: StoreError.rejected(EventError("field family must be an id", kind: .shape))) {
            try store.append(.addMember(AddMember(userId: "u1", fullName: "U", role: .parent, newFamily: family)), as: "u1")
        }
        #expect(((try? Data(contentsOf: URL(fileURLWithPath: log))) ?? Data()).isEmpty)
    }

    /// The default family of a first member is `f-USER`: a 63- or 64-character user id would
    /// make it 65 or 66 characters, which is no id.
    @Test func aLongUserIdWithoutAFamilyIsRefusedNotWrittenUnreadable() throws {
        let folder = NSTemporaryDirectory() + "compass-agree-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/events.jsonl"
        let store = try CompassStore(path: log)
        let user = String(repeating: "u", count: 64)
        #expect(throws: StoreError.self) {
            try store.append(.addMember(AddMember(userId: user, fullName: "U", role: .parent)), as: user)
        }
        let replayer = try LogReader.replay(path: log, fs: POSIXFileSystem(), problems: .all)
        #expect(replayer.problems.isEmpty)
    }
}
