import CompassCore

/// `compass replay`: counts by type, members, live interactions and every problem.
enum ReplayCommand {
    static func run(_ inv: Invocation) throws(CLIError) {
        let replayer = try LogReader.replay(path: inv.logPath, cut: try inv.cut(), snapshots: inv.snapshots, scope: .summary)
        inv.console.keepUntilExit(replayer)
        let state = replayer.state
        let byType = EventType.allCases.map { ($0.rawValue, state.countsByType[$0] ?? 0) }
            .filter { $0.1 > 0 }.sorted { $0.0 < $1.0 }
        if inv.json {
            var w = JSONWriter()
            w.beginObject()
            w.field("events", replayer.linesRead)
            w.field("applied", state.appliedCount)
            w.key("byType")
            w.beginObject()
            for (type, count) in byType { w.field(type, count) }
            w.endObject()
            w.field("members", state.members.count)
            w.field("liveInteractions", state.liveInteractionCount)
            ProblemRendering.write(replayer.problems, into: &w)
            w.endObject()
            inv.console.out(bytes: w.bytes + [0x0A])
        } else {
            var text = "events: \(replayer.linesRead)\napplied: \(state.appliedCount)\n"
            let width = byType.map(\.0.count).max() ?? 0
            for (type, count) in byType {
                text += "  \(type)" + String(repeating: " ", count: width - type.count + 2) + "\(count)\n"
            }
            text += "members: \(state.members.count)\nlive interactions: \(state.liveInteractionCount)\n"
            text += "problems: \(replayer.problems.count)\n"
            for problem in replayer.problems { text += "  \(problem)\n" }
            inv.console.out(text)
        }
        if !replayer.problems.isEmpty { throw .silentFailure }
    }
}

/// Problems as output: JSON `{"line","message"}` objects, or a warning on stderr.
enum ProblemRendering {
    static func write(_ problems: [Problem], into w: inout JSONWriter) {
        w.key("problems")
        w.beginArray()
        for problem in problems {
            w.beginObject()
            w.field("line", problem.line)
            w.field("message", problem.message)
            w.endObject()
        }
        w.endArray()
    }

    /// The one warning line read commands print when the log has problems.
    static func warn(_ problems: [Problem], log: String, console: Console) {
        guard let first = problems.first else { return }
        let more = problems.count == 1 ? "" : " (and \(problems.count - 1) more; run 'compass replay')"
        console.err("warning: \(log) has \(problems.count) problem\(problems.count == 1 ? "" : "s"); first: \(log):\(first.line): \(first.message)\(more)\n")
    }
}
