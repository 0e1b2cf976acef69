// A client of the public API only: an app sees that its log has problems without `verify`.
import CompassCore
import CompassStore
import Foundation
import Testing

@Suite struct ProblemCountTests {
    /// A line damaged by hand in the middle of the log: reads still work, and the store says
    /// how many lines it folded past and which came first, for the viewer's family only.
    @Test func aReadSaysHowManyLinesItFoldedPast() throws {
        let folder = NSTemporaryDirectory() + "compass-problems-" + UUID().uuidString.lowercased()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/events.jsonl"
        let store = try CompassStore(path: log)
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "f-a")), as: "u-pat")
        try store.append(.addMember(AddMember(userId: "u-kim", fullName: "Kim", role: .parent, newFamily: "f-b")), as: "u-kim")
        #expect(try store.problems(as: "u-pat") == ProblemCount(count: 0, first: nil))
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data("this is not json\n".utf8))
        try handle.close()
        try CompassStore(path: log).append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
        let seen = try CompassStore(path: log).problems(as: "u-pat")
        #expect(seen.count == 1 && seen.first?.line == 3, "\(seen)")
        #expect(try CompassStore(path: log).interactions(as: "u-pat").items.isEmpty)
        #expect(try JSONDecoder().decode(ProblemCount.self, from: JSONEncoder().encode(seen)) == seen)
    }
}
