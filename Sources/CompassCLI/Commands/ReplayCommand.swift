import CompassCore
import CompassStore

/// `compass replay`: counts by type, members, live interactions and every problem.
enum ReplayCommand {
    static func run(_ inv: Invocation) throws {
        let spool = ProblemSpool()
        let (progress, meter) = inv.readProgress("replaying")
        // Counts only: no interaction's text is read, so a file store leaves them in the log.
        var options = CompassStore.ReadOptions(cut: try inv.cut(), scope: .summary, problems: .forward(spool.add), progress: progress)
        options.readsNoTexts = true
        let replayer = try inv.store().replay(options)
        meter?.finish()
        inv.console.keepUntilExit(replayer)
        let state = replayer.state
        let byType = EventType.allCases.map { ($0.rawValue, state.countsByType[$0] ?? 0) }
            .filter { $0.1 > 0 }.sorted { $0.0 < $1.0 }
        if inv.json {
            var w = JSONWriter()
            w.beginObject()
            w.field("events", replayer.linesRead)
            w.field("applied", state.appliedCount)
            w.field("erased", state.erasedLineCount)
            w.key("byType")
            w.beginObject()
            for (type, count) in byType { w.field(type, count) }
            w.endObject()
            w.field("members", state.members.count)
            w.field("liveInteractions", state.liveInteractionCount)
            ProblemRendering.write(spool, into: &w)
            w.endObject()
            inv.console.out(bytes: w.bytes + [0x0A])
        } else {
            var text = "events: \(replayer.linesRead)\napplied: \(state.appliedCount)\n"
            if state.erasedLineCount > 0 { text += "erased: \(state.erasedLineCount)\n" }
            let width = byType.map(\.0.count).max() ?? 0
            for (type, count) in byType {
                text += "  \(type)" + String(repeating: " ", count: width - type.count + 2) + "\(count)\n"
            }
            text += "members: \(state.members.count)\nlive interactions: \(state.liveInteractionCount)\n"
            text += "problems: \(spool.count)\n"
            inv.console.out(text)
            ProblemRendering.list(spool, console: inv.console)
        }
        if spool.count > 0 { throw CLIError.silentFailure }
    }
}

/// Problems as output: JSON `{"line","message"}` objects, an escaped list, or a warning on stderr.
enum ProblemRendering {
    /// `"problems":[{"line","message"}…]`, then `withoutLine` messages with a null line
    /// (what fails `verify` but is no line's).
    static func write(_ problems: ProblemSpool, withoutLine: [String] = [], into w: inout JSONWriter) {
        w.key("problems")
        w.beginArray()
        problems.forEach { problem in
            w.beginObject()
            w.field("line", problem.line)
            w.field("message", problem.message)
            w.endObject()
        }
        for message in withoutLine {
            w.beginObject()
            w.key("line")
            w.null()
            w.field("message", message)
            w.endObject()
        }
        w.endArray()
    }

    /// `  LINE: message` per problem, written in pieces (the list may be long).
    static func list(_ problems: ProblemSpool, console: Console) {
        var text = ""
        problems.forEach { problem in
            text += "  \(problem.line): \(TerminalText.escape(problem.message))\n"
            if text.utf8.count >= 1 << 16 { console.out(text); text = "" }
        }
        console.out(text)
    }

    /// The one warning line read commands print when the log has problems that the viewer
    /// may be told about: those of their family's lines and of lines naming no family
    /// (nothing of another family, not even how many it has).
    static func warn(_ replayer: Replayer, family: String, log: String, console: Console) {
        var (count, first) = replayer.problemSummary.visible(to: family)
        if let torn = replayer.tornLine {
            count += 1
            if first == nil { first = Problem(line: torn, message: "torn last line", kind: .torn) }
        }
        guard let first else { return }
        let log = TerminalText.escape(log)
        let more = count == 1 ? "" : " (and \(count - 1) more; run 'compass replay')"
        console.err("warning: \(log) has \(count) problem\(count == 1 ? "" : "s"); first: \(log):\(first.line): \(TerminalText.escape(first.message))\(more)\n")
    }
}
