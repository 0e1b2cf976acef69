import CompassCore
import Foundation
import CompassStore

/// `compass verify`: seq, ids, every family's `prev` chain, the tail and every rule; prints
/// every family's head and the root (SPEC §1.1).
/// The store checks a snapshot beside the log against its own replay of the prefix and
/// removes one that does not match (a snapshot is a cache and never proof).
enum VerifyCommand {
    static func run(_ inv: Invocation) throws {
        let expected = inv.arguments.value("expect-head")
        if let expected, !SHA256.isHex(expected) {
            throw CLIError.usage("invalid value '\(TerminalText.escape(expected))' for '--expect-head' (expected 64 lowercase hex digits)")
        }
        let spool = ProblemSpool()
        let (progress, meter) = inv.readProgress("verifying")
        let report = try inv.store().verify(expectHead: expected, problems: spool.add, progress: progress)
        meter?.finish()
        let chain = switch report.chain {
        case .broken(let line): "broken at line \(line)"
        case .empty: "empty"
        case .unsealed: "unsealed (no line carries prev)"
        case .intact(let sealed, let lines): sealed < lines ? "intact (\(sealed) of \(lines) lines sealed)" : "intact"
        }
        if inv.json {
            // Exactly SPEC §4.1's keys. What is not a line's problem (a blob, the expected head,
            // a snapshot, the erased count) is a problem with a null line.
            var w = JSONWriter()
            w.beginObject()
            w.field("ok", report.ok)
            w.key("families")
            w.beginArray()
            for family in report.families {
                w.beginObject()
                w.field("family", family.family)
                w.field("seq", family.seq)
                w.field("head", family.head)
                w.endObject()
            }
            w.endArray()
            w.field("root", report.root)
            ProblemRendering.write(spool, withoutLine: Self.logWideProblems(report, expected: expected), into: &w)
            w.key("erasures")
            w.beginArray()
            for step in report.erasures {
                w.beginObject()
                w.field("family", step.family)
                w.field("oldHead", step.oldHead)
                w.key("erasedSeqs")
                w.beginArray()
                for seq in step.erasedSeqs { w.int(seq) }
                w.endArray()
                w.field("seqsListed", step.seqsListed)
                w.field("proven", step.proven)
                w.endObject()
            }
            w.endArray()
            w.endObject()
            inv.console.out(bytes: w.bytes + [0x0A])
        } else {
            inv.console.out("lines: \(report.lines)\nfamilies: \(report.families.count)\nchain: \(chain)\nproblems: \(spool.count)\n")
            ProblemRendering.list(spool, console: inv.console)
            var text = ""
            // A head on the family's line when it fits the terminal, else on the next line (a
            // hash wider than the terminal itself is broken, never cut).
            let width = TextStyle(inv).width
            func hash(_ label: String, _ value: String, after lead: String) -> String {
                if Cells.width(lead + label + value) <= width { return lead + label + value + "\n" }
                // A hash is copied whole: on a line of its own, never broken (a terminal
                // narrower than it wraps it, and a copy still takes it in one piece).
                var out = lead.trimmingCharacters(in: CharacterSet(charactersIn: ", ")) + "\n"
                if Cells.width("  " + label + value) <= width { return out + "  " + label + value + "\n" }
                if !label.isEmpty { out += "  " + label.trimmingCharacters(in: .whitespaces) + ":\n" }
                out += value + "\n"
                return out
            }
            for family in report.families {
                text += hash("head ", family.head, after: "family \(TerminalText.escape(family.family)): seq \(family.seq), ")
            }
            text += Cells.width("root: " + report.root) <= width ? "root: \(report.root)\n" : hash("", report.root, after: "root: ")
            func fitted(_ line: String) -> String { TextStyle.wrap(line, width: width).map { $0 + "\n" }.joined() }
            for step in report.erasures {
                text += fitted("erasure at line \(step.line) (\(TerminalText.escape(step.family)) seq \(step.seq), \(step.at.rfc3339)): \(step.erased) line\(step.erased == 1 ? "" : "s") of "
                    + (step.scope == .family ? "the family" : "a member") + " erased (seq " + Self.ranges(step.erasedSeqs)
                    + (step.seqsListed ? "" : ", counted in file order: the record does not list them") + "); old head \(step.oldHead) over \(step.oldLines) lines: "
                    + (step.proven ? "proven" : "not provable (a later erasure changed lines from before it)"))
            }
            if !report.erasedCountsAgree { text += "erased lines: the count does not match what the erasures recorded\n" }
            if let step = report.expectedHeadProvenBy {
                text += fitted("expected head: proven through the erasure at line \(step.line): since it, only erased lines changed")
            }
            if let expected, report.headMatches == false {
                text += fitted("expected head: \(expected) is no family's head and not the root, now or before"
                    + (report.erasures.isEmpty ? "" : ", and no erasure proves it"))
            }
            if report.attachmentsChecked > 0 || !report.attachmentProblems.isEmpty {
                text += "attachments: \(report.attachmentsChecked) checked, \(report.attachmentProblems.isEmpty ? "all whole" : "\(report.attachmentProblems.count) bad")\n"
                for problem in report.attachmentProblems {
                    text += fitted("  \(problem.interactionId) \(TerminalText.escape(problem.name)): \(problem.missing ? "missing" : "does not match its hash") (\(problem.sha256))")
                }
            }
            switch report.snapshot {
            case .none: break
            case .verified: text += "snapshot: matches the log\n"
            case .stale: text += "snapshot: out of date or unreadable; removed\n"
            case .mismatched: text += "snapshot: DOES NOT MATCH the log (damaged or forged); removed\n"
            }
            text += report.ok ? "ok\n" : "FAILED\n"
            inv.console.out(text)
        }
        if !report.ok { throw CLIError.silentFailure }
    }

    /// What fails `verify` besides line problems, one message each.
    static func logWideProblems(_ report: VerifyReport, expected: String?) -> [String] {
        var messages: [String] = []
        if let expected, report.headMatches == false { messages.append("expected head \(expected) not found") }
        if !report.erasedCountsAgree { messages.append("erased lines do not match what the erasures recorded") }
        for problem in report.attachmentProblems {
            messages.append("attachment \(problem.interactionId) \(problem.name) \(problem.missing ? "missing" : "does not match its hash") (\(problem.sha256))")
        }
        if report.snapshot == .mismatched { messages.append("snapshot does not match the log (damaged or forged); removed") }
        return messages
    }

    /// `3, 5-7, 9`: seqs as ranges.
    static func ranges(_ seqs: [Int64]) -> String {
        var parts: [String] = []
        var index = 0
        while index < seqs.count {
            var end = index
            while end + 1 < seqs.count, seqs[end + 1] == seqs[end] + 1 { end += 1 }
            parts.append(end == index ? "\(seqs[index])" : "\(seqs[index])-\(seqs[end])")
            index = end + 1
        }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
