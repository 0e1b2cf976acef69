import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// A read of what a log gained that fails halfway (a read of its next block fails after the
/// blocks before it were folded) neither loses nor repeats a line: a feed hands every event
/// on once, and a store's state folds every line once.
///
/// Each test fails the operations of the read one by one (``FaultyFileSystem``): the log's
/// first lines are there when the reader starts, the rest is committed (as another process's
/// appends) before it reads again.
@Suite struct FailedPollTests {
    /// A generated history of three families, long enough that reading what it gained takes
    /// several blocks (reads start at 256 KiB and double).
    static let log = HistoryGenerator(families: 3, events: 4_000, seed: 11).bytes()
    /// Lines there at the start.
    static let headCount = 80

    /// The log's first lines, and the rest.
    static func split() -> (head: [UInt8], rest: [UInt8]) {
        var newlines = 0
        let end = log.firstIndex { byte in
            if byte == 0x0A { newlines += 1 }
            return newlines == headCount
        }! + 1
        return (Array(log[..<end]), Array(log[end...]))
    }

    /// The ids of the events in `lines`, in order.
    static func ids(_ lines: [UInt8]) throws -> [String] {
        try lines.split(separator: 0x0A).map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            return try #require(object["id"] as? String)
        }
    }

    /// A folder holding `head` as its log.
    static func folder(_ head: [UInt8]) throws -> String {
        let folder = NSTemporaryDirectory() + "compass-failed-poll-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(head).write(to: URL(fileURLWithPath: folder + "/events.jsonl"))
        return folder
    }

    /// Commits `rest` after what the log holds, as a writer's appends would.
    static func commit(_ rest: [UInt8], to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(rest))
    }

    /// `body`'s result, called again once if it fails (the fault fails one operation only);
    /// nil when it fails twice.
    static func retried<T>(failures: inout Int, _ body: () throws(StoreError) -> T, failed: () -> Void = {}) -> T? {
        for _ in 0..<2 {
            do { return try body() } catch {
                failures += 1
                failed()
            }
        }
        return nil
    }

    /// Runs `body` on a log holding `head`, read through a file system that fails its first
    /// operation, then its second, and so on, until a run reaches no fault.
    static func eachFailedOperation(_ head: [UInt8], _ body: (_ path: String, _ fs: FaultyFileSystem) throws -> Void) throws {
        var step = 1
        while true {
            let folder = try folder(head)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let fs = FaultyFileSystem(root: folder, failAt: step, fault: .error)
            try body(folder + "/events.jsonl", fs)
            #expect(fs.openDescriptors.isEmpty, "descriptors left open after \(fs.injected ?? "no fault")")
            guard fs.hitFault else { return }
            step += 1
        }
    }

    @Test func aFeedWhoseReadFailsHalfwayHandsEveryEventOnOnce() throws {
        let (head, rest) = Self.split()
        let expected = try Self.ids(rest)
        var failedMidway = 0
        try Self.eachFailedOperation(head) { path, fs in
            var feed: LogFeed
            do { feed = try LogFeed(path: path, fs: fs) } catch {
                #expect(fs.hitFault, "\(error)")
                return
            }
            try Self.commit(rest, to: path)
            var delivered: [String] = []
            var failures = 0
            // The read of what the log gained, then one that finds nothing new; the fault
            // fails one operation of either, or none.
            for _ in 0..<2 {
                let read = Self.retried(failures: &failures) { () throws(StoreError) in
                    try feed.next().map(\.id)
                } failed: {
                    // Lines of what the log gained were folded before the read failed.
                    if feed.state.appliedCount > Self.headCount { failedMidway += 1 }
                }
                delivered += try #require(read)
            }
            #expect(failures <= 1)
            #expect(delivered == expected, "\(fs.injected ?? "no fault"): \(delivered.count) of \(expected.count)")
        }
        #expect(failedMidway >= 1)  // a read failed after blocks of what the log gained were folded
    }

    /// A feed whose read failed halfway, and whose log is then replaced before it reads again
    /// (an erasure, a restore), hands on the events it folded only if the new log still has
    /// them: every one when the new log is the whole history, none when it is the first lines
    /// only (as after an erasure of what came after them).
    @Test(arguments: [false, true])
    func aFeedWhoseReadFailedHandsOnAfterAReplacementOnlyWhatTheNewLogHas(shrunk: Bool) throws {
        let (head, rest) = Self.split()
        let expected = shrunk ? [] : try Self.ids(rest)
        var checked = 0
        try Self.eachFailedOperation(head) { path, fs in
            guard var feed = try? LogFeed(path: path, fs: fs) else { return }
            try Self.commit(rest, to: path)
            // Only a read that failed after folding some of what the log gained is of interest.
            guard (try? feed.next()) == nil, feed.state.appliedCount > Self.headCount else { return }
            let replacement = path + ".new"
            try Data(shrunk ? head : Self.log).write(to: URL(fileURLWithPath: replacement))
            #expect(rename(replacement, path) == 0)
            var failures = 0
            let delivered = try #require(Self.retried(failures: &failures) { () throws(StoreError) in try feed.next().map(\.id) })
            #expect(delivered == expected, "\(fs.injected ?? "no fault"): \(delivered.count) of \(expected.count)")
            checked += 1
        }
        #expect(checked >= 1)
    }

    @Test func aStoreWhoseReadFailsHalfwayFoldsEveryLineOnce() throws {
        let (head, rest) = Self.split()
        let full = try Self.folder(Self.log)
        defer { try? FileManager.default.removeItem(atPath: full) }
        let cold = try LogReader.replay(path: full + "/events.jsonl", fs: POSIXFileSystem(), problems: .summary)
        let member = try #require(cold.state.members.values.map(\.userId).min())
        var failedRead = 0
        try Self.eachFailedOperation(head) { path, fs in
            let store: CompassStore
            do {
                store = try CompassStore(path: path, createIfMissing: false, configuration: .over(fs))
            } catch {
                #expect(fs.hitFault, "\(error)")
                return
            }
            _ = try? store.state()  // the first read, of the head (it may be the one to fail)
            try Self.commit(rest, to: path)
            var failures = 0
            let state = try #require(Self.retried(failures: &failures) { () throws(StoreError) in try store.state() })
            let problems = try #require(Self.retried(failures: &failures) { () throws(StoreError) in try store.problems(as: member) })
            if failures > 0 { failedRead += 1 }
            #expect(state == cold.state, "\(fs.injected ?? "no fault")")
            #expect(problems.count == 0, "\(fs.injected ?? "no fault")")
        }
        #expect(failedRead >= 1)
    }
}
