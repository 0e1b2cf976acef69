import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// A replay that shows no text (`compass replay`) leaves the interactions' subjects and
/// contents in the log, as where they are, and reads them back only to write the snapshot:
/// the snapshot is byte for byte the one a replay holding every text writes, whatever the
/// texts, from a cold replay or one resumed from a snapshot; a text that cannot be read back
/// means no snapshot, never a wrong one. `verify`, which leaves the texts in the log too and
/// takes them from it as it compares, catches any changed byte of such a snapshot, in a text or
/// not.
@Suite struct TextsInLogTests {
    static var writeNow: SnapshotPolicy { SnapshotPolicy(minimumNewBytes: 0, afterOutput: { $0() }) }

    /// A folder holding `log` as its events file.
    static func folder(_ log: [UInt8]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("texts-in-log-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(log).write(to: URL(fileURLWithPath: directory + "/events.jsonl"))
        return directory
    }

    /// The snapshot a replay of `path` writes, with the texts left in the log or not.
    static func snapshot(of path: String, textsStayInLog: Bool, fs: FileSystem = POSIXFileSystem()) throws -> (bytes: [UInt8]?, replayer: Replayer) {
        let replayer = try LogReader.replay(path: path, fs: fs, snapshots: writeNow, scope: .summary, problems: .summary,
                                            textsStayInLog: textsStayInLog)
        let bytes = try POSIXFileSystem().readFile(path + ".snapshot")
        return (bytes, replayer)
    }

    /// Logs with every kind of text: escaped, non-ASCII, not UTF-8, empty, at and past the
    /// limits (``StagedTextTests/log()``), and a generated history of several families.
    static let logs: [[UInt8]] = [StagedTextTests.log(), HistoryGenerator(families: 5, events: 3_000, seed: 8).bytes()]

    @Test(arguments: 0..<2)
    func theSnapshotIsTheOneAReplayHoldingEveryTextWrites(log: Int) throws {
        let path = try Self.folder(Self.logs[log]) + "/events.jsonl"
        let held = try Self.snapshot(of: path, textsStayInLog: false)
        try FileManager.default.removeItem(atPath: path + ".snapshot")
        let left = try Self.snapshot(of: path, textsStayInLog: true)
        let expected = try #require(held.bytes)
        #expect(left.bytes == expected ? true : false, "the snapshots differ")  // (not printed: megabytes)
        // Not vacuous: the replay did leave texts in the log, and counts the same.
        #expect(left.replayer.state.families.values.contains { $0.interactions.holdsTextsInLog })
        #expect(!held.replayer.state.families.values.contains { $0.interactions.holdsTextsInLog })
        #expect(left.replayer.state.appliedCount == held.replayer.state.appliedCount)
        #expect(left.replayer.state.liveInteractionCount == held.replayer.state.liveInteractionCount)
        #expect(left.replayer.problems == held.replayer.problems)
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

    /// An honest snapshot verifies; a snapshot with any one byte changed (in a subject or
    /// content, or anywhere else) does not, and is removed.
    @Test func verifyCatchesAChangedByteOfTheSnapshotInATextOrNot() throws {
        let log = HistoryGenerator(families: 2, events: 300, seed: 12).bytes()
        let path = try Self.folder(log) + "/events.jsonl"
        let honest = try #require(try Self.snapshot(of: path, textsStayInLog: false).bytes)
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
        #expect(inTexts.count >= 10)
        var rng = SplitMix64(seed: 12)
        let spread = (0..<60).map { _ in rng.below(honest.count) }
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

    @Test func aReplayResumedFromASnapshotLeavesOnlyTheNewTextsAndWritesTheSameSnapshot() throws {
        let history = HistoryGenerator(families: 3, events: 2_000, seed: 9).bytes()
        let cut = history[..<(history.count / 2)].lastIndex(of: 0x0A)! + 1
        let path = try Self.folder(Array(history[..<cut])) + "/events.jsonl"
        _ = try Self.snapshot(of: path, textsStayInLog: true)  // the first half's snapshot
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(history[cut...]))
        handle.closeFile()
        let left = try Self.snapshot(of: path, textsStayInLog: true)
        try FileManager.default.removeItem(atPath: path + ".snapshot")
        let held = try Self.snapshot(of: path, textsStayInLog: false)
        #expect(left.bytes != nil && left.bytes == held.bytes ? true : false, "the snapshots differ")
    }

    /// Every read of the log failed in turn, while the snapshot is written: a snapshot is
    /// written whole and right, or not at all; the replay's answer never changes.
    @Test func aTextThatCannotBeReadBackMeansNoSnapshotNeverAWrongOne() throws {
        let log = HistoryGenerator(families: 2, events: 200, seed: 10).bytes()
        let directory = try Self.folder(log)
        let path = directory + "/events.jsonl"
        let expected = try #require(try Self.snapshot(of: path, textsStayInLog: false).bytes)
        try FileManager.default.removeItem(atPath: path + ".snapshot")
        var failedReads = 0
        var step = 1
        while true {
            let fs = FaultyFileSystem(root: directory, failAt: step, fault: .error)
            let result: (bytes: [UInt8]?, replayer: Replayer)
            do {
                result = try Self.snapshot(of: path, textsStayInLog: true, fs: fs)
            } catch {
                // The replay's own read failed: an error, and no snapshot.
                let left = try POSIXFileSystem().readFile(path + ".snapshot")
                #expect(fs.hitFault && left == nil, "\(error)")
                step += 1
                continue
            }
            #expect(result.replayer.state.appliedCount == 200, "step \(step): \(fs.injected ?? "no fault")")
            if let bytes = result.bytes {
                #expect(bytes == expected ? true : false, "a wrong snapshot at step \(step): \(fs.injected ?? "no fault")")
                try FileManager.default.removeItem(atPath: path + ".snapshot")
            } else if fs.injected?.contains(": read ") == true {
                failedReads += 1  // a text (or the log's end) that could not be read back
            }
            guard fs.hitFault else { break }
            step += 1
        }
        #expect(failedReads > 0)  // texts were read back, and a failed read was survived
    }
}
