import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// Issue 56 §5: a whole-store read of PostgreSQL (`verify`, a replay of every family, an
/// export of every family) goes
/// through a server-side cursor in blocks of whole lines, within one read-only snapshot, so
/// it holds a block beside the state, never the whole result. Whatever the block's size, it
/// reads the same lines in the same order as one statement does.
extension PostgresStoreTests {
    @Test func wholeStoreReadsInBlocksOfAnySizeEqualOneStatement() throws {
        guard let address = try Self.database() else { return }
        let (cli, _) = try Self.imported(families: 3, events: 240, seed: 12, into: address)
        // An erasure, so `verify` walks the lines a second time (its erasure proofs).
        let state = try CompassStore(path: address).state()
        let family = try #require(state.families.values.first { family in
            family.memberIds.contains { state.members[$0]?.role == .player } && family.memberIds.contains { state.members[$0]?.role == .parent }
        })
        let parent = try #require(family.memberIds.first { state.members[$0]?.role == .parent })
        let player = try #require(family.memberIds.first { state.members[$0]?.role == .player })
        #expect(cli.run(["erase", "--as", parent, "--member", player]).status == 0)

        let whole = try PostgresLogBackend(address: address)
        let lines = try whole.allLines()
        let expected = try LogVerifier.verify(lines: lines, expectHead: nil, problems: nil) { sha throws(StoreError) in try whole.blob(sha) }
        var oneRead = Replayer(problems: .summary)
        oneRead.consume(bytes: lines)
        #expect(expected.ok && expected.lines > 240)
        for blockLines in [1, 7, 100, 1_000_000] {
            let backend = try PostgresLogBackend(address: address, blockLines: blockLines)
            #expect(try backend.verify(expectHead: nil, problems: nil, progress: nil) == expected, "blocks of \(blockLines)")
            let replayed = try backend.replay(CompassStore.ReadOptions(problems: .summary))
            #expect(replayed.state == oneRead.state && replayed.streams.root == oneRead.streams.root, "blocks of \(blockLines)")
            var streamed: [UInt8] = []
            try backend.eachBlockOfLines { streamed += $0 }
            #expect(streamed == lines, "blocks of \(blockLines)")
        }
        // `export --stream --all-families -o FILE` writes the blocks as they come: the same bytes.
        let target = NSTemporaryDirectory() + "whole-store-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: target) }
        let export = try CompassStore(path: address).exportEveryFamily(to: target)
        #expect(FileManager.default.contents(atPath: target) == Data(lines))
        #expect(export.root == oneRead.streams.root && export.lineCount == expected.lines && export.familyCount == 3)
        #expect(try CompassStore(path: target).verify().root == expected.root)
    }
}
