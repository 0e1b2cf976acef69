import CompassCore
import CompassStore

/// `add-member`, `add-school`, `add-coach`, `log-interaction`, `delete-interaction`,
/// `change-status`, `upload-document`: each turns its options into one draft; the
/// ``LogWriter`` decides and writes it.
enum AppendCommands {
    static func run(_ inv: Invocation) throws {
        let args = inv.arguments
        let now = try inv.now()
        let eventId = args.value("event-id")
        if let eventId, !Identifier.isValid(eventId) { throw CLIError.usage("invalid event id '\(TerminalText.escape(eventId))' (expected 1–64 of A-Z a-z 0-9 _ . : -)") }
        let expectSeq = try args.value("expect-seq").map { text throws in try inv.integer(text, option: "--expect-seq", minimum: 0, maximum: EnvelopeDecoder.maxSeq) }
        let newEventId = eventId ?? inv.makeId()
        let actor: String
        if args.command == "add-member", let family = args.value("family"), !familyExists(family, inv: inv) {
            // A new family: its first member joins on their own (SPEC §4).
            actor = args.value("user") ?? ""
        } else {
            actor = try inv.viewer()
        }
        // Everything read from files or parsed from words is checked before the log is locked.
        var files = FileInputs()
        if args.command == "log-interaction" {
            for path in args.all("attach") { files.attachments.append(try AttachmentStore.stage(inv.resolve(path), fs: inv.fileSystem)) }
            files.interest = try args.value("interest").map { text throws in try interestAnswers(text) }
        }
        if args.command == "upload-document", let path = args.value("file") {
            files.document = try AttachmentStore.describe(inv.resolve(path), fs: inv.fileSystem)
        }
        let inputs = files
        let store = AttachmentStore(logPath: inv.logPath)
        let writer = LogWriter(path: inv.logPath, snapshots: inv.snapshots, fileSystem: inv.fileSystem)
        let fs = inv.fileSystem
        let outcome = try writer.append(
            eventId: eventId, expectSeq: expectSeq, actor: actor,
            beforeWrite: { _ throws(StoreError) in try store.save(inputs.attachments, fs: fs) },
            build: { state, original throws(StoreError) in
                let (type, family, data) = try payload(args, actor: actor, state: state, original: original,
                                                       now: now, files: inputs)
                return [EventDraft(seq: 1, id: newEventId, type: type.rawValue, at: now, actor: actor, family: family, data: data)]
            })
        let event: Event
        switch outcome {
        case .written(let events): event = events[0]
        case .alreadyPresent(let existing): event = existing
        }
        if inv.json {
            var w = JSONWriter()
            w.beginObject()
            w.field("seq", event.seq)
            w.field("eventId", event.id)
            w.field("id", event.payload.entityId)
            w.endObject()
            inv.console.out(bytes: w.bytes + [0x0A])
        } else {
            inv.console.out(event.payload.entityId + "\n")
        }
    }

    /// The event type, family and `data` object for one append command.
    static func payload(_ args: ParsedArguments, actor: String, state: CompassState, original: Event?,
                        now: Timestamp, files: FileInputs) throws(StoreError) -> (EventType, String, JSONObject) {
        var data = JSONObject()
        func put(_ key: String, _ option: String) {
            if let value = args.value(option) { data.append(key, .string(value)) }
        }
        let reused = original?.payload.entityId
        if args.command == "add-member" {
            let user = args.value("user") ?? ""
            // Into the family of `--as`; `--family` names a new family (its first member is the actor).
            let family = state.members[actor]?.family ?? args.value("family") ?? "f-\(user)"
            data.append("userId", .string(user))
            put("fullName", "name")
            put("role", "role")
            return (.memberJoined, family, data)
        }
        guard let member = state.members[actor] else { throw .rejected(EventError("Unknown user \(actor)")) }
        let family = state.families[member.family] ?? Family(id: member.family)
        switch args.command {
        case "add-school":
            let id = args.value("school") ?? reused
                ?? DefaultIds.unique("s-" + Identifier.slug(args.value("name") ?? "")) { family.schools[$0] != nil }
            data.append("schoolId", .string(id))
            put("name", "name")
            put("status", "status")
            return (.schoolAdded, member.family, data)
        case "add-coach":
            let name = (args.value("first") ?? "") + " " + (args.value("last") ?? "")
            let id = args.value("coach") ?? reused
                ?? DefaultIds.unique("c-" + Identifier.slug(name)) { family.coaches[$0] != nil }
            data.append("coachId", .string(id))
            put("schoolId", "school")
            put("firstName", "first")
            put("lastName", "last")
            put("role", "role")
            return (.coachAdded, member.family, data)
        case "log-interaction":
            let id = args.value("interaction") ?? reused
                ?? DefaultIds.numbered("i-", after: family.interactions.count) { family.interactions[$0] != nil }
            data.append("interactionId", .string(id))
            put("schoolId", "school")
            put("coachId", "coach")
            put("eventId", "event")
            put("otherCoachName", "other-coach")
            put("type", "type")
            put("direction", "direction")
            // Without --occurred-at, `at` stands in (SPEC §4): no clock-filled field, so a retry
            // of the same command compares equal.
            put("occurredAt", "occurred-at")
            put("subject", "subject")
            put("content", "content")
            put("sentiment", "sentiment")
            if let answers = files.interest { data.append("interestAnswers", .array(answers)) }
            if !files.attachments.isEmpty {
                data.append("attachments", .array(files.attachments.map { $0.json }))
            }
            return (.interactionLogged, member.family, data)
        case "delete-interaction":
            data.append("interactionId", .string(args.positionals[0]))
            return (.interactionDeleted, member.family, data)
        case "change-status":
            put("schoolId", "school")
            put("newStatus", "status")
            put("notes", "notes")
            return (.schoolStatusChanged, member.family, data)
        default:  // upload-document
            let id = args.value("document") ?? reused
                ?? DefaultIds.numbered("d-", after: family.documents.count) { family.documents[$0] != nil }
            data.append("documentId", .string(id))
            put("title", "title")
            put("docType", "doc-type")
            if let file = files.document {
                data.append("fileName", .string(file.name))
                data.append("sizeBytes", .int(file.size))
            }
            return (.documentUploaded, member.family, data)
        }
    }

    /// Whether a family id already has members in the log (read without a full replay when a
    /// snapshot matches).
    static func familyExists(_ family: String, inv: Invocation) -> Bool {
        guard inv.fileSystem.kind(of: inv.logPath) == .regular,
              let replayer = try? LogReader.replay(path: inv.logPath, fs: inv.fileSystem, snapshots: inv.snapshots,
                                                   scope: .summary, problems: .summary) else { return false }
        return replayer.state.members.values.contains { $0.family == family }
    }

    /// `y,n,y,n,n,y` → six booleans (yes/no/true/false accepted too).
    static func interestAnswers(_ text: String) throws -> [JSONValue] {
        var answers: [JSONValue] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            switch word.trimmingSpaces().lowercased() {
            case "y", "yes", "true", "1": answers.append(.bool(true))
            case "n", "no", "false", "0": answers.append(.bool(false))
            default: throw CLIError.usage("invalid value '\(text)' for '--interest' (expected six of y|n, comma-separated)")
            }
        }
        return answers
    }
}

/// What an append read from files or parsed from words before taking the lock.
struct FileInputs {
    var attachments: [StagedAttachment] = []
    var interest: [JSONValue]?
    var document: (name: String, size: Int64)?
}

/// Readable default ids for new entities: `s-arizona-state`, `c-jane-doe`, `i-12`, `d-3`.
enum DefaultIds {
    /// `base`, or `base-2`, `base-3`… when taken.
    static func unique(_ base: String, isTaken: (String) -> Bool) -> String {
        let trimmed = base.hasSuffix("-") ? base + "1" : base
        guard isTaken(trimmed) else { return trimmed }
        var n = 2
        while isTaken("\(trimmed)-\(n)") { n += 1 }
        return "\(trimmed)-\(n)"
    }

    /// `prefix(count+1)`, moving on while taken.
    static func numbered(_ prefix: String, after count: Int, isTaken: (String) -> Bool) -> String {
        var n = count + 1
        while isTaken("\(prefix)\(n)") { n += 1 }
        return "\(prefix)\(n)"
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var result = self
        while result.first == " " { result = result.dropFirst() }
        while result.last == " " { result = result.dropLast() }
        return result
    }
}
