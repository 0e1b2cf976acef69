// The examples of the doc comments in Sources, each written here as it is there, so that the
// compiler checks them (`DocExamplesTests` holds the two texts equal). Compiled, not run: they
// follow live feeds that never end. No `@testable`: public API (and the `package` API the tool
// uses, for `Replayer`).
import CompassCore
import CompassStore
import Foundation

/// What the examples take from the app around them.
enum DocExampleApp {
    static let documents = NSTemporaryDirectory()
    static let logURL = URL(fileURLWithPath: NSTemporaryDirectory() + "events.jsonl")
    static func show(_ value: Any, version: Int64? = nil) {}
    static func reload() {}
    static func report(_ error: Error) {}
    static func refresh(_ event: Event) {}
}

enum DocExamples {
    typealias App = DocExampleApp

    static func replayer(_ logBytes: [UInt8]) {
        var replayer = Replayer()
        replayer.consume(bytes: logBytes)
        print(replayer.state.liveInteractionCount, replayer.problems)
    }

    static func command() {
        let command = Command.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-ucla",
                                                            subject: "Camp invite", sentiment: .positive))
        _ = command
    }

    static func compassStore() async throws {
        let documents = App.documents
        func refresh(_ event: Event) { App.refresh(event) }
        let store = try CompassStore(path: documents + "/events.jsonl")
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat Lopez", role: .parent,
                                              newFamily: "f-lopez")), as: "u-pat")
        let receipt = try store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
        let list = try store.interactions(as: "u-pat")
        for await event in store.changes() { refresh(event) }
        _ = (receipt, list)
    }

    static func observation(_ store: CompassStore) async throws {
        func show(_ items: [InteractionItem], version: Int64) { App.show(items, version: version) }
        for try await observed in store.observe(as: "u-maya", { try $0.interactions(as: "u-maya") }) {
            show(observed.value.items, version: observed.version)
        }
    }

    static func familyViews(_ store: CompassStore) throws {
        let family = try store.views(as: "u-maya")
        let schools = family.schools()
        let list = try family.interactions(InteractionQuery(direction: .inbound))
        _ = (schools, list)
    }

    static func storeError(_ store: CompassStore) {
        func show(_ message: String) { App.show(message) }
        func reload() { App.reload() }
        func report(_ error: StoreError) { App.report(error) }
        do {
            try store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
        } catch .rejected(let error) {
            show(error.message)          // the SPEC's rule message, e.g. "School name is required"
        } catch .conflict {
            reload()
        } catch {
            report(error)
        }
    }

    static func asyncStore() async throws {
        let logURL = App.logURL
        func show(_ items: [InteractionItem]) { App.show(items) }
        let store = try await AsyncCompassStore.open(path: logURL.path)
        let list = try await store.interactions(as: "u-maya")
        try await store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
        for try await page in store.observe(as: "u-maya", { try $0.interactions(as: "u-maya") }) { show(page.value.items) }
        _ = list
    }

    static func projector(_ store: CompassStore) async throws {
        let projector = try Projector(source: store, target: "postgresql://app@db/compass")
        let summary = try projector.project()      // brings the tables up to date
        for await _ in store.changes() { _ = try projector.project() }
        _ = summary
    }
}
