import Foundation
import Testing
import CompassCore
import CompassStore

/// An app imports a family's history through the public API, as `compass import` does: the
/// same rules, the same defaults, all or nothing, on whichever backend the store has.
@Suite struct ImportAppTests {
    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "compass-import-app-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static let history = """
        {"type":"MemberJoined","actor":"u-pat","data":{"userId":"u-pat","fullName":"Pat Lopez","role":"parent"}}
        {"type":"MemberJoined","actor":"u-pat","data":{"userId":"u-maya","fullName":"Maya Lopez","role":"player"}}
        {"type":"SchoolAdded","actor":"u-pat","data":{"schoolId":"s-ucla","name":"UCLA","status":"interested"}}
        {"type":"InteractionLogged","actor":"u-maya","data":{"interactionId":"i-1","schoolId":"s-ucla","type":"email","direction":"inbound","subject":"Camp invite"}}

        """

    @Test func anAppImportsAHistoryWithTheRulesAndTheDefaults() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let counter = Counter()
        let store = try CompassStore(path: folder + "/events.jsonl", configuration: .init(
            clock: { Timestamp(millisecondsSinceEpoch: 1_767_225_600_000) }, makeId: { "imported-\(counter.next())" }))
        let summary = try store.importEvents(Array(Self.history.utf8))
        #expect(summary.count == 4)
        #expect(summary.runs == ["f-u-pat": 1...4])
        let list = try store.interactions(as: "u-pat")
        #expect(list.items.map(\.subject) == ["Camp invite"])
        #expect(try store.verify().ok)
    }

    @Test func aRefusedLineImportsNothingAndSaysWhichLine() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/history.jsonl"
        let broken = Self.history + #"{"type":"InteractionLogged","actor":"u-pat","data":{"schoolId":"s-ucla","type":"email","direction":"inbound"}}"# + "\n"
        try Data(broken.utf8).write(to: URL(fileURLWithPath: path))
        let store = try CompassStore(path: folder + "/events.jsonl")
        let error = #expect(throws: StoreError.self) { try store.importEvents(fromFile: path) }
        guard case .rejectedLines(let problems)? = error else {
            Issue.record("expected the refused lines, got \(String(describing: error))")
            return
        }
        #expect(problems.map(\.line) == [5])
        #expect(!FileManager.default.fileExists(atPath: folder + "/events.jsonl"))
    }
}
