import Foundation
import Testing
@testable import CompassCore
@testable import CompassStore
import CompassTestSupport

/// The streamed reader (blocks that double, chunks prepared on two threads, the last block
/// folded while it is being prepared) against the plain replay of the same bytes in memory:
/// whole logs, logs that end in a torn line, and every kind of cut, at chunk and block edges
/// and inside the last block.
@Suite struct StreamedReplayTests {
    /// The facts a replay ends with: position, chain, problems and the whole folded state.
    struct Outcome: Equatable {
        var state: CompassState
        var problems: [Problem]
        var linesRead: Int, streams: StreamTable, lastLineHash: String, consumedBytes: Int, tornLine: Int?, reachedCut: Bool
        init(_ r: Replayer) {
            state = r.state
            problems = r.problems
            linesRead = r.linesRead
            streams = r.streams
            lastLineHash = r.lastLineHash
            consumedBytes = r.consumedBytes
            tornLine = r.tornLine
            reachedCut = r.reachedCut
        }
    }

    static func streamed(_ bytes: [UInt8], cut: ReplayCut) throws -> Outcome {
        let path = NSTemporaryDirectory() + "streamed-\(UUID().uuidString).jsonl"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return Outcome(try LogReader.replay(path: path, fs: POSIXFileSystem(), cut: cut))
    }

    static func inMemory(_ bytes: [UInt8], cut: ReplayCut) -> Outcome {
        var replayer = Replayer(cut: cut)
        replayer.consume(bytes: bytes)
        return Outcome(replayer)
    }

    @Test func aStreamedReplayEqualsTheReplayInMemoryWhateverTheCut() throws {
        // 7,000 lines: blocks of 1,024, 2,048 and then the last ~3,900 lines in 31 chunks.
        let log = HistoryGenerator(families: 3, events: 7_000, seed: 11).bytes()
        var rng = SplitMix64(seed: 12)
        var seqs: [Int64] = [1, 127, 128, 129, 1_024, 1_025, 3_072, 3_073, 3_200, 6_999, 7_000]
        seqs += (0..<6).map { _ in Int64(3_073 + rng.below(3_927)) }
        for seq in seqs {
            let cut = ReplayCut(atSeq: seq)
            #expect(try Self.streamed(log, cut: cut) == Self.inMemory(log, cut: cut), "cut at seq \(seq)")
        }
        let whole = try Self.streamed(log, cut: ReplayCut())
        #expect(whole == Self.inMemory(log, cut: ReplayCut()))
        #expect(whole.linesRead == 7_000 && whole.problems.isEmpty)
        // A cut in time, and a log whose last line is torn.
        let asOf = ReplayCut(asOf: Timestamp(rfc3339: "2025-09-01T00:00:00Z"))
        #expect(try Self.streamed(log, cut: asOf) == Self.inMemory(log, cut: asOf))
        let torn = Array(log.dropLast(40))
        #expect(try Self.streamed(torn, cut: ReplayCut()) == Self.inMemory(torn, cut: ReplayCut()))
    }

    /// Event ids in UUID form are keyed while the line is prepared and their table slot is
    /// prefetched a few lines ahead of the fold: a repeated id is still refused wherever it is
    /// (next line, within the prefetch distance, across chunks and blocks).
    @Test func aRepeatedEventIdIsRefusedWhereverItIsInTheStream() throws {
        let log = HistoryGenerator(families: 2, events: 3_000, seed: 5).bytes()
        var lines = log.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        // A copy of line `from` is put in right after line `after` (0-based, original order):
        // the next line, within the prefetch distance, at chunk (128) and block edges, far on.
        let copies = [(10, 10), (20, 23), (100, 127), (127, 128), (1_000, 1_024), (5, 2_998), (2_000, 2_999)]
        var expected: [Int] = []
        for (from, after) in copies.sorted(by: { $0.1 > $1.1 }) {
            lines.insert(lines[from], at: after + 1)
        }
        for (index, (_, after)) in copies.sorted(by: { $0.1 < $1.1 }).enumerated() {
            expected.append(after + 1 + index + 1)  // 1-based, after the copies put in before it
        }
        let text = String(decoding: lines[copies[0].0], as: UTF8.self)
        let idStart = text.range(of: "\"id\":\"")!.upperBound
        #expect(EventIdKey(String(text[idStart...].prefix(36))).isUUID, "the generator writes UUID-form ids")
        let bytes = Array(lines.joined(separator: [0x0A])) + [0x0A]
        let streamed = try Self.streamed(bytes, cut: ReplayCut())
        let duplicates = streamed.problems.filter { $0.kind == .duplicate }
        #expect(duplicates.map(\.line) == expected)
        #expect(duplicates.allSatisfy { $0.message.hasPrefix("duplicate event id ") })
        #expect(streamed.state.appliedCount == 3_000)
        #expect(streamed == Self.inMemory(bytes, cut: ReplayCut()))
    }

    /// The log is read into buffers that take turns (the next bytes are read into one while
    /// another's lines are prepared), a partial line carried from one to the next. Reads that
    /// come back short, of every size from a byte to more than the block, give the same replay
    /// as the bytes in memory: lines split across many reads, a 300 KB line that outgrows a
    /// buffer, a line past the 1 MiB limit hashed as it streams by, a torn end. A block still
    /// to fold reads its staged texts in its buffer: when a long line's reads go by without a
    /// block, it is folded before its buffer is read into again (without that, this fails).
    @Test func shortReadsCarryEveryPartialLineIntoTheOtherBuffer() throws {
        var lines = HistoryGenerator(families: 2, events: 1_500, seed: 3).bytes().split(separator: 0x0A).map(Array.init)
        lines.insert(Array("{\"long\":\"".utf8) + [UInt8](repeating: 0x61, count: 300_000) + Array("\"}".utf8), at: 400)
        lines.insert([UInt8](repeating: 0x7B, count: Replayer.maxLineBytes + 5_000), at: 900)
        let log = Array(lines.joined(separator: [0x0A])) + [0x0A]
        let path = NSTemporaryDirectory() + "short-reads-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        for bytes in [log, Array(log.dropLast(25))] {
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            let expected = Self.inMemory(bytes, cut: ReplayCut())
            #expect(expected.problems.map(\.line).prefix(2) == [401, 901] && expected.problems[1].message == "line too long")
            for sizes in [[1 << 23], [100_003], [4_099, 1, 65_537, 7], [1_048_575, 2], [333]] {
                let fs = ShortReadFileSystem(sizes: sizes)
                let streamed = Outcome(try LogReader.replay(path: path, fs: fs))
                // Compared as a Bool: the outcome's description runs to megabytes.
                #expect(streamed == expected ? true : false, "reads of \(sizes) bytes: \(streamed.problems) after \(streamed.linesRead) lines")
                #expect(sizes != [333] || fs.reads > bytes.count / 333, "every read was short")
            }
        }
    }

    /// A read that fails, at any point of the log (the first read, one made while a block was
    /// being prepared, the last), fails the replay: never a state from part of the log.
    @Test func aFailedReadAnywhereFailsTheReplay() throws {
        let log = HistoryGenerator(families: 2, events: 2_000, seed: 4).bytes()
        let path = NSTemporaryDirectory() + "failed-read-\(UUID().uuidString).jsonl"
        FileManager.default.createFile(atPath: path, contents: Data(log))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reads = ShortReadFileSystem(sizes: [50_000])
        _ = try LogReader.replay(path: path, fs: reads)
        #expect(reads.reads > 10)
        for failing in 1...reads.reads {
            #expect(throws: StoreError.self, "read \(failing) of \(reads.reads)") {
                try LogReader.replay(path: path, fs: ShortReadFileSystem(sizes: [50_000], failingRead: failing))
            }
        }
    }

    /// Generated logs broken in every way a line can be (bits flipped, bytes inserted or
    /// overwritten with JSON's own, lines cut short, repeated, swapped, dropped or padded, a
    /// letter written as a `\u` escape) replay streamed, through every fast path (ids kept as
    /// keys, texts staged, the envelope read from the tape), exactly as in memory.
    /// `COMPASS_MUTATED_LOGS` sets how many (a soak of 2,081 found nothing).
    @Test func mutatedLogsReplayStreamedAsInMemory() throws {
        let count = ProcessInfo.processInfo.environment["COMPASS_MUTATED_LOGS"].flatMap { Int($0) } ?? 24
        var compared = 0
        for seed in 1...UInt64(count) {
            var rng = SplitMix64(seed: 0x5EED_0000 + seed)
            let log = LogBreaker.broken(HistoryGenerator(families: 1 + rng.below(3), events: 200 + rng.below(1_500), seed: seed).bytes(), rng: &rng)
            // A log whose first line lost its `seq` reads as one chain for all families (v2):
            // the streamed reader refuses it before replaying, as the command does.
            guard let streamed = try? Self.streamed(log, cut: ReplayCut()) else { continue }
            compared += 1
            #expect(streamed == Self.inMemory(log, cut: ReplayCut()), "seed \(seed)")
        }
        #expect(compared > count * 3 / 4)
    }
}
