import CompassCore
import CompassStore

/// `compass erase --member USER | --family`: makes the log forget a member or the family
/// (SPEC §5) through the store; `--dry-run` prints what would go and changes nothing.
enum EraseCommand {
    static func run(_ inv: Invocation) throws {
        let args = inv.arguments
        let member = args.value("member")
        guard (member != nil) != args.has("family") else {
            throw CLIError.usage("erase needs exactly one of --member USER and --family")
        }
        let actor = try inv.viewer()
        let now = try inv.now()
        let ids = IdSource(inv.makeId)
        let recordId = args.value("event-id")
        let store = try inv.store(clock: { now }, makeId: { recordId ?? ids.next() })
        let dryRun = args.has("dry-run")
        let report = if let member {
            try store.erase(member: member, as: actor, dryRun: dryRun)
        } else {
            try store.erase(familyOf: actor, dryRun: dryRun)
        }
        inv.console.out(bytes: inv.json ? json(report) : Array(text(report).utf8))
        if let warning = report.warning { inv.console.err("warning: \(TerminalText.escape(warning))\n") }
    }

    static func json(_ report: ErasureReport) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("dryRun", report.dryRun)
        w.field("scope", report.scope.rawValue)
        w.field("family", report.family)
        w.field("member", report.member)
        w.field("erased", report.erasedLines)
        w.key("byType")
        w.beginObject()
        for (type, count) in report.erasedByType.sorted(by: { $0.key < $1.key }) { w.field(type, count) }
        w.endObject()
        w.field("attachments", report.attachments)
        w.field("tornFragments", report.tornFragments)
        w.field("snapshotRemoved", report.snapshotRemoved)
        w.field("oldHead", report.oldHead)
        w.field("oldLines", report.oldLines)
        w.field("oldHeadProvable", report.oldHeadProvable)
        w.key("headsLost")
        w.beginArray()
        for seq in report.headsLost { w.int(seq) }
        w.endArray()
        w.field("newHead", report.dryRun ? nil : report.newHead)
        w.field("seq", report.dryRun ? nil : report.seq)
        w.key("outsideStreams")
        w.beginArray()
        for line in report.erasedOutsideStreams { w.int(line) }
        w.endArray()
        w.key("unreadableLinesKept")
        w.beginArray()
        for line in report.unreadableLinesKept { w.int(line) }
        w.endArray()
        w.endObject()
        return w.bytes + [0x0A]
    }

    static func text(_ report: ErasureReport) -> String {
        let whose = report.member.map { "of \(TerminalText.escape($0)) " } ?? "of the family "
        let lines = "\(report.erasedLines) line\(report.erasedLines == 1 ? "" : "s")"
        var text = report.dryRun
            ? "would erase \(lines) \(whose)in \(TerminalText.escape(report.family)) (dry run: nothing was changed)\n"
            : "erased \(lines) \(whose)in \(TerminalText.escape(report.family))\n"
        let width = report.erasedByType.keys.map(\.count).max() ?? 0
        for (type, count) in report.erasedByType.sorted(by: { $0.key < $1.key }) {
            text += "  \(TerminalText.escape(type))" + String(repeating: " ", count: width - type.count + 2) + "\(count)\n"
        }
        let verb = report.dryRun ? "to remove" : "removed"
        text += "attachments \(verb): \(report.attachments)\ntorn fragments \(verb): \(report.tornFragments)\n"
        if report.snapshotRemoved { text += "snapshot \(verb)\n" }
        func list(_ lines: [Int]) -> String {
            lines.prefix(20).map(String.init).joined(separator: ", ") + (lines.count > 20 ? ", …" : "")
        }
        if !report.erasedOutsideStreams.isEmpty {
            text += "erased in no family's stream (their family field is broken; no head covers them): lines "
                + list(report.erasedOutsideStreams) + "\n"
        }
        if !report.unreadableLinesKept.isEmpty {
            text += "kept as they are (nothing says whose: not an object, or no readable actor): lines "
                + list(report.unreadableLinesKept) + "\n"
        }
        text += "old head: \(report.oldHead) (\(report.oldLines) lines)\n"
        if !report.dryRun {
            text += "new head: \(report.newHead)\n"
            text += report.oldHeadProvable
                ? "A head kept from before this erasure still verifies: compass verify --expect-head \(report.oldHead)\n"
                : "The head from just before this erasure cannot be proven any more: it changed lines from before an earlier erasure"
                    + " (heads kept before the first erasure still verify)\n"
            if !report.headsLost.isEmpty {
                text += "Heads kept at seq \(VerifyCommand.ranges(report.headsLost)) cannot be proven any more:"
                    + " this erasure changed lines from before an earlier erasure\n"
            }
            // SPEC §5: exports are copies the family took; the store cannot reach them.
            text += "Exports made before this erasure (compass export, with their FILE.attachments/) still hold what it erased: delete them too\n"
        }
        return text
    }
}
