import Foundation
import Testing
@testable import CompassCore
@testable import CompassStore

/// `verify` compares the stored snapshot with the one the replay would write, piece by piece,
/// a batch of family sections at a time through one reused read buffer: any byte that differs,
/// anywhere, and any length that differs, is a mismatch; the honest snapshot matches.
@Suite struct SnapshotCompareTests {
    @Test func everyChangedByteAndEveryChangedLengthIsAMismatch() throws {
        // 40 families: two batches of sections (a batch is 32), each section encoded on every core.
        var replayer = Replayer()
        replayer.consume(bytes: HistoryGenerator(families: 40, events: 4_000, seed: 21).bytes())
        let snapshot = replayer.snapshot
        let honest = SnapshotCodec.encode(snapshot)
        let path = NSTemporaryDirectory() + "compare-\(UUID().uuidString).snapshot"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fs = POSIXFileSystem()
        func matches(_ bytes: [UInt8]) throws -> Bool {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            guard let fd = try fs.open(path, .read) else { throw StoreError.noLog(path: path) }
            defer { fs.close(fd) }
            return try LogVerifier.storedSnapshot(fd, path: path, equals: snapshot, fs: fs)
        }
        #expect(try matches(honest))
        var rng = SplitMix64(seed: 22)
        var positions = [0, 8, 64, honest.count / 2, honest.count - 64, honest.count - 1]
        positions += (0..<24).map { _ in rng.below(honest.count) }
        for position in positions {
            var flipped = honest
            flipped[position] ^= 0x20
            #expect(try !matches(flipped), "a byte changed at \(position) of \(honest.count)")
        }
        #expect(try !matches(Array(honest.dropLast())))
        #expect(try !matches(honest + [0x0A]))
        #expect(try !matches([]))
    }
}
