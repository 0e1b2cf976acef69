import CompassCore

/// `compass import FILE`: validates a JSON-lines file of events (a family's history exported
/// from the web app, say) against the rules and appends them in one locked, fsynced batch,
/// all or nothing, reporting every rejected line with its number.
///
/// Each line needs `type`, `actor` and `data`; `id` (default: a new UUID), `at` (default:
/// now) and `family` (default: the actor's family, or the joining user's new family) are
/// optional; `seq` and `prev` are ignored and assigned on append.
enum ImportCommand {
    static func run(_ inv: Invocation) throws(CLIError) {
        let path = inv.resolve(inv.arguments.positionals[0])
        guard let bytes = try POSIX.readFile(path) else { throw .io("cannot open \(inv.arguments.positionals[0]): no such file") }
        let now = try inv.now()
        let expectSeq = try inv.arguments.value("expect-seq").map { text throws(CLIError) in try inv.integer(text, option: "--expect-seq", minimum: 0) }
        // Lines are split here and parsed on every core.
        var ranges: [Range<Int>] = []
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            ranges.append(start..<end)
            start = end + 1
        }
        let parsed = bytes.withUnsafeBufferPointer { all in
            Parallel.map(ranges) { range -> ParsedLine in
                let line = UnsafeBufferPointer(rebasing: all[range])
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
                guard case .object(let object)? = JSONParser.parse(line) else { return .invalid }
                return .object(object)
            }
        }
        var unreadable: [Problem] = []
        var lines: [(number: Int, object: JSONObject?)] = []
        for (index, line) in parsed.enumerated() {
            let number = index + 1
            switch line {
            case .object(let object):
                lines.append((number, object))
            case .invalid:
                unreadable.append(Problem(line: number, message: "invalid JSON"))
                lines.append((number, nil))
            case .blank where ranges[index].upperBound < bytes.count:
                unreadable.append(Problem(line: number, message: "blank line"))
                lines.append((number, nil))
            case .blank:
                break  // white space after the last newline
            }
        }
        inv.console.keepUntilExit(parsed)
        inv.console.keepUntilExit(lines)
        var shapeProblems = unreadable
        let writer = LogWriter(path: inv.logPath, snapshots: inv.snapshots)
        let outcome: AppendOutcome
        do throws(CLIError) {
            outcome = try writer.append(eventId: nil, expectSeq: expectSeq, lineNumbers: lines.map(\.number),
                                        keepUntilExit: inv.console.keepUntilExit) { state, _ throws(CLIError) in
                var drafts: [EventDraft] = []
                var families: [String: String] = [:]  // users who join in this file
                // Unreadable lines get a placeholder that the rules reject, so nothing is written.
                let placeholder = EventDraft(seq: 1, id: "_", type: "_", at: now, actor: "_", family: "_", data: JSONObject())
                for (lineNumber, object) in lines {
                    guard let object else { drafts.append(placeholder); continue }
                    do throws(EventError) {
                        drafts.append(try draft(object, now: now, state: state, families: &families, makeId: inv.makeId))
                    } catch {
                        shapeProblems.append(Problem(line: lineNumber, message: error.message))
                        drafts.append(placeholder)
                    }
                }
                return drafts
            }
        } catch {
            guard case .rejectedLines(let problems) = error else { throw error }
            // Lines whose shape was wrong carry that message, not the placeholder's.
            let shaped = Set(shapeProblems.map(\.line))
            let all = shapeProblems + problems.filter { !shaped.contains($0.line) }
            throw .rejectedLines(all.sorted { $0.line < $1.line })
        }
        guard case .written(let events) = outcome else { return }
        if inv.json {
            var w = JSONWriter()
            w.beginObject()
            w.field("imported", events.count)
            w.field("firstSeq", events.first?.seq)
            w.field("lastSeq", events.last?.seq)
            w.endObject()
            inv.console.out(bytes: w.bytes + [0x0A])
        } else if let first = events.first, let last = events.last {
            inv.console.out("imported \(events.count) events (seq \(first.seq)–\(last.seq))\n")
        } else {
            inv.console.out("imported 0 events\n")
        }
    }

    enum ParsedLine {
        case blank, invalid, object(JSONObject)
    }

    /// A draft from one imported line, filling what the export may leave out.
    static func draft(_ object: JSONObject, now: Timestamp, state: CompassState, families: inout [String: String],
                      makeId: () -> String) throws(EventError) -> EventDraft {
        func text(_ key: String) throws(EventError) -> String? {
            guard let value = object[key], value != .null else { return nil }
            guard case .string(let s) = value else { throw EventError("field \(key) must be a string") }
            return s
        }
        guard let type = try text("type") else { throw EventError("missing field type") }
        guard let actor = try text("actor") else { throw EventError("missing field actor") }
        guard case .object(let data)? = object["data"] else { throw EventError("missing field data") }
        let id = try text("id") ?? makeId()
        guard Identifier.isValid(id) else { throw EventError("field id must be an id") }
        var at = now
        if let text = try text("at") {
            guard let time = Timestamp(rfc3339: text) else { throw EventError("field at must be an RFC 3339 time") }
            at = time
        }
        var family = try text("family") ?? state.members[actor]?.family ?? families[actor]
        if family == nil, type == EventType.memberJoined.rawValue, case .string(let user)? = data["userId"], user == actor {
            family = "f-\(user)"
        }
        guard let family, Identifier.isValid(family) else { throw EventError("Unknown user \(actor)") }
        if type == EventType.memberJoined.rawValue, case .string(let user)? = data["userId"] { families[user] = family }
        var version: Int64 = 1
        if case .int(let v)? = object["v"] { version = v }
        return EventDraft(seq: 1, id: id, type: type, at: at, actor: actor, family: family, data: data, version: version)
    }
}
