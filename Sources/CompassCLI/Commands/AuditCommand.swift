import CompassCore
import Foundation

/// `compass audit`: the recruiting history, one line per event and per rejected line.
enum AuditCommand {
    static func run(_ inv: Invocation) throws(CLIError) {
        let args = inv.arguments
        var query = AuditQuery()
        if let entity = args.value("entity") { query.entity = entity }
        if let actor = args.value("actor") { query.actor = actor }
        if let text = args.value("since") { query.since = try inv.time(text, option: "--since") }
        if let text = args.value("until") { query.until = try inv.time(text, option: "--until") }
        let zone = try inv.timeZone()
        var trail = AuditTrail(zone: zone)
        let replayer = try LogReader.replay(path: try inv.existingLog(), fs: inv.fileSystem, cut: try inv.cut(),
                                            observer: { outcome, state in trail.record(outcome, state: state) },
                                            problems: .summary)
        inv.console.keepUntilExit(replayer)
        var viewer: Viewer?
        if let id = args.value("as") ?? inv.environment["COMPASS_USER"] {
            do throws(EventError) { viewer = try Viewer(id, in: replayer.state) } catch { throw .domain(error.message) }
        }
        let entries = trail.entries(for: viewer, query: query)
        if inv.json {
            var out: [UInt8] = []
            for entry in entries { out += AuditJSON.line(entry) }
            inv.console.out(bytes: out)
            return
        }
        let style = TextStyle(inv)
        var out = ""
        for entry in entries { out += line(entry, zone: zone, style: style) }
        if entries.isEmpty { out = style.dim("No history matches") + "\n" }
        inv.console.out(out)
    }

    static func line(_ entry: AuditEntry, zone: TimeZone, style s: TextStyle) -> String {
        let entry = entry.forTerminal
        var parts: [String] = [entry.seq.map { "#\($0)" } ?? "line \(entry.line)"]
        if let at = entry.at { parts.append(DateText.long(at, in: zone)) }
        if let actor = entry.actor {
            if let name = entry.actorName, let role = entry.actorRole {
                parts.append("\(name) (\(role == .player ? "athlete" : "parent"))")
            } else {
                parts.append(actor)
            }
        }
        if let type = entry.type { parts.append(type) }
        if let reason = entry.rejection {
            parts.append(s.red("REJECTED (line \(entry.line)): \(reason)"))
        } else {
            parts.append(entry.summary)
        }
        return parts.joined(separator: " · ") + "\n"
    }
}
