import Foundation
import Testing
@testable import CompassCore
@testable import CompassStore

/// The streamed reader (blocks that double, chunks prepared on two threads, the last block
/// folded while it is being prepared) against the plain replay of the same bytes in memory:
/// whole logs, logs that end in a torn line, and every kind of cut, at chunk and block edges
/// and inside the last block.
@Suite struct StreamedReplayTests {
    /// The facts a replay ends with: position, chain, problems and the whole folded state.
    struct Outcome: Equatable {
        var state: CompassState
        var problems: [Problem]
        var linesRead: Int, lastSeq: Int64, headHash: String, consumedBytes: Int, tornLine: Int?, reachedCut: Bool
        init(_ r: Replayer) {
            state = r.state
            problems = r.problems
            linesRead = r.linesRead
            lastSeq = r.lastSeq
            headHash = r.headHash
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
}
