import CompassCore
import CompassStore
import CompassTestSupport
import Foundation
import Testing

/// Every read of the log, its snapshot and its tail, attacked with reads that come back short
/// (as `pread` may, on a network or FUSE file system): the same commands in the same order
/// give the same output, and leave the same log and snapshot, as with whole reads.
@Suite struct ShortReadTests {
    /// Replays that write and then use a snapshot, queries, `verify`, an append and a stream
    /// export, in that order.
    static let commands: [[String]] = [
        ["replay", "--json"],
        ["interactions", "--as", "u-1-2", "--json"],
        ["analytics", "--as", "u-2-1", "--json"],
        ["activity", "--as", "u-3-1", "--json"],
        ["verify"],
        ["add-school", "--as", "u-1-1", "--name", "Short Read University"],
        ["replay", "--json"],
        ["interactions", "--as", "u-1-1", "--json"],
        ["verify"],
        ["export", "--stream", "--as", "u-2-1"],
    ]

    /// Runs the commands on a fresh copy of the generated log; what each printed and the files
    /// left at the end.
    static func run(with fileSystem: () -> FileSystem) -> (outputs: [String], log: [UInt8], snapshot: [UInt8]?) {
        let cli = CLIHarness()
        cli.write("events.jsonl", String(decoding: HistoryGenerator(families: 3, events: 3_000, seed: 7).bytes(), as: UTF8.self))
        var outputs: [String] = []
        for words in commands {
            let result = cli.run(words, environment: ["COMPASS_SNAPSHOT_MIN_BYTES": "0"], fileSystem: fileSystem())
            outputs.append("\(words.joined(separator: " ")) → \(result.status)\n\(result.stdout)\(result.stderr)")
        }
        let snapshot = FileManager.default.contents(atPath: cli.logPath + ".snapshot").map { Array($0) }
        return (outputs, cli.logBytes, snapshot)
    }

    @Test func everyCommandReadsTheSameWhateverTheSizeOfEachRead() {
        let whole = Self.run { POSIXFileSystem() }
        #expect(whole.snapshot != nil, "the replays left a snapshot for the later commands to read")
        #expect(whole.outputs.allSatisfy { $0.contains(" → 0\n") }, "\(whole.outputs.filter { !$0.contains(" → 0\n") })")
        for sizes in [[4_099, 1, 65_537, 7], [333], [1 << 16]] {
            let short = Self.run { ShortReadFileSystem(sizes: sizes) }
            for (index, (a, b)) in zip(whole.outputs, short.outputs).enumerated() where a != b {
                Issue.record("reads of \(sizes) bytes: command \(index), \(Self.commands[index].joined(separator: " ")), printed something else")
            }
            #expect(short.log == whole.log, "reads of \(sizes) bytes: a different log")
            #expect(short.snapshot == whole.snapshot, "reads of \(sizes) bytes: a different snapshot")
        }
    }
}
