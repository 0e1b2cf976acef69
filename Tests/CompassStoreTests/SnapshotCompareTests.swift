import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// `verify` compares the stored snapshot with the one the replay would write, piece by piece:
/// the family sections a part at a time as the log is read again for the texts the replay left
/// in it (``SectionComparison``), whatever the size of the blocks it reads (a line across two
/// blocks, or longer than one, has its texts read on their own). Any byte that differs,
/// anywhere, and any length that differs, is a mismatch; the honest snapshot matches.
@Suite struct SnapshotCompareTests {
    /// A generated log in a folder of its own; the snapshot a replay holding every text writes
    /// (`honest`), and the one a replay leaving them in the log has (what `verify` compares).
    struct Fixture {
        let log: [UInt8]
        let folder: String
        let honest: [UInt8]
        let snapshot: ReplaySnapshot
        var logPath: String { folder + "/events.jsonl" }
        var path: String { folder + "/compare.snapshot" }

        init(families: Int, events: Int, seed: UInt64) throws {
            log = HistoryGenerator(families: families, events: events, seed: seed).bytes()
            folder = try TextsInLogTests.folder(log)
            let fs = POSIXFileSystem(), logPath = folder + "/events.jsonl"
            honest = SnapshotCodec.encode(try LogReader.replay(path: logPath, fs: fs, problems: .summary).snapshot)
            snapshot = try LogReader.replay(path: logPath, fs: fs, problems: .summary, textsStayInLog: true).snapshot
        }

        /// Whether `verify`'s comparison takes `bytes`, written as the stored snapshot, for the
        /// one its replay would write.
        func matches(_ bytes: [UInt8], blockSize: Int = SectionComparison.blockSize, piece: Int = 1 << 20) throws -> Bool {
            let fs = POSIXFileSystem()
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            guard let fd = try fs.open(path, .read), let logFd = try fs.open(logPath, .read) else { throw StoreError.noLog(path: path) }
            defer { fs.close(fd); fs.close(logFd) }
            return try LogVerifier.storedSnapshot(fd, path: path, equals: snapshot, log: (logFd, logPath), prefix: log.count,
                                                  blockSize: blockSize, piece: piece, fs: fs)
        }
    }

    /// The header and event ids are compared a piece at a time too (`blockSize` bytes here), on
    /// another thread, as the sections are.
    @Test(arguments: [SectionComparison.blockSize, 4_096, 700])
    func everyChangedByteAndEveryChangedLengthIsAMismatch(blockSize: Int) throws {
        // 40 families, most of them with several parts, dealt out to several workers.
        let fixture = try Fixture(families: 40, events: 4_000, seed: 21)
        defer { try? FileManager.default.removeItem(atPath: fixture.folder) }
        let honest = fixture.honest
        #expect(fixture.snapshot.state.families.values.allSatisfy { $0.interactions.holdsTextsInLog })  // not vacuous
        func matches(_ bytes: [UInt8]) throws -> Bool { try fixture.matches(bytes, blockSize: blockSize, piece: blockSize) }
        #expect(try matches(honest))
        var rng = SplitMix64(seed: 22)
        // The ids: past the preamble and header, in their first, middle and last piece.
        let stream = SnapshotStream(fixture.snapshot)
        let ids = stream.opening[0].count + stream.header.count
        #expect(stream.ids.count > 4 * 4_096)  // several pieces of every size tried
        var positions = [0, 8, 64, ids, ids + stream.ids.count / 2, ids + stream.ids.count - 1]
        positions += [honest.count / 2, honest.count - 64, honest.count - 1]
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

    /// A store of one large family (one share holds it alone: no other family's part to hash
    /// with, and its rows fill whole blocks) is compared a part at a time all the same, never
    /// much more than ``SectionComparison/partLimit`` at once: the honest snapshot matches, a
    /// byte changed anywhere in its section does not.
    @Test func aLoneLargeFamilyIsComparedInParts() throws {
        let fixture = try Fixture(families: 1, events: 6_000, seed: 24)
        defer { try? FileManager.default.removeItem(atPath: fixture.folder) }
        let (log, logPath, path, honest, snapshot) = (fixture.log, fixture.logPath, fixture.path, fixture.honest, fixture.snapshot)
        let fs = POSIXFileSystem()
        let section = try #require(SnapshotIndex.open(size: honest.count) { Array(honest[$0]) }?.families.values.first?.range)
        #expect(section.count > 4 * SectionComparison.partSize)  // several parts, compared alone
        guard let logFd = try fs.open(logPath, .read) else { throw StoreError.noLog(path: logPath) }
        defer { fs.close(logFd) }
        func matches(_ bytes: [UInt8]) throws -> Bool { try fixture.matches(bytes) }
        #expect(try matches(honest))
        try Data(honest).write(to: URL(fileURLWithPath: path))
        guard let fd = try fs.open(path, .read) else { throw StoreError.noLog(path: path) }
        defer { fs.close(fd) }
        let outcome = try #require(try SectionComparison(log: (logFd, logPath), snapshot: (fd, path), prefix: log.count,
                                                         blockSize: SectionComparison.blockSize, fs: fs)
            .compare(Array(snapshot.state.families.values), stored: [section]).first)
        #expect(outcome.same && outcome.length == section.count)
        #expect(outcome.largestPart <= SectionComparison.partLimit + 16_384, "\(outcome.largestPart) bytes compared at once")
        for position in [section.lowerBound, section.lowerBound + section.count / 3, section.upperBound - 100, section.upperBound - 1] {
            var flipped = honest
            flipped[position] ^= 0x20
            #expect(try !matches(flipped), "a byte changed at \(position) of the section \(section)")
        }
    }

    /// The families of a share take turns, so their parts meet in pairs and are hashed two at
    /// a time: most of the bytes are hashed in pairs, whether the sections hold their texts (the
    /// log read again) or keep them as ranges of the log (not read at all), and each family's
    /// length and digest are still its stored section's own.
    @Test(arguments: [false, true])
    func familiesTakeTurnsSoTheirPartsAreHashedInPairs(asRanges: Bool) throws {
        // Two families a share (sixteen dealt to eight), each several parts long.
        let fixture = try Fixture(families: 16, events: 24_000, seed: 25)
        defer { try? FileManager.default.removeItem(atPath: fixture.folder) }
        let bytes = asRanges ? SnapshotCodec.encode(fixture.snapshot) : fixture.honest
        let index = try #require(SnapshotIndex.open(size: bytes.count) { Array(bytes[$0]) })
        let families = fixture.snapshot.state.families.values.sorted { $0.id < $1.id }
        let stored = families.map { index.families[$0.id]!.range }
        #expect(stored.allSatisfy { $0.count > 2 * SectionComparison.partSize })  // several parts each
        #expect(bytes[stored[0].lowerBound] == (asRanges ? 1 : 0))  // the form asked for
        let fs = POSIXFileSystem()
        try Data(bytes).write(to: URL(fileURLWithPath: fixture.path))
        guard let fd = try fs.open(fixture.path, .read), let logFd = try fs.open(fixture.logPath, .read) else {
            throw StoreError.noLog(path: fixture.path)
        }
        defer { fs.close(fd); fs.close(logFd) }
        let outcomes = try SectionComparison(log: (logFd, fixture.logPath), snapshot: (fd, fixture.path), prefix: fixture.log.count,
                                             blockSize: SectionComparison.blockSize, fs: fs).compare(families, stored: stored)
        for (outcome, section) in zip(outcomes, stored) {
            #expect(outcome.same && outcome.length == section.count)
            #expect(outcome.digest == SHA256.digest(Array(bytes[section])))
            #expect(outcome.largestPart <= SectionComparison.partLimit + 16_384)
        }
        let paired = outcomes.reduce(0) { $0 + $1.pairedBytes }, total = outcomes.reduce(0) { $0 + $1.length }
        #expect(paired * 4 > total * 3, "\(paired) of \(total) bytes hashed in pairs")
    }

    /// An I/O error at any read of the comparison (the snapshot's index, a part of a stored
    /// section, a block of the log, a line read on its own), or a log that ends before the
    /// prefix the snapshot covers (cut under `verify`), stops it with the error: it is never
    /// taken for a match or a mismatch.
    @Test func anIOErrorAtAnyStepOrALogThatEndsEarlyIsAnError() throws {
        let fixture = try Fixture(families: 6, events: 1_500, seed: 23)
        defer { try? FileManager.default.removeItem(atPath: fixture.folder) }
        let (log, folder, logPath, path, honest, snapshot) = (fixture.log, fixture.folder, fixture.logPath, fixture.path, fixture.honest, fixture.snapshot)
        let fs = POSIXFileSystem()
        try Data(honest).write(to: URL(fileURLWithPath: path))
        guard let fd = try fs.open(path, .read), let logFd = try fs.open(logPath, .read) else { throw StoreError.noLog(path: path) }
        defer { fs.close(fd); fs.close(logFd) }
        var step = 1
        while true {
            let faulty = FaultyFileSystem(root: folder, failAt: step, fault: .error)
            do {
                let same = try LogVerifier.storedSnapshot(fd, path: path, equals: snapshot, log: (logFd, logPath), prefix: log.count,
                                                          blockSize: 4_096, fs: faulty)
                #expect(!faulty.hitFault, "operation \(step) failed and the comparison went on")
                #expect(same)
                break
            } catch {
                #expect(faulty.hitFault && error.message.contains("injected"), "operation \(step): \(error.message)")
            }
            step += 1
        }
        #expect(step > 100)  // every block of the log and every part of a section was a step
        #expect(throws: StoreError.self) {
            try LogVerifier.storedSnapshot(fd, path: path, equals: snapshot, log: (logFd, logPath), prefix: log.count + 5_000, fs: fs)
        }
    }
}
