import Foundation
import Testing
import CompassCore
import CompassStore

/// A screen reads every read model of the viewer's family from one state, now or at a point
/// of its history, through `views(as:)` — the same reads `compass` makes.
@Suite struct FamilyViewsAppTests {
    @Test func oneReadGivesEveryViewAndTimeTravelToTheStartIsEmpty() throws {
        let folder = NSTemporaryDirectory() + "compass-views-app-" + UUID().uuidString.lowercased()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CompassStore(path: folder + "/events.jsonl", configuration: .init(clock: { Timestamp(rfc3339: "2026-03-01T12:00:00Z")! }))
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "fam-l")), as: "u-pat")
        try store.append(.addMember(AddMember(userId: "u-maya", fullName: "Maya", role: .player)), as: "u-pat")
        try store.append(.addSchool(AddSchool(name: "UCLA", schoolId: "s-ucla")), as: "u-pat")
        try store.append(.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-ucla", subject: "Hello")), as: "u-maya")

        let parent = try store.views(as: "u-pat")
        #expect(parent.viewer.role == .parent)
        #expect(parent.schools().map(\.schoolId) == ["s-ucla"])
        #expect(try parent.interactions().items.map(\.subject) == ["Hello"])
        #expect(try parent.analytics().total == 1)
        #expect(parent.members().count == 2)
        // The same as the store's one-call reads.
        #expect(try store.schools(as: "u-pat") == parent.schools())
        let list = try parent.interactions()
        #expect(try store.interactions(as: "u-pat") == list)

        // Before the family's first line: nothing, for a member who exists now.
        let start = try store.views(as: "u-maya", atSeq: 0)
        #expect(start.viewer.userId == "u-maya")
        #expect(start.schools().isEmpty && start.members().isEmpty)
        #expect(try start.interactions().items.isEmpty)
        // Someone who is no member is refused by kind.
        #expect(throws: StoreError.self) { try store.views(as: "u-nobody") }
    }
}

/// The async door covers every screen: one awaited read gives every read model, and a
/// refusal's error describes itself in the SPEC's words.
@Suite struct AsyncViewsAppTests {
    @Test func aScreenAwaitsEveryReadModelAndErrorsDescribeThemselves() async throws {
        let folder = NSTemporaryDirectory() + "compass-async-views-" + UUID().uuidString.lowercased()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try await AsyncCompassStore.open(path: folder + "/events.jsonl")
        try await store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "fam-a")), as: "u-pat")
        try await store.append(.addSchool(AddSchool(name: "UCLA", schoolId: "s-ucla")), as: "u-pat")
        let views = try await store.views(as: "u-pat")
        #expect(views.schools().map(\.name) == ["UCLA"] && views.members().count == 1)
        #expect(try await store.audit(as: "u-pat").count == 2)
        let atStart = try await store.views(as: "u-pat", atSeq: 0)
        #expect(atStart.schools().isEmpty)
        let refusal = EventError("Please select a school")
        #expect((refusal as Error).localizedDescription == "Please select a school")
    }
}
