import CompassCore
import CompassStore
import Foundation

/// `compass audit`: the recruiting history, one line per event and per rejected line.
enum AuditCommand {
    static func run(_ inv: Invocation) throws {
        let args = inv.arguments
        var query = AuditQuery()
        if let entity = args.value("entity") { query.entity = entity }
        if let actor = args.value("actor") { query.actor = actor }
        if let text = args.value("since") { query.since = try inv.time(text, option: "--since") }
        if let text = args.value("until") { query.until = try inv.time(text, option: "--until") }
        let zone = try inv.timeZone()
        let store = try inv.store()
        let cut = try inv.cut()
        // The viewer is resolved first (a summary read), so each entry can be filtered and
        // written as its line is replayed: memory does not grow with the log. They are the
        // member they are now, also in a history cut before they joined (`--at-seq 0`).
        var viewer: Viewer?
        var scope = ReplayScope.everything
        if let id = args.value("as") ?? inv.environment["COMPASS_USER"] {
            scope = .familyOf(id)
            let members = try store.replay(.init(scope: .summary, problems: .summary))
            do throws(EventError) { viewer = try Viewer(id, in: members.state) } catch { throw CLIError.domain(error.message) }
        }
        let style = TextStyle(inv)
        // `--limit N`: the latest N entries (as `git log -n`), still oldest first; kept in a ring of
        // N while the log is read. Without it every entry streams out as it is found.
        let limit = try inv.limit()
        var latest: [[UInt8]] = []
        var next = 0
        var trail = AuditTrail(zone: zone)
        var out: [UInt8] = []
        var written = 0
        let console = inv.console
        let json = inv.json
        let (progress, meter) = inv.readProgress("auditing")
        defer { meter?.finish() }
        let replayer = try store.replay(.init(cut: cut, scope: scope, problems: .summary, progress: progress, observer: { outcome, state in
            trail.record(outcome, state: state)
            for entry in trail.takeEntries() where AuditTrail.shows(entry, to: viewer, query: query) {
                let bytes = json ? AuditJSON.line(entry) : Array(line(entry, zone: zone, style: style).utf8)
                written += 1
                guard let limit else { out += bytes; continue }
                if latest.count < limit { latest.append(bytes) } else { latest[next] = bytes }
                next = (next + 1) % limit
            }
            if out.count >= 1 << 16 {
                console.out(bytes: out)
                out.removeAll(keepingCapacity: true)
            }
        }))
        inv.console.keepUntilExit(replayer)
        if limit != nil {
            // Oldest first: the ring starts at `next` once it is full.
            for index in 0..<latest.count { out += latest[(next + index) % latest.count] }
        }
        if written == 0, !json { out = Array((style.dim("No history matches") + "\n").utf8) }
        inv.console.out(bytes: out)
        if written == 0, let entity = query.entity, let viewer, let hint = try entityHint(entity, viewer: viewer, store: store) {
            inv.console.err("hint: \(hint)\n")
        }
    }

    /// When `--entity` names no id of the viewer's family: the closest ones it has (never
    /// another family's).
    static func entityHint(_ entity: String, viewer: Viewer, store: CompassStore) throws -> String? {
        let views = try store.views(as: viewer.userId)
        var ids = views.schools().map(\.schoolId) + views.coaches().map(\.coachId) + views.documents().map(\.documentId)
        ids += try views.interactions().items.map(\.id)
        guard !ids.contains(entity) else { return nil }
        let near = Suggestions.closest(to: entity, in: ids)
        let named = "no '\(TerminalText.escape(entity))' in your family"
        return near.isEmpty ? named + "; 'compass schools', 'compass coaches' and 'compass interactions' list its ids"
                            : named + "; did you mean " + near.joined(separator: ", ") + "?"
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
        let what = entry.rejection.map { "REJECTED (line \(entry.line)): \($0)" } ?? entry.summary
        let rejected = entry.rejection != nil
        func colour(_ text: String) -> String { rejected ? s.red(text) : text }
        // One entry, one line (greppable, like `git log --oneline`) into a file or a pipe, and on
        // a terminal wide enough; on a narrower one the entry's facts, cut to fit, then what it
        // did on the lines under them, each within the width (colour put on after the cut).
        let lead = parts.joined(separator: " · ")
        guard s.fitsWidth, Cells.width(lead + " · " + what) > s.width else { return lead + " · " + colour(what) + "\n" }
        var out = TextStyle.truncate(lead, to: s.width) + "\n"
        for piece in TextStyle.clamp(what, width: max(10, s.width - 2), lines: 3) { out += "  " + colour(piece) + "\n" }
        return out
    }
}
