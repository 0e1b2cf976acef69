// A client of the public API only: a sync layer moving events between a family's devices.
import CompassCore
import CompassStore
import Foundation
import Testing

/// Parent and athlete use different phones, each with its own log; a sync layer moves the
/// events one recorded to the other with `append(recorded:)`, unchanged.
@Suite(.serialized) struct SyncAppTests {
    let folder = NSTemporaryDirectory() + "compass-sync-" + UUID().uuidString.lowercased()

    /// Every event of `family` in `store`, in order (its feed from `seq` 0).
    static func events(of family: String, in store: CompassStore, count: Int) async -> [Event] {
        var events: [Event] = []
        for await event in store.changes(inFamily: family, after: 0) {
            events.append(event)
            if events.count == count { break }
        }
        return events
    }

    @Test func eventsRecordedOnOnePhoneReplayOnTheOtherUnchangedAndOnce() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let parentPhone = try CompassStore(path: folder + "/parent/events.jsonl")
        let athletePhone = try CompassStore(path: folder + "/athlete/events.jsonl")
        try parentPhone.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat Lopez", role: .parent, newFamily: "f-lopez")), as: "u-pat")
        try parentPhone.append(.addMember(AddMember(userId: "u-maya", fullName: "Maya Lopez", role: .player)), as: "u-pat")
        try parentPhone.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
        let schedule = Array("Day 1: drills\n".utf8)
        try parentPhone.append(.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-ucla", subject: "Camp <b>invite</b>")),
                               as: "u-maya", files: [.bytes(name: "schedule.txt", schedule)])
        let recorded = await Self.events(of: "f-lopez", in: parentPhone, count: 4)
        #expect(recorded.count == 4)

        // The attachment's bytes travel with its event; without them the event is refused.
        #expect(throws: StoreError.self) {
            for event in recorded { try athletePhone.append(recorded: event) }
        }
        for event in recorded {
            let files: [AttachmentFile] = event.type == .interactionLogged ? [.bytes(name: "schedule.txt", schedule)] : []
            let receipt = try athletePhone.append(recorded: event, files: files)
            #expect(receipt.eventId == event.id && receipt.seq == event.seq)
        }
        // The same lines, byte for byte: same ids, times, actors, payloads, seq and prev.
        #expect(try athletePhone.exportStream(family: "f-lopez").lines == parentPhone.exportStream(family: "f-lopez").lines)
        #expect(try athletePhone.interactions(as: "u-maya").items == parentPhone.interactions(as: "u-maya").items)

        // Synced again (the layer lost track): nothing changes.
        for event in recorded { _ = try athletePhone.append(recorded: event, files: [.bytes(name: "schedule.txt", schedule)]) }
        #expect(try athletePhone.version(as: "u-maya") == 4)

        // The same id with other content is refused by kind; so is a stranger's event.
        var changed = recorded[2]
        changed.payload = .schoolAdded(SchoolAdded(schoolId: "s-rice", name: "Rice"))
        #expect(throws: StoreError.keyReused(eventId: recorded[2].id)) { try athletePhone.append(recorded: changed) }
        var stranger = recorded[2]
        stranger.id = "ev-stranger"
        stranger.actor = "u-nobody"
        #expect(throws: StoreError.self) { try athletePhone.append(recorded: stranger) }
        #expect(try athletePhone.verify().ok)
    }

    /// A document the original upload accepted (a highlight video: any type is a document) is
    /// accepted when it is synced to another phone with its bytes.
    @Test func aDocumentAcceptedOnceIsAcceptedWhenSynced() async throws {
        let base = folder + "-video"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let phone = try CompassStore(path: base + "/phone/events.jsonl")
        let other = try CompassStore(path: base + "/other/events.jsonl")
        try phone.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "f-v")), as: "u-pat")
        try phone.append(.addMember(AddMember(userId: "u-maya", fullName: "Maya", role: .player)), as: "u-pat")
        let video = Array(repeating: UInt8(7), count: 4096)
        try phone.append(.uploadDocument(UploadDocument(title: "Highlights", docType: "video")), as: "u-maya",
                         files: [.bytes(name: "highlights.mp4", video)])
        let recorded = await Self.events(of: "f-v", in: phone, count: 3)
        for event in recorded {
            let files: [AttachmentFile] = event.type == .documentUploaded ? [.bytes(name: "highlights.mp4", video)] : []
            try other.append(recorded: event, files: files)
        }
        #expect(try other.documents(as: "u-pat").map(\.title) == ["Highlights"])
    }

    /// SPEC §7 as README's Embedding section shows it: a phone's store synced with the family's.
    @Test func aPhoneClonesPushesAndPullsThroughSync() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try CompassStore(path: folder + "/server/family.jsonl")
        try server.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat Lopez", role: .parent, newFamily: "f-lopez")), as: "u-pat")
        try server.append(.addMember(AddMember(userId: "u-maya", fullName: "Maya Lopez", role: .player)), as: "u-pat")
        try server.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
        let phone = try CompassStore(path: folder + "/phone/family.jsonl")   // none yet: the first sync clones
        let clone = try phone.sync(with: server, as: "u-maya")
        #expect(clone.cloned && clone.pulled == 3 && clone.family == "f-lopez")
        // Offline on the phone; meanwhile the parent changes the status on the server.
        let receipt = try phone.append(.logInteraction(LogInteraction(type: .email, direction: .outbound, schoolId: "s-ucla", subject: "Hello")),
                                       as: "u-maya", files: [.bytes(name: "reel.txt", Array("highlights".utf8))])
        #expect(receipt.entityId.hasPrefix("i-1."), "a phone's default ids carry its tag: \(receipt.entityId)")
        try server.append(.changeStatus(ChangeStatus(schoolId: "s-ucla", newStatus: "interested")), as: "u-pat")
        let report = try phone.sync(with: server, as: "u-maya")
        #expect(report.pushed == 1 && report.pulled == 1 && report.refused.isEmpty, "\(report)")
        #expect(try server.interactions(as: "u-pat").items.map(\.id) == [receipt.entityId])
        #expect(try phone.schools(as: "u-maya").first?.status == "interested")
        let detail = try server.interaction(receipt.entityId, as: "u-pat")
        #expect(try server.attachmentBytes(detail.attachments[0]) == Array("highlights".utf8))
        #expect(try phone.verify().ok && report.head == (try server.verify().families.first?.head))
    }
}
