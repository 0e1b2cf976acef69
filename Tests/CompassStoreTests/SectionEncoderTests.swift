import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// A family's section encoded a part at a time, its texts taken from the log's bytes as they
/// go by, is the section written at once from a replay holding every text, byte for byte,
/// whatever windows of the log it is given; it asks for exactly the range of the log it needs.
/// Keeping the texts as ranges of the log instead, it needs no window and is the section the
/// replay that left them there writes.
@Suite struct SectionEncoderTests {
    @Test(arguments: 0..<2)
    func thePartsEndToEndAreTheSectionWrittenAtOnce(log: Int) throws {
        let bytes = TextsInLogTests.logs[log]
        let folder = try TextsInLogTests.folder(bytes)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/events.jsonl"
        let held = try LogReader.replay(path: path, fs: POSIXFileSystem(), problems: .summary).state
        let left = try LogReader.replay(path: path, fs: POSIXFileSystem(), problems: .summary, textsStayInLog: true).state
        var rng = SplitMix64(seed: UInt64(31 + log))
        var asked = 0
        try bytes.withUnsafeBufferPointer { all in
            for family in left.families.values {
                let expected = SnapshotCodec.familySection(try #require(held.families[family.id]))
                // (A family none of whose texts was copied, with none to copy, says it keeps ranges.)
                let encoder = SectionEncoder(family, ranges: expected.first == 1)
                var encoded: [UInt8] = []
                // Windows of random size walking the log; a row it needs outside one is given
                // exactly the range it asked for.
                var start = 0
                while true {
                    let end = min(all.count, start + 1 + rng.below(3_000))
                    var window = LogWindow(UnsafeBufferPointer(rebasing: all[start..<end]), at: start)
                    var step = encoder.encode(window: window)
                    while case .needs(let range) = step, range.lowerBound < end || end == all.count {
                        #expect(range.upperBound <= all.count && window.bytes(range) == nil)
                        asked += 1
                        window = LogWindow(UnsafeBufferPointer(rebasing: all[range]), at: range.lowerBound)
                        step = encoder.encode(window: window)
                        window = LogWindow(UnsafeBufferPointer(rebasing: all[start..<end]), at: start)
                        if case .needs = step { step = encoder.encode(window: window) }
                    }
                    encoder.take { encoded += $0 }
                    if step == .finished { break }
                    start = end
                }
                #expect(encoded == expected, "family \(family.id): \(encoded.count) bytes against \(expected.count)")
                #expect(encoder.pendingCount == 0)
            }
        }
        // Not vacuous: texts were left in the log, and rows fell across windows.
        #expect(left.families.values.contains { $0.interactions.holdsTextsInLog } && asked > 0)
        #expect(held.families.values.contains { SnapshotCodec.familySection($0).first == 0 })
    }

    @Test(arguments: 0..<2)
    func keptAsRangesNoWindowIsNeeded(log: Int) throws {
        let folder = try TextsInLogTests.folder(TextsInLogTests.logs[log])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let left = try LogReader.replay(path: folder + "/events.jsonl", fs: POSIXFileSystem(), problems: .summary, textsStayInLog: true).state
        for family in left.families.values {
            let expected = SnapshotCodec.familySection(family)
            #expect(expected.first == 1, "family \(family.id): a replay that copied no text keeps ranges")
            let encoder = SectionEncoder(family, ranges: true)
            var encoded: [UInt8] = []
            var step = encoder.encode(window: LogWindow(UnsafeBufferPointer(start: nil, count: 0), at: 0), limit: 100)
            while step == .full {
                encoder.take { encoded += $0 }
                step = encoder.encode(window: LogWindow(UnsafeBufferPointer(start: nil, count: 0), at: 0), limit: 100)
            }
            #expect(step == .finished)
            encoder.take { encoded += $0 }
            #expect(encoded == expected, "family \(family.id): \(encoded.count) bytes against \(expected.count)")
        }
        #expect(left.families.values.contains { $0.interactions.holdsTextsInLog })
    }
}
