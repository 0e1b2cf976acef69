import CompassCore
import CompassStore

/// `compass import FILE`: validates a JSON-lines file of events (a family's history exported
/// from the web app, say) against the rules and appends them in one locked, fsynced batch,
/// all or nothing, reporting every rejected line with its number.
///
/// Each line is read exactly as replay reads a log line (the same line splitter, strict
/// parser and envelope decoder), then import's defaults fill what an export may leave out:
/// `id` (a new UUID), `at` (now) and `family` (the actor's family, or the joining user's
/// new family `f-USER`); `seq` and `prev` are assigned on append. A last line without `\n`
/// is a line like the others (a file is not a log being written).
enum ImportCommand {
    static func run(_ inv: Invocation) throws {
        let given = inv.arguments.positionals[0]
        // `-` reads standard input.
        guard let bytes = given == "-" ? inv.standardInput(Int.max - 1) : try inv.fileSystem.readFile(inv.resolve(given)) else {
            throw CLIError.io("cannot open \(TerminalText.escape(given)): no such file")
        }
        let now = try inv.now()
        let expectVersion = try inv.arguments.value("expect-version").map { text throws in
            try inv.integer(text, option: "--expect-version", minimum: 0, maximum: EnvelopeDecoder.maxSeq)
        }
        var ranges: [Range<Int>] = []
        let end = bytes.withUnsafeBufferPointer { LineSplitter.completeLines(in: $0, from: 0, to: $0.count, into: &ranges) }
        if end < bytes.count { ranges.append(end..<bytes.count) }
        // Decoded on every core, a block of lines at a time, payloads built as the writer would
        // (markup stripped); ids for lines without one are made in line order afterwards. Only
        // readable lines are kept as drafts, an unreadable one as its problem alone: memory
        // follows the valid events, not the input's line count.
        let placeholder = EventDraft(seq: 1, id: "_", type: "_", at: now, actor: "_", family: "_", data: JSONObject())
        var drafts: [EventDraft] = []
        var payloads: [Result<Payload, EventError>] = []
        var numbers: [Int] = []
        var unreadable: [Problem] = []
        var messages: [String: String] = [:]  // one copy of each problem's text, however many lines share it
        var withoutFamily = false
        let block = 1 << 16
        for first in stride(from: 0, to: ranges.count, by: block) {
            let lines = Array(ranges[first..<min(ranges.count, first + block)])
            let decoded = bytes.withUnsafeBufferPointer { all in
                Parallel.map(lines, minimum: 64, scratch: { JSONTape() }) { range, tape -> ImportDecoder.Line in
                    ImportDecoder.decode(UnsafeBufferPointer(rebasing: all[range]), at: now, sanitizing: true, tape: &tape)
                }
            }
            for (offset, line) in decoded.enumerated() {
                let index = first + offset
                switch line {
                case .draft(var draft, let payload):
                    if draft.id == ImportDecoder.missingId { draft.id = inv.makeId() }
                    if draft.family.isEmpty { withoutFamily = true }
                    drafts.append(draft)
                    payloads.append(payload)
                    numbers.append(index + 1)
                case .problem(let error):
                    let message = messages[error.message] ?? error.message
                    messages[message] = message
                    unreadable.append(Problem(line: index + 1, message: message, kind: error.kind))
                case .blank where index == ranges.count - 1 && ranges[index].upperBound == bytes.count:
                    continue  // white space after the last newline
                case .blank:
                    unreadable.append(Problem(line: index + 1, message: "blank line", kind: .unreadable))
                }
            }
        }
        // A file with an unreadable line writes nothing; its readable lines are still decided
        // (every rejected line is reported), and then the write is stopped before it starts.
        let anyUnreadable = !unreadable.isEmpty
        if anyUnreadable, drafts.isEmpty { throw StoreError.rejectedLines(unreadable) }
        var shapeProblems: [Problem] = []
        // What the batch names: a database store reads only the families these are in (every
        // line names its family; else the whole store is read). A file is read whole anyway.
        var names: BatchNames?
        if !withoutFamily, CompassStore.isDatabaseAddress(inv.logPath) {
            var users: Set<String> = []
            for (draft, payload) in zip(drafts, payloads) {
                users.insert(draft.actor)
                if case .success(.memberJoined(let joined)) = payload { users.insert(joined.userId) }
            }
            names = BatchNames(families: Set(drafts.map(\.family)), users: users, eventIds: Set(drafts.map(\.id)))
        }
        let store = try CompassStore(path: inv.logPath, createIfMissing: true, configuration: .init(), fileSystem: inv.fileSystem,
                                     snapshots: inv.snapshots)
        let events: [Event]
        let (progress, meter) = inv.readProgress("reading the log before importing")
        defer { meter?.finish() }
        do throws(StoreError) {
            let importedFile = given == "-" ? nil : inv.resolve(given)
            var staged: [StagedAttachment] = []
            events = try store.importBatch(expectVersion: expectVersion, lineNumbers: numbers, prebuilt: payloads, names: names,
                                           beforeWrite: { _ throws(StoreError) in
                                               if anyUnreadable { throw .rejectedLines([]) }  // decided, never written
                                               return try store.saveBlobs(staged)
                                           },
                                           keepUntilExit: inv.console.keepUntilExit, progress: progress) { state, _ throws(StoreError) in
                shapeProblems = unreadable
                var filled = drafts
                var families: [String: String] = [:]  // users who join in this file
                var ownBlobs: [String: Set<String>] = [:]  // each family's attachment hashes, worked out once
                for index in filled.indices {
                    do throws(EventError) {
                        // Lines that name their family (a log's own lines) are taken as they are.
                        if withoutFamily { try fillFamily(&filled[index], joining: payloads[index], state: state, families: &families) }
                    } catch {
                        shapeProblems.append(Problem(line: numbers[index], message: error.message, kind: error.kind))
                        filled[index] = placeholder
                        continue
                    }
                    // The blobs a line names: an interaction's attachments, a document's bytes (v3).
                    guard case .success(let payload) = payloads[index] else { continue }
                    let family = filled[index].family
                    let own = ownBlobs[family] ?? state.families[family]?.attachmentHashes ?? []
                    ownBlobs[family] = own
                    switch try store.importableBlobs(of: payload, own: own, importedFile: importedFile) {
                    case .success(let bytes): staged += bytes
                    case .failure(let refusal):
                        shapeProblems.append(Problem(line: numbers[index], message: refusal.message, kind: refusal.kind))
                        filled[index] = placeholder
                    }
                }
                return filled
            }
        } catch {
            guard case .rejectedLines(let problems) = error else { throw error }
            // Lines whose shape was wrong carry that message, not the placeholder's.
            let shaped = Set(shapeProblems.map(\.line))
            let all = shapeProblems + problems.filter { !shaped.contains($0.line) }
            throw StoreError.rejectedLines(all.sorted { $0.line < $1.line })
        }
        // Each family's stream gained its own run of `seq`s (SPEC §1.1).
        var runs: [String: (first: Int64, last: Int64)] = [:]
        for event in events { runs[event.family] = (runs[event.family]?.first ?? event.seq, event.seq) }
        let families = runs.keys.sorted()
        if inv.json {
            var w = JSONWriter()
            w.beginObject()
            w.field("imported", events.count)
            w.key("families")
            w.beginArray()
            for family in families {
                w.beginObject()
                w.field("family", family)
                w.field("firstSeq", runs[family]!.first)
                w.field("lastSeq", runs[family]!.last)
                w.endObject()
            }
            w.endArray()
            w.endObject()
            inv.console.out(bytes: w.bytes + [0x0A])
        } else {
            var out = "imported \(events.count) \(events.count == 1 ? "event" : "events")\n"
            for family in families {
                let run = runs[family]!
                let seqs = run.first == run.last ? "seq \(run.first)" : "seq \(run.first)–\(run.last)"
                out += "  \(TerminalText.escape(family)): \(seqs)\n"
            }
            inv.console.out(out)
        }
    }

    /// Fills a draft's family when its line left it out: the actor's family, a family joined
    /// earlier in the file, or the joining user's new family.
    static func fillFamily(_ draft: inout EventDraft, joining payload: Result<Payload, EventError>, state: CompassState,
                           families: inout [String: String]) throws(EventError) {
        let joining: String? = if draft.type == EventType.memberJoined.rawValue { joiningUser(draft, payload) } else { nil }
        if draft.family.isEmpty {
            if let family = state.members[draft.actor]?.family ?? families[draft.actor] {
                draft.family = family
            } else if let joining, joining == draft.actor {
                draft.family = "f-\(joining)"
            } else {
                throw EventError("Unknown user \(draft.actor)")
            }
        }
        if let joining { families[joining] = draft.family }
    }

    /// The `userId` a `MemberJoined` line names: from its built payload, or from its raw data
    /// when the payload did not build.
    static func joiningUser(_ draft: EventDraft, _ payload: Result<Payload, EventError>) -> String? {
        if case .success(.memberJoined(let joined)) = payload { return joined.userId }
        if case .string(let user)? = draft.data["userId"] { return user }
        return nil
    }
}
