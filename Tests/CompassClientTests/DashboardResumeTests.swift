// A client of the public API only: a dashboard that resumes from the position it kept.
import CompassCore
import CompassStore
import Foundation
import Testing

@Suite struct DashboardResumeTests {
    /// The app kept the `seq` of the last event it showed, was closed, and another writer
    /// appended, erased a member and appended again meanwhile and after: resumed from the kept
    /// `seq`, the dashboard gets every later event of the family exactly once, in `seq` order,
    /// the erasure's record among them, and nothing of the erased member's own.
    @Test func aDashboardResumesFromItsKeptPositionAcrossAnErasure() async throws {
        let folder = NSTemporaryDirectory() + "compass-dashboard-" + UUID().uuidString.lowercased()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/events.jsonl"
        let app = try CompassStore(path: log)
        try app.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "f-a")), as: "u-pat")
        try app.append(.addMember(AddMember(userId: "u-maya", fullName: "Maya", role: .player)), as: "u-pat")
        try app.append(.addMember(AddMember(userId: "u-leo", fullName: "Leo", role: .player)), as: "u-pat")
        let kept = try app.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat").seq  // the last event the dashboard showed

        let other = try CompassStore(path: log)  // another writer (another device's sync, the CLI)
        let before = try other.append(.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-ucla", subject: "Maya's")),
                                      as: "u-maya")
        try other.append(.logInteraction(LogInteraction(type: .text, direction: .outbound, schoolId: "s-ucla", subject: "Leo's")), as: "u-leo")
        _ = try other.erase(member: "u-maya", as: "u-pat")
        let stream = app.changes(inFamily: "f-a", after: kept)
        try other.append(.addSchool(AddSchool(name: "Rice")), as: "u-pat", idempotencyKey: "after-resume")

        var events: [Event] = []
        for await event in stream {
            events.append(event)
            if event.id == "after-resume" { break }
        }
        // Every seq after the kept one, once, in order, but the erased member's own line.
        let last = try #require(events.last?.seq)
        #expect(events.map(\.seq) == Array((kept + 1)...last).filter { $0 != before.seq }, "\(events.map(\.seq))")
        #expect(Set(events.map(\.id)).count == events.count)
        #expect(events.contains { $0.type == .erasureRecorded })
        #expect(events.contains { if case .interactionLogged(let logged) = $0.payload { logged.subject == "Leo's" } else { false } })
        #expect(!events.contains { $0.actor == "u-maya" || $0.id == before.eventId }, "the erased member's own event was delivered")
    }
}
