import CompassCore
import CompassStore

/// `compass verify`: seq, ids, the `prev` chain, the tail and every rule; prints the head hash.
/// A snapshot beside the log is checked against verify's own replay of the prefix it covers
/// and removed when it does not match (a snapshot is a cache and never proof; one that
/// differs from the log was damaged or forged).
enum VerifyCommand {
    static func run(_ inv: Invocation) throws {
        let expected = inv.arguments.value("expect-head")
        if let expected, !EnvelopeDecoder.isSHA256Hex(expected) {
            throw CLIError.usage("invalid value '\(TerminalText.escape(expected))' for '--expect-head' (expected 64 lowercase hex digits)")
        }
        let path = try inv.existingLog()
        let fs = inv.fileSystem
        let fd = try fs.openExisting(path)
        defer { fs.close(fd) }
        let extent = try LogExtent.measure(fd, path: path, fs: fs)
        let spool = ProblemSpool()
        var replayer = Replayer(problems: .forward(spool.add))
        let snapshot = try checkSnapshot(log: fd, path: path, extent: extent, fs: fs, replayer: &replayer)
        try LogReader.stream(fd: fd, path: path, from: replayer.consumedBytes, extent: extent, fs: fs, into: &replayer)
        inv.console.keepUntilExit(replayer)

        let completeLines = replayer.linesRead - (replayer.tornLine == nil ? 0 : 1)
        let chain: String
        if let broken = spool.firstChainLine {
            chain = "broken at line \(broken)"
        } else if completeLines == 0 {
            chain = "empty"
        } else if replayer.sealedLines == 0 {
            chain = "unsealed (no line carries prev)"
        } else if replayer.sealedLines < completeLines {
            chain = "intact (\(replayer.sealedLines) of \(completeLines) lines sealed)"
        } else {
            chain = "intact"
        }
        let headMatches = expected.map { $0 == replayer.headHash }
        let ok = spool.count == 0 && headMatches != false && snapshot != .mismatched
        if inv.json {
            var w = JSONWriter()
            w.beginObject()
            w.field("ok", ok)
            w.field("lines", replayer.linesRead)
            w.field("applied", replayer.state.appliedCount)
            w.field("lastSeq", replayer.lastSeq)
            w.field("chain", chain)
            w.field("head", replayer.headHash)
            w.key("headMatches")
            if let headMatches { w.bool(headMatches) } else { w.null() }
            w.field("snapshot", snapshot.rawValue)
            ProblemRendering.write(spool, into: &w)
            w.endObject()
            inv.console.out(bytes: w.bytes + [0x0A])
        } else {
            var text = "lines: \(replayer.linesRead)\nlast seq: \(replayer.lastSeq)\nchain: \(chain)\n"
            text += "problems: \(spool.count)\n"
            inv.console.out(text)
            ProblemRendering.list(spool, console: inv.console)
            text = "head: \(replayer.headHash)\n"
            if let expected, headMatches == false { text += "head does not match the expected \(expected)\n" }
            switch snapshot {
            case .none: break
            case .verified: text += "snapshot: matches the log\n"
            case .stale: text += "snapshot: out of date or unreadable; removed\n"
            case .mismatched: text += "snapshot: DOES NOT MATCH the log (damaged or forged); removed\n"
            }
            text += ok ? "ok\n" : "FAILED\n"
            inv.console.out(text)
        }
        if !ok { throw CLIError.silentFailure }
    }

    enum SnapshotCheck: String {
        case none, verified, stale, mismatched
    }

    /// Replays the prefix a snapshot covers and compares the snapshot it would write with the
    /// one on disk, byte for byte (snapshots are encoded deterministically). The replay goes
    /// on from there, so the log is still read once.
    static func checkSnapshot(log fd: Int32, path: String, extent: LogExtent, fs: FileSystem,
                              replayer: inout Replayer) throws -> SnapshotCheck {
        let snapshotPath = path + ".snapshot"
        guard fs.kind(of: snapshotPath) != .missing else { return .none }
        guard let file = SnapshotFile(path: snapshotPath, fs: fs), file.matches(log: fd, path: path, extent: extent, fs: fs),
              let stored = try? fs.readFile(snapshotPath) else {
            try? fs.remove(snapshotPath)
            return .stale
        }
        let prefix = file.index.base.consumedBytes
        try LogReader.stream(fd: fd, path: path, from: 0, extent: LogExtent(complete: prefix, torn: false), fs: fs, into: &replayer)
        let expected = replayer.snapshot
        let sections = Parallel.map(expected.state.families.values, SnapshotCodec.Section.init)
        guard SnapshotCodec.parts(expected, families: sections).joined().elementsEqual(stored) else {
            try? fs.remove(snapshotPath)
            return .mismatched
        }
        return .verified
    }
}
