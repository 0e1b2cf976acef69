// A client of the public API only: statuses and document types as values an app can switch on.
import CompassCore
import CompassStore
import Foundation
import Testing

@Suite struct TypedVocabularyTests {
    /// Typed commands write the same slugs as strings do; results read them back typed; a slug
    /// this build does not name (a newer app's, a family's own) is kept as `unknown`, never
    /// lost or refused.
    @Test func statusesAndDocumentTypesAreTypedWithRoomForNewOnes() throws {
        let folder = NSTemporaryDirectory() + "compass-vocab-" + UUID().uuidString.lowercased()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CompassStore(path: folder + "/events.jsonl")
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "f-a")), as: "u-pat")
        try store.append(.addSchool(AddSchool(name: "UCLA", status: .interested)), as: "u-pat")
        try store.append(.addSchool(AddSchool(name: "Rice", status: "waitlisted")), as: "u-pat")
        try store.append(.changeStatus(ChangeStatus(schoolId: "s-ucla", status: .offerReceived)), as: "u-pat")
        try store.append(.uploadDocument(UploadDocument(title: "Reel", type: .highlightReel)), as: "u-pat")
        try store.append(.uploadDocument(UploadDocument(title: "Essay", docType: "essay")), as: "u-pat")

        let schools = Dictionary(uniqueKeysWithValues: try store.schools(as: "u-pat").map { ($0.schoolId, $0) })
        #expect(schools["s-ucla"]?.schoolStatus == .offerReceived && schools["s-ucla"]?.status == "offer_received")
        #expect(schools["s-rice"]?.schoolStatus == .unknown("waitlisted"))
        let documents = try store.documents(as: "u-pat").map(\.documentType)
        #expect(Set(documents) == [.highlightReel, .unknown("essay")])
        #expect(SchoolStatus.offerReceived.displayName == "Offer received" && DocumentType.testScores.displayName == "Test scores")
        for status in SchoolStatus.known + [.unknown("waitlisted")] {
            #expect(SchoolStatus(rawValue: status.rawValue) == status)
            #expect(try JSONDecoder().decode(SchoolStatus.self, from: JSONEncoder().encode(status)) == status)
        }
        #expect(String(decoding: try JSONEncoder().encode(DocumentType.highlightReel), as: UTF8.self) == #""highlight_reel""#)
    }
}
