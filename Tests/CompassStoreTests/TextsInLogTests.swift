import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// A replay that shows no text (`compass replay`) leaves the interactions' subjects and
/// contents in the log, as where they are, and its snapshot keeps them as their ranges there:
/// read with the log, that snapshot is the state a replay holding every text has, whatever the
/// texts; a replay resumed from it writes the same snapshot as a cold one; a read that shows
/// texts reads them back from the log, and one that cannot goes back to the log whole, never
/// to a wrong text. A snapshot holding the texts (one written when they could not be read
/// back) is read back to be written again
/// after such a replay; a text that cannot be read back means no snapshot, never a wrong one.
/// `verify`, which leaves the texts in the log too, catches any changed byte of either kind of
/// snapshot, in a text or not.
@Suite struct TextsInLogTests {
    static var writeNow: SnapshotPolicy { SnapshotPolicy(minimumNewBytes: 0, afterOutput: { $0() }) }

    /// A folder holding `log` as its events file.
    static func folder(_ log: [UInt8]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("texts-in-log-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(log).write(to: URL(fileURLWithPath: directory + "/events.jsonl"))
        return directory
    }

    /// The snapshot a replay of `path` writes, with the texts left in the log or not (then
    /// copied as they are folded, and held in the snapshot: what a read writes when it cannot
    /// read them back).
    static func snapshot(of path: String, textsStayInLog: Bool, fs: FileSystem = POSIXFileSystem()) throws -> (bytes: [UInt8]?, replayer: Replayer) {
        let replayer = try LogReader.replay(path: path, fs: fs, snapshots: writeNow, scope: .summary, problems: .summary,
                                            textsStayInLog: textsStayInLog, keepingRanges: textsStayInLog)
        let bytes = try POSIXFileSystem().readFile(path + ".snapshot")
        return (bytes, replayer)
    }

    /// Logs with every kind of text: escaped, non-ASCII, not UTF-8, empty, at and past the
    /// limits (``StagedTextTests/log()``), and a generated history of several families.
    static let logs: [[UInt8]] = [StagedTextTests.log(), HistoryGenerator(families: 5, events: 3_000, seed: 8).bytes()]

    /// The state a snapshot holds, its texts kept as ranges read back from the log at `path`.
    static func state(of snapshot: [UInt8], log path: String) throws -> CompassState? {
        let fd = try #require(try POSIXFileSystem().open(path, .read))
        defer { POSIXFileSystem().close(fd) }
        let read = { (range: Range<Int>) -> [UInt8]? in range.upperBound <= snapshot.count ? Array(snapshot[range]) : nil }
        return SnapshotIndex.open(size: snapshot.count, read: read)?.whole(read: read, readLog: { range, buffer in
            (try? POSIXFileSystem().read(fd, range, into: &buffer, path: path)) ?? false
        })?.state
    }

    @Test(arguments: 0..<2)
    func theSnapshotKeepsTheTextsAsRangesAndReadWithTheLogIsTheStateThatHoldsThem(log: Int) throws {
        let path = try Self.folder(Self.logs[log]) + "/events.jsonl"
        let held = try Self.snapshot(of: path, textsStayInLog: false)
        #expect(try LogVerifier.verify(path: path, fs: POSIXFileSystem(), expectHead: nil, problems: nil).snapshot == .verified)
        try FileManager.default.removeItem(atPath: path + ".snapshot")
        let left = try Self.snapshot(of: path, textsStayInLog: true)
        let (heldBytes, leftBytes) = (try #require(held.bytes), try #require(left.bytes))
        #expect(leftBytes.count < heldBytes.count)  // the texts are not in it
        // Read with the log, it is the state of the replay that holds every text (the families
        // compared record by record, every text read back); without the log, it is incomplete.
        let state = try #require(try Self.state(of: leftBytes, log: path))
        #expect(state.families == held.replayer.state.families)
        #expect(!state.families.values.contains { $0.interactions.holdsTextsInLog })
        #expect(SnapshotCodec.decode(leftBytes) == nil)
        #expect(SnapshotCodec.decode(heldBytes) != nil)
        #expect(try LogVerifier.verify(path: path, fs: POSIXFileSystem(), expectHead: nil, problems: nil).snapshot == .verified)
        // A query resumed from it shows what a cold one shows.
        let shown = try LogReader.replay(path: path, fs: POSIXFileSystem(), snapshots: SnapshotPolicy(minimumNewBytes: .max), problems: .summary)
        #expect(shown.state.families == held.replayer.state.families)
        #expect(!shown.state.families.values.contains { $0.interactions.holdsTextsInLog })
        // Not vacuous: the replay did leave texts in the log, and counts the same.
        #expect(left.replayer.state.families.values.contains { $0.interactions.holdsTextsInLog })
        #expect(!held.replayer.state.families.values.contains { $0.interactions.holdsTextsInLog })
        #expect(left.replayer.state.appliedCount == held.replayer.state.appliedCount)
        #expect(left.replayer.state.liveInteractionCount == held.replayer.state.liveInteractionCount)
        #expect(left.replayer.problems == held.replayer.problems)
    }

    /// One snapshot whichever read writes it (issue 57, item 7): an app's first read of a
    /// viewer's family or of the whole state, which show texts, and `compass replay`, which
    /// shows none, write the same bytes, holding no text; and each shows every text.
    @Test(arguments: 0..<2)
    func everyReadWritesTheSameSnapshot(log: Int) throws {
        let path = try Self.folder(Self.logs[log]) + "/events.jsonl"
        let snapshot = path + ".snapshot"
        var full = Replayer()
        full.consume(bytes: Self.logs[log])
        let viewer = try #require(full.state.members.values.first { $0.role == .parent }?.userId)
        let expected = try #require(try Self.snapshot(of: path, textsStayInLog: true).bytes)
        #expect(SnapshotCodec.decode(expected) == nil)  // its texts are in the log, not in it
        let store = { try CompassStore(path: path, createIfMissing: false, configuration: .init(snapshots: SnapshotPolicy(minimumNewBytes: 0))) }
        let family = try #require(full.state.members[viewer]?.family)
        let reads: [(CompassStore) throws -> Void] = [
            { store in
                let state = try store.state()
                #expect(state.families == full.state.families)
            },
            { store in
                let state = try store.state(for: viewer)
                #expect(state.families[family] == full.state.families[family])
            },
        ]
        for read in reads {
            try FileManager.default.removeItem(atPath: snapshot)
            try read(try store())
            #expect(try POSIXFileSystem().readFile(snapshot) == expected)
            try read(try store())  // and from that snapshot, the texts read back
        }
    }

    /// A span of the log gives back its offset and length at the edges of what it addresses;
    /// a text past that (a log over 512 GiB) is copied instead, never cut.
    @Test func aLogSpanAddressesItsTextAndATextPastItsReachIsCopied() {
        for (offset, length) in [(0, 1), (TextSpan.logLimit - 1, 30_000), (123_456_789, TextSpan.longLength - 1)] {
            let span = TextSpan.inLog(offset: offset, length: length)
            #expect(span.isInLog && !span.isNone && span.logRange == offset..<(offset + length))
        }
        #expect(!TextSpan.none.isInLog && !TextSpan(chunk: (1 << 23) - 1, start: 65_535, length: 7).isInLog)
        var staging = StagedTexts()
        staging.subject = 40..<45
        let bytes: [UInt8] = Array(String(repeating: "-", count: 40).utf8) + Array("hello, there".utf8)
        bytes.withUnsafeBufferPointer { line in
            var arena = TextArena()
            let near = StagedBytes(staging, inLine: line, lineOffset: TextSpan.logLimit - 100).span(.subject, in: &arena)
            #expect(near?.logRange == (TextSpan.logLimit - 60)..<(TextSpan.logLimit - 55))
            let far = StagedBytes(staging, inLine: line, lineOffset: TextSpan.logLimit).span(.subject, in: &arena)
            #expect(far.map { !$0.isInLog && arena.string($0) == "hello" } == true)
            #expect(StagedBytes(staging, inLine: line).span(.content, in: &arena) == nil)
        }
    }

    /// An honest snapshot verifies, holding its texts or keeping them as ranges of the log; a
    /// snapshot with any one byte changed (in a subject or content, or anywhere else) does not,
    /// and is removed.
    @Test(arguments: [false, true])
    func verifyCatchesAChangedByteOfTheSnapshotInATextOrNot(asRanges: Bool) throws {
        let log = HistoryGenerator(families: 2, events: 300, seed: 12).bytes()
        let path = try Self.folder(log) + "/events.jsonl"
        let honest = try #require(try Self.snapshot(of: path, textsStayInLog: asRanges).bytes)
        let report = try LogVerifier.verify(path: path, fs: POSIXFileSystem(), expectHead: nil, problems: nil)
        #expect(report.snapshot == .verified)
        // Positions inside texts: the bytes of every content in the snapshot that holds a given
        // content of the log; and positions spread over the whole file.
        let text = String(decoding: log, as: UTF8.self)
        let contents = text.split(separator: "\n").compactMap { line -> [UInt8]? in
            guard let start = line.range(of: #""content":""#)?.upperBound else { return nil }
            let value = line[start...].prefix { $0 != "\"" }
            return value.count > 8 ? Array(value.utf8) : nil
        }
        var inTexts: [Int] = []
        for content in contents.prefix(40) {
            if let at = honest.indices.first(where: { honest[$0...].starts(with: content) }) { inTexts.append(at + content.count / 2) }
        }
        #expect(asRanges ? inTexts.isEmpty : inTexts.count >= 10)  // (as ranges, no text is in it)
        var rng = SplitMix64(seed: 12)
        let spread = (0..<(asRanges ? 120 : 60)).map { _ in rng.below(honest.count) }
        for position in inTexts + spread {
            var forged = honest
            forged[position] = forged[position] == UInt8(ascii: "e") ? UInt8(ascii: "a") : UInt8(ascii: "e")  // same length
            try Data(forged).write(to: URL(fileURLWithPath: path + ".snapshot"))
            let checked = try LogVerifier.verify(path: path, fs: POSIXFileSystem(), expectHead: nil, problems: nil)
            #expect(checked.snapshot == .mismatched || checked.snapshot == .stale, "byte \(position) changed: \(checked.snapshot)")
            #expect(!FileManager.default.fileExists(atPath: path + ".snapshot"), "byte \(position): the snapshot was kept")
        }
    }

    /// A forger who changes a text and writes every checksum again (the snapshot re-encoded
    /// whole, its digests consistent) is still caught: the text is not the log's.
    @Test func verifyCatchesATextForgedWithConsistentChecksums() throws {
        let log = HistoryGenerator(families: 2, events: 300, seed: 13).bytes()
        let path = try Self.folder(log) + "/events.jsonl"
        let honest = try #require(try Self.snapshot(of: path, textsStayInLog: false).bytes)
        var snapshot = try #require(SnapshotCodec.decode(honest))
        var family = try #require(snapshot.state.families.values.max { $0.interactions.count < $1.interactions.count })
        var records = Array(family.interactions.records)
        let index = try #require(records.indices.first { (records[$0].logged.content?.count ?? 0) > 8 })
        let content = records[index].logged.content!
        records[index].logged.content = String(content.dropLast()) + (content.last == "e" ? "a" : "e")  // same length
        var table = InteractionTable()
        for record in records { table.append(record) }
        family.interactions = table
        snapshot.state.families.set(family)
        let forged = SnapshotCodec.encode(snapshot)
        #expect(forged.count == honest.count && forged != honest)
        try Data(forged).write(to: URL(fileURLWithPath: path + ".snapshot"))
        let report = try LogVerifier.verify(path: path, fs: POSIXFileSystem(), expectHead: nil, problems: nil)
        #expect(report.snapshot == .mismatched)
        #expect(!FileManager.default.fileExists(atPath: path + ".snapshot"))
    }

    /// A log of a generated history whose first half has a snapshot, written by a replay that
    /// left its texts in the log or not, and whose second half came after it.
    static func halfSnapshotted(seed: UInt64, textsStayInLog: Bool) throws -> String {
        let history = HistoryGenerator(families: 3, events: 2_000, seed: seed).bytes()
        let cut = history[..<(history.count / 2)].lastIndex(of: 0x0A)! + 1
        let path = try folder(Array(history[..<cut])) + "/events.jsonl"
        _ = try snapshot(of: path, textsStayInLog: textsStayInLog)  // the first half's snapshot
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(history[cut...]))
        handle.closeFile()
        return path
    }

    @Test func aReplayResumedFromASnapshotLeavesOnlyTheNewTextsAndWritesTheSameSnapshot() throws {
        let path = try Self.halfSnapshotted(seed: 9, textsStayInLog: true)
        let left = try Self.snapshot(of: path, textsStayInLog: true)
        try FileManager.default.removeItem(atPath: path + ".snapshot")
        let cold = try Self.snapshot(of: path, textsStayInLog: true)
        #expect(left.bytes != nil && left.bytes == cold.bytes ? true : false, "the snapshots differ")
        try FileManager.default.removeItem(atPath: path + ".snapshot")
        let held = try Self.snapshot(of: path, textsStayInLog: false)
        #expect(try Self.state(of: try #require(left.bytes), log: path)?.families == held.replayer.state.families)
    }

    /// A query resumed from a snapshot that keeps its texts as ranges, with every operation
    /// failed in turn: it shows every text right (read back, or the log replayed whole when a
    /// text cannot be), or fails with an error; never a wrong or missing text.
    @Test(arguments: [false, true])
    func aQueryWhoseTextsCannotBeReadBackReadsTheLogNeverAWrongText(oneFamily: Bool) throws {
        let log = HistoryGenerator(families: 2, events: 300, seed: 14).bytes()
        let directory = try Self.folder(log)
        let path = directory + "/events.jsonl"
        let held = try LogReader.replay(path: path, fs: POSIXFileSystem(), problems: .summary).state
        // The whole state, or (as a query reads) the members and one member's family.
        let member = try #require(held.members.values.min { $0.userId < $1.userId })
        let scope: ReplayScope = oneFamily ? .familyOf(member.userId) : .everything
        let compared = { (state: CompassState) in oneFamily ? [state.families[member.family]] : state.families.values.map { $0 } }
        let ranges = try #require(try Self.snapshot(of: path, textsStayInLog: true).bytes)
        var textReadsFailed = 0
        var step = 1
        while true {
            try Data(ranges).write(to: URL(fileURLWithPath: path + ".snapshot"))
            let fs = FaultyFileSystem(root: directory, failAt: step, fault: .error)
            let shown: CompassState
            do {
                shown = try LogReader.replay(path: path, fs: fs, snapshots: SnapshotPolicy(minimumNewBytes: .max), scope: scope,
                                             problems: .summary).state
            } catch {
                #expect(fs.hitFault, "\(error)")
                step += 1
                continue
            }
            #expect(compared(shown) == compared(held), "step \(step): \(fs.injected ?? "no fault")")
            #expect(!compared(shown).contains { $0?.interactions.holdsTextsInLog ?? true })
            // A failed read of the log that the query survived: a text read back, or the line
            // the snapshot's prefix ends with.
            if let injected = fs.injected, injected.contains(": read "), injected.hasSuffix("events.jsonl") { textReadsFailed += 1 }
            guard fs.hitFault else { break }
            step += 1
        }
        #expect(textReadsFailed >= 1)  // (read back a row at a time for one family, in one block for all)
    }

    /// Every family's texts read back together, in the log's order a block at a time, are the
    /// texts each family reads back on its own, a row at a time, whatever the block's size.
    @Test(arguments: 0..<2)
    func textsReadBackTogetherInBlocksAreTheOnesReadBackRowByRow(log: Int) throws {
        let path = try Self.folder(Self.logs[log]) + "/events.jsonl"
        let snapshot = try #require(try Self.snapshot(of: path, textsStayInLog: true).bytes)
        let fd = try #require(try POSIXFileSystem().open(path, .read))
        defer { POSIXFileSystem().close(fd) }
        var reads = 0
        let readLog = { (range: Range<Int>, buffer: inout [UInt8]) -> Bool in
            reads += 1
            return (try? POSIXFileSystem().read(fd, range, into: &buffer, path: path)) ?? false
        }
        let read = { (range: Range<Int>) -> [UInt8]? in range.upperBound <= snapshot.count ? Array(snapshot[range]) : nil }
        let index = try #require(SnapshotIndex.open(size: snapshot.count, read: read))
        let left = try index.familyIds.map { try #require(index.family($0, read: read)) }
        #expect(left.contains { $0.interactions.holdsTextsInLog })
        let rowByRow = try left.map { family -> InteractionTable in
            var table = family.interactions
            let readBack = table.readTextsBack(readLog)
            #expect(readBack)
            return table
        }
        let rowReads = reads
        for blockSize in [1, 97, 4_096, 4 << 20] {
            var tables = left.map(\.interactions)
            reads = 0
            let readBack = InteractionTable.readTextsBack(&tables, blockSize: blockSize, readLog)
            #expect(readBack)
            #expect(tables == rowByRow, "block size \(blockSize)")
            #expect(!tables.contains { $0.holdsTextsInLog })
            if blockSize == 4 << 20 { #expect(reads < rowReads / 10, "\(reads) reads against \(rowReads)") }
        }
        // A read that cannot be made says so.
        var tables = left.map(\.interactions)
        let refused = !InteractionTable.readTextsBack(&tables, blockSize: 4_096) { _, _ in false }
        #expect(refused)
    }

    /// A store reads one viewer's family from a snapshot that keeps its texts as ranges, then
    /// other families long after that first read returned: each family's texts are read back
    /// from the log the snapshot belongs to, and are the texts a cold read shows.
    @Test func aStoreLoadsFamiliesFromARangesSnapshotLongAfterItsFirstRead() throws {
        let log = HistoryGenerator(families: 4, events: 1_200, seed: 15).bytes()
        let path = try Self.folder(log) + "/events.jsonl"
        let held = try LogReader.replay(path: path, fs: POSIXFileSystem(), problems: .summary).state
        _ = try Self.snapshot(of: path, textsStayInLog: true)
        let members = held.members.values.sorted { $0.userId < $1.userId }
        let viewers = Dictionary(members.map { ($0.family, $0) }, uniquingKeysWith: { first, _ in first }).values.sorted { $0.userId < $1.userId }
        #expect(viewers.count == 4)
        let store = try CompassStore(path: path, createIfMissing: false, configuration: .init(snapshots: SnapshotPolicy(minimumNewBytes: .max)))
        // Another file of the same size, every text in it different, held open while each
        // family is loaded: it takes the lowest free descriptor numbers, a closed one's too.
        let other = path + ".other"
        try Data(log.map { $0 == UInt8(ascii: "e") ? UInt8(ascii: "a") : $0 }).write(to: URL(fileURLWithPath: other))
        for viewer in viewers {
            let opened = (0..<4).compactMap { _ in try? POSIXFileSystem().open(other, .read) }
            defer { for fd in opened { POSIXFileSystem().close(fd) } }
            let shown = try store.state(for: viewer.userId)
            #expect(shown.families[viewer.family] == held.families[viewer.family], "family \(viewer.family)")
            #expect(shown.families[viewer.family]?.interactions.holdsTextsInLog == false)
        }
        #expect(try store.state().families == held.families)
        // The same through a replay the reader has returned (its own descriptor of the log
        // closed): a family loaded afterwards still has its texts read back, none missing.
        let user = viewers[0]
        var replayer = try LogReader.replay(path: path, fs: POSIXFileSystem(), snapshots: SnapshotPolicy(minimumNewBytes: .max),
                                            scope: .familyOf(user.userId), problems: .summary)
        let opened = (0..<4).compactMap { _ in try? POSIXFileSystem().open(other, .read) }
        defer { for fd in opened { POSIXFileSystem().close(fd) } }
        for viewer in viewers.dropFirst() {
            #expect(replayer.state.families[viewer.family] == nil)  // not read yet
            replayer.load(families: [viewer.family])
            #expect(!replayer.deferredFailed)
            #expect(replayer.state.families[viewer.family] == held.families[viewer.family], "family \(viewer.family)")
        }
    }

    /// A replay that leaves texts in the log, resumed from a snapshot that holds them (a
    /// query's), holds some and leaves others: it reads the ones it left back and writes a
    /// snapshot that holds them all, the bytes a query replaying it all writes.
    @Test func aReplayResumedFromASnapshotHoldingTextsWritesOneHoldingThemAll() throws {
        let path = try Self.halfSnapshotted(seed: 11, textsStayInLog: false)  // the first half's holds its texts
        let left = try Self.snapshot(of: path, textsStayInLog: true)
        try FileManager.default.removeItem(atPath: path + ".snapshot")
        let held = try Self.snapshot(of: path, textsStayInLog: false)
        #expect(left.bytes != nil && left.bytes == held.bytes ? true : false, "the snapshots differ")
    }

    /// Every read of the log failed in turn, while the snapshot is written: a snapshot is
    /// written whole and right, or not at all; the replay's answer never changes. The replay
    /// resumes from a snapshot holding the first half's texts, so the texts it leaves are read
    /// back to be written.
    @Test func aTextThatCannotBeReadBackMeansNoSnapshotNeverAWrongOne() throws {
        let history = HistoryGenerator(families: 2, events: 400, seed: 10).bytes()
        let cut = history[..<(history.count / 2)].lastIndex(of: 0x0A)! + 1
        let directory = try Self.folder(history)
        let path = directory + "/events.jsonl"
        let expected = try #require(try Self.snapshot(of: path, textsStayInLog: false).bytes)
        try FileManager.default.removeItem(atPath: path + ".snapshot")
        // (A snapshot that cannot be read makes the replay start over from the log: it then
        // writes the cold replay's, with the texts as ranges.)
        let cold = try #require(try Self.snapshot(of: path, textsStayInLog: true).bytes)
        try FileManager.default.removeItem(atPath: path + ".snapshot")
        let firstHalf = try Self.folder(Array(history[..<cut]))
        _ = try Self.snapshot(of: firstHalf + "/events.jsonl", textsStayInLog: false)
        let resumable = try #require(try POSIXFileSystem().readFile(firstHalf + "/events.jsonl.snapshot"))
        var failedReads = 0
        var step = 1
        while true {
            try Data(resumable).write(to: URL(fileURLWithPath: path + ".snapshot"))
            let fs = FaultyFileSystem(root: directory, failAt: step, fault: .error)
            let result: (bytes: [UInt8]?, replayer: Replayer)
            do {
                result = try Self.snapshot(of: path, textsStayInLog: true, fs: fs)
            } catch {
                // The replay's own read failed: an error, and no new snapshot.
                let left = try POSIXFileSystem().readFile(path + ".snapshot")
                #expect(fs.hitFault && (left == nil || left == resumable), "\(error)")
                step += 1
                continue
            }
            #expect(result.replayer.state.appliedCount == 400, "step \(step): \(fs.injected ?? "no fault")")
            if let bytes = result.bytes, bytes != resumable {
                #expect(bytes == expected || bytes == cold ? true : false, "a wrong snapshot at step \(step): \(fs.injected ?? "no fault")")
            } else if fs.injected?.contains(": read ") == true {
                failedReads += 1  // a text (or the log's end) that could not be read back
            }
            guard fs.hitFault else { break }
            step += 1
        }
        #expect(failedReads > 0)  // texts were read back, and a failed read was survived
    }
}
