import CompassCore

/// `compass verify`: seq, ids, the `prev` chain, the tail and every rule; prints the head hash.
enum VerifyCommand {
    static func run(_ inv: Invocation) throws(CLIError) {
        let replayer = try LogReader.replay(path: inv.logPath)
        inv.console.keepUntilExit(replayer)
        let expected = inv.arguments.value("expect-head")
        if let expected, !EnvelopeDecoder.isSHA256Hex(expected) {
            throw .usage("invalid value '\(expected)' for '--expect-head' (expected 64 lowercase hex digits)")
        }
        let completeLines = replayer.linesRead - (replayer.problems.contains { $0.message == "torn last line" } ? 1 : 0)
        let chain: String
        let brokenLinks = replayer.problems.filter { $0.message.hasPrefix("prev does not match") }
        if let first = brokenLinks.first {
            chain = "broken at line \(first.line)"
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
        let ok = replayer.problems.isEmpty && headMatches != false
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
            ProblemRendering.write(replayer.problems, into: &w)
            w.endObject()
            inv.console.out(bytes: w.bytes + [0x0A])
        } else {
            var text = "lines: \(replayer.linesRead)\nlast seq: \(replayer.lastSeq)\nchain: \(chain)\n"
            text += "problems: \(replayer.problems.count)\n"
            for problem in replayer.problems { text += "  \(problem)\n" }
            text += "head: \(replayer.headHash)\n"
            if let expected, headMatches == false { text += "head does not match the expected \(expected)\n" }
            text += ok ? "ok\n" : "FAILED\n"
            inv.console.out(text)
        }
        if !ok { throw .silentFailure }
    }
}
