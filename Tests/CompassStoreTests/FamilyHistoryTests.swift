import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// A viewer's history (their audit, a time travel by `seq`) is read from their family's own
/// lines, which the snapshot says where to find (issue 57, item 4). Every answer equals the
/// whole log's (a store that keeps no snapshot): for members of every family, at several
/// cuts, past the snapshot, when another family's line decides one of theirs, after an
/// erasure and when the log was changed under its snapshot; and it reads a fraction of the log.
@Suite struct FamilyHistoryTests {
    static let now = Timestamp(rfc3339: "2026-06-01T00:00:00Z")!

    /// A folder with a generated log of many families (each one's lines far apart in the file).
    static func folder() throws -> (folder: String, log: String) {
        let folder = NSTemporaryDirectory() + "compass-history-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let log = folder + "/events.jsonl"
        FileManager.default.createFile(atPath: log, contents: Data(HistoryGenerator(families: 30, events: 2_000, seed: 57).bytes()))
        return (folder, log)
    }

    /// A store on `log` that keeps snapshots (written whatever their size), through `fs`.
    static func store(_ log: String, fs: any FileSystem = POSIXFileSystem()) throws -> CompassStore {
        var configuration = CompassStore.Configuration(clock: { now }, snapshots: SnapshotPolicy(minimumNewBytes: 0))
        configuration.fileSystem = fs
        return try CompassStore(path: log, createIfMissing: false, configuration: configuration)
    }

    /// The whole log's answer: a store that keeps no snapshot.
    static func wholeLog(_ log: String) throws -> CompassStore {
        try CompassStore(path: log, createIfMissing: false, configuration: .init(clock: { now }, snapshots: nil))
    }

    /// Writes `line` at the end of the log, as another program would.
    static func append(_ line: String, to log: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data((line + "\n").utf8))
        try handle.close()
    }

    /// One parent and one athlete of each of the first `families` families.
    static func viewers(_ store: CompassStore, families: Int = 30) throws -> [String] {
        let members = try store.state().members.values.sorted { $0.userId.utf8.lexicographicallyPrecedes($1.userId.utf8) }
        var picked: [String] = []
        for family in Set(members.map(\.family)).sorted().prefix(families) {
            for role in [MemberRole.parent, .player] {
                if let member = members.first(where: { $0.family == family && $0.role == role }) { picked.append(member.userId) }
            }
        }
        return picked
    }

    /// A viewer's audit and interactions at several cuts, as bytes.
    static func history(_ store: CompassStore, _ viewer: String) throws -> [[UInt8]] {
        var answers = [try store.audit(as: viewer).flatMap(AuditJSON.line)]
        for cut: Int64 in [0, 7, 40, 1_000_000] {
            // With the problems a command warns of: the viewer's family's and those of lines of none.
            let (views, replayer) = try store.views(as: viewer, options: .init(cut: ReplayCut(atSeq: cut), scope: .familyOf(viewer),
                                                                                problems: .summary), now: now)
            let (count, first) = replayer.problemSummary.visible(to: views.viewer.family)
            answers.append(Array("\(count) \(first?.line ?? 0) \(first?.message ?? "")".utf8))
            answers.append(InteractionJSON.list(try store.interactions(as: viewer, atSeq: cut)))
            answers.append(try store.views(as: viewer, atSeq: cut).activity().items.flatMap(ActivityJSON.line))
        }
        return answers
    }

    /// Every viewer's history from a store with a snapshot equals the whole log's.
    static func expectHistoriesEqualTheWholeLog(_ log: String, viewers: [String]? = nil,
                                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let whole = try wholeLog(log)
        for viewer in try viewers ?? Self.viewers(whole, families: 4) {
            let fresh = try store(log)
            #expect(try history(fresh, viewer) == history(whole, viewer), "\(viewer)", sourceLocation: sourceLocation)
        }
    }

    @Test func aViewersHistoryFromTheirFamilysLinesEqualsTheWholeLogs() throws {
        let (folder, log) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.store(log).state()  // writes the snapshot
        try Self.expectHistoriesEqualTheWholeLog(log)
        // Lines past the snapshot, of two families: read from the log's tail, then indexed too.
        let viewers = try Self.viewers(try Self.wholeLog(log))
        let writer = try Self.store(log)
        for n in 0..<5 {
            try writer.append(.addSchool(AddSchool(name: "Past the snapshot \(n)")), as: viewers[0])
            try writer.append(.addSchool(AddSchool(name: "Past the snapshot \(n)")), as: viewers[2])
        }
        try Self.expectHistoriesEqualTheWholeLog(log, viewers: Array(viewers.prefix(6)))
    }

    @Test func aViewersHistoryReadsTheirFamilysLinesNotTheLog() throws {
        let (folder, log) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.store(log).state()
        let viewer = try Self.viewers(try Self.wholeLog(log))[0]
        let size = try #require(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int)
        for read in [{ (store: CompassStore) in _ = try store.audit(as: viewer) },
                     { (store: CompassStore) in _ = try store.interactions(as: viewer, atSeq: 40) }] {
            let fs = ShortReadFileSystem(sizes: [Int.max])
            try read(try Self.store(log, fs: fs))
            let fromLog = fs.bytesRead[log] ?? 0
            #expect(fromLog > 0 && fromLog < size / 4, "read \(fromLog) of the log's \(size) bytes")
        }
    }

    @Test func aFamilyWhoseLineAnotherFamilysDecidesIsReadFromTheWholeLog() throws {
        let (folder, log) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let whole = try Self.wholeLog(log)
        let viewers = try Self.viewers(whole)
        _ = try Self.store(log).state()
        // A line of one family whose event id another family's line already has: refused in the
        // whole log (event ids are global), though read alone it would be accepted.
        let state = try whole.state()
        let target = try #require(state.members[viewers[0]])
        let family = try #require(state.families[target.family])
        let other = try #require(state.members[viewers[2]])
        let takenId = try #require(state.families[other.family]?.statusChanges.first?.eventId
                                   ?? state.families[other.family]?.interactions.records.first?.eventId)
        let stream = try #require(try Self.store(log).verify().families.first { $0.family == family.id })
        let line = #"{"seq":\#(stream.seq + 1),"id":"\#(takenId)","type":"SchoolAdded","at":"2026-05-01T00:00:00.000Z","actor":"\#(viewers[0])","family":"\#(family.id)","data":{"schoolId":"s-dup","name":"Dup"},"prev":"\#(stream.head)"}"#
        try Self.append(line, to: log)
        #expect(try whole.audit(as: viewers[0]).last?.rejection != nil)
        try Self.expectHistoriesEqualTheWholeLog(log, viewers: Array(viewers.prefix(4)))
    }

    @Test func aLineOfNoFamilyIsWarnedOfInEveryHistory() throws {
        let (folder, log) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let viewers = try Self.viewers(try Self.wholeLog(log))
        _ = try Self.store(log).state()
        try Self.append("{not json", to: log)
        try Self.expectHistoriesEqualTheWholeLog(log, viewers: Array(viewers.prefix(2)))
    }

    @Test func aFamilysHistoryAfterAnErasureEqualsTheWholeLogs() throws {
        let (folder, log) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let viewers = try Self.viewers(try Self.wholeLog(log))
        let store = try Self.store(log)
        _ = try store.state()
        try store.erase(member: viewers[1], as: viewers[0])
        _ = try Self.store(log).state()
        try Self.expectHistoriesEqualTheWholeLog(log, viewers: [viewers[0]] + Array(viewers[2..<6]))
    }

    @Test func aLineChangedUnderTheSnapshotIsReadFromTheWholeLog() throws {
        let (folder, log) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let viewers = try Self.viewers(try Self.wholeLog(log))
        _ = try Self.store(log).state()
        // One letter of the first family's school name, changed in place: the snapshot still
        // matches the log's end, but the line no longer hashes to what the next line names.
        let family = try #require(try Self.wholeLog(log).state().members[viewers[0]]?.family)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
        let marker = Array(#""family":"\#(family)","data":{"schoolId":""#.utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: marker) })
        let name = try #require(bytes[at...].firstRange(of: Array(#""name":""#.utf8)))
        bytes[name.upperBound] = bytes[name.upperBound] == UInt8(ascii: "Q") ? UInt8(ascii: "R") : UInt8(ascii: "Q")
        try Data(bytes).write(to: URL(fileURLWithPath: log))
        try Self.expectHistoriesEqualTheWholeLog(log, viewers: Array(viewers.prefix(4)))
    }

    @Test func linesSwappedUnderTheSnapshotAreReadFromTheWholeLog() throws {
        let (folder, log) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let viewers = try Self.viewers(try Self.wholeLog(log))
        _ = try Self.store(log).state()
        // A line of the first viewer's family and a line of another family, of the same length,
        // swapped: the snapshot still matches the log's end and every place it keeps is still a
        // whole line of the same length, but one of them is another family's now.
        let family = try #require(try Self.wholeLog(log).state().members[viewers[0]]?.family)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let own = lines.indices.filter { lines[$0].contains(#""family":"\#(family)""#) }
        let swap = try #require(own.dropFirst(2).lazy.compactMap { mine in
            lines.indices.first { !lines[$0].contains(#""family":"\#(family)""#) && lines[$0].utf8.count == lines[mine].utf8.count
                && !lines[$0].isEmpty && $0 < lines.count - 1 }.map { (mine, $0) }
        }.first)
        lines.swapAt(swap.0, swap.1)
        try lines.joined(separator: "\n").write(toFile: log, atomically: false, encoding: .utf8)
        try Self.expectHistoriesEqualTheWholeLog(log, viewers: [viewers[0]])
    }

    @Test func aHistoryReadThatFailsOrIsCutShortFailsOrIsTheWholeLogs() throws {
        let (folder, log) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let viewer = try Self.viewers(try Self.wholeLog(log))[0]
        _ = try Self.store(log).state()
        let expected = try Self.history(try Self.wholeLog(log), viewer)
        // Reads that return a few bytes at a time: the same answer.
        #expect(try Self.history(try Self.store(log, fs: ShortReadFileSystem(sizes: [7, 100, 4_096])), viewer) == expected)
        // The N-th read of an audit fails (EIO), for each of its reads: an error, or the answer.
        let audit = { (store: CompassStore) in try store.audit(as: viewer).flatMap(AuditJSON.line) }
        let whole = try audit(try Self.wholeLog(log))
        let reads = ShortReadFileSystem(sizes: [Int.max])
        _ = try audit(try Self.store(log, fs: reads))
        var failed = 0
        for n in stride(from: 1, through: reads.reads, by: 1) {
            let fs = ShortReadFileSystem(sizes: [Int.max], failingRead: n)
            do {
                #expect(try audit(try Self.store(log, fs: fs)) == whole, "read \(n) failed")
            } catch let error as StoreError {
                guard case .io = error else { Issue.record("read \(n) failed: \(error)"); continue }
                failed += 1
            }
        }
        #expect(failed > 0)  // not vacuous: some failed read reached the caller
    }

    @Test func aSnapshotKeepsWhereEachFamilysLinesAre() throws {
        let bytes = HistoryGenerator(families: 5, events: 400, seed: 3).bytes()
        var replayer = Replayer()
        replayer.consume(bytes: bytes)
        let decoded = try #require(SnapshotCodec.decode(SnapshotCodec.encode(replayer.snapshot)))
        for (id, family) in replayer.state.families {
            let lines = family.lines
            #expect(lines.isWhole && lines.count == replayer.streams[family: id]?.lines)
            #expect(decoded.state.families[id]?.lines.isSame(as: lines) == true)
            // Each place is the family's line, whole, numbered as in the file.
            let fileLines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            for (number, offset, length) in lines.places {
                #expect(Array(bytes[offset..<(offset + length)]) == Array(fileLines[number - 1]))
            }
        }
    }
}
