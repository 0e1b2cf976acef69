import CompassCore
import CompassStore

/// `add-member`, `add-school`, `add-coach`, `log-interaction`, `delete-interaction`,
/// `change-status`, `upload-document`: each turns its words into one ``Command`` and hands it
/// to the ``CompassStore``, which drafts, decides and writes it.
enum AppendCommands {
    static func run(_ inv: Invocation) throws {
        let args = inv.arguments
        let now = try inv.now()
        let eventId = args.value("event-id")
        if let eventId, !Identifier.isValid(eventId) { throw CLIError.usage("invalid event id '\(TerminalText.escape(eventId))' (expected 1–64 of A-Z a-z 0-9 _ . : -)") }
        let expectVersion = try args.value("expect-version").map { text throws in
            try inv.integer(text, option: "--expect-version", minimum: 0, maximum: Envelope.maxSeq)
        }
        let actor: String
        var startsFamily = false
        if args.command == "add-member", let family = args.value("family") { startsFamily = try !familyExists(family, inv: inv) }
        if startsFamily {
            // A new family: its first member joins on their own (SPEC §4).
            actor = args.value("user") ?? ""
        } else {
            actor = try inv.viewer()
        }
        let command = try command(args, inv: inv)
        let ids = IdSource(inv.makeId)
        let store = try inv.store(mustExist: false, clock: { now }, makeId: { ids.next() })
        // Only a new family's first member starts a log: any other append to a path with no
        // log is a mistyped --log, not an unknown user.
        if !startsFamily, try !store.logExists() {
            throw CLIError.hinted("no log at \(inv.logPathForDisplay)",
                                  hint: "a log starts with its family's first member: compass add-member --family FAMILY --user USER --name NAME --role ROLE")
        }
        let files = args.command == "log-interaction" ? args.all("attach").map { AttachmentFile.path(inv.resolve($0)) }
            : args.command == "upload-document" ? args.all("file").map { AttachmentFile.path(inv.resolve($0)) } : []
        if case .addSchool(let school) = command, school.schoolId == nil, eventId == nil {
            try refuseSecondSchoolOfAName(school.name, as: actor, store: store)
        }
        let receipt: Receipt
        do throws(StoreError) {
            receipt = try store.append(command, as: actor, idempotencyKey: eventId, expectVersion: expectVersion, files: files)
        } catch {
            guard case .rejected(let rejection) = error else { throw error }
            if let hint = IdHints.hint(for: args, actor: actor, store: store) { throw CLIError.hinted(rejection.message, hint: hint) }
            // An interaction needs a school or a coach (a tweet too): say which options name them.
            if args.command == "log-interaction", rejection.message == RuleMessage.selectSchool,
               args.value("school") == nil, args.value("coach") == nil, args.value("new-coach") == nil {
                throw CLIError.hinted(rejection.message, hint: "give --school ID or --coach ID ('compass schools' and 'compass coaches' list them)")
            }
            throw error
        }
        if inv.json {
            var w = JSONWriter()
            w.beginObject()
            w.field("seq", receipt.seq)
            w.field("version", receipt.version)
            w.field("eventId", receipt.eventId)
            w.field("id", receipt.entityId)
            w.endObject()
            inv.console.out(bytes: w.bytes + [0x0A])
        } else {
            inv.console.out(receipt.entityId + "\n")
        }
    }

    /// A school whose name the family already has is most likely the same school typed again:
    /// it is refused, with how to add a second school of that name on purpose (its own
    /// `--school ID`). (A retry with `--event-id` is an idempotent append, never refused here.)
    static func refuseSecondSchoolOfAName(_ name: String, as actor: String, store: CompassStore) throws {
        let key = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !key.isEmpty else { return }
        let views: FamilyViews
        do throws(StoreError) {
            views = try store.views(as: actor)
        } catch {
            guard case .rejected = error else { throw error }
            return  // not a member: the append says so in the rules' words
        }
        guard let same = views.schools().first(where: { $0.name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == key }) else { return }
        throw CLIError.hinted("Your family already has a school named \(TerminalText.escape(same.name)) (\(same.schoolId))",
                              hint: "to add a second school of that name, give it its own id: --school ID")
    }

    /// `--status` as typed: one of the usual statuses; a typo of one (an edit or two away) is a
    /// usage error that names it; any other slug is recorded as given (SPEC §2 allows it), with
    /// a note on stderr.
    static func status(_ value: String?, _ inv: Invocation) throws -> String? {
        guard let value, !value.isEmpty else { return value }
        let known = CommandCatalog.statuses
        guard !known.contains(value) else { return value }
        if let near = known.min(by: { Suggestions.distance(value, $0) < Suggestions.distance(value, $1) }),
           Suggestions.distance(value, near) <= max(1, min(2, value.count / 4)) {
            throw CLIError.usage("invalid value '\(TerminalText.escape(value))' for '--status'; did you mean '\(near)'?")
        }
        guard TextRules.isSlug(value) else { return value }  // the rules refuse it: `Invalid status`
        inv.console.err("note: '\(TerminalText.escape(value))' is not one of the usual statuses (\(known.joined(separator: ", "))); it is recorded as given\n")
        return value
    }

    /// The command the words ask for (absent options stay absent: the rules name what is missing).
    static func command(_ args: ParsedArguments, inv: Invocation) throws -> Command {
        func text(_ option: String) -> String { args.value(option) ?? "" }
        switch args.command {
        case "add-member":
            return .addMember(AddMember(userId: text("user"), fullName: text("name"), role: text("role"), newFamily: args.value("family")))
        case "add-school":
            return .addSchool(AddSchool(name: text("name"), schoolId: args.value("school"), status: try status(args.value("status"), inv)))
        case "add-coach":
            return .addCoach(AddCoach(schoolId: text("school"), firstName: text("first"), lastName: text("last"), role: text("role"),
                                      coachId: args.value("coach")))
        case "log-interaction":
            return .logInteraction(LogInteraction(
                type: text("type"), direction: text("direction"), schoolId: args.value("school"), coachId: args.value("coach"),
                eventId: args.value("event"), otherCoachName: args.value("other-coach"),
                // Without --occurred-at, `at` stands in (SPEC §4): no clock-filled field, so a
                // retry of the same command compares equal.
                occurredAt: try occurredAt(inv), subject: args.value("subject"), content: try inv.longText("content"),
                sentiment: args.value("sentiment"), interestAnswers: try args.value("interest").map { text throws in try interestAnswers(text) },
                interactionId: args.value("interaction"), newCoach: try newCoach(args)))
        case "delete-interaction":
            return .deleteInteraction(DeleteInteraction(interactionId: args.positionals[0]))
        case "change-status":
            return .changeStatus(ChangeStatus(schoolId: text("school"), newStatus: try status(args.value("status"), inv) ?? "",
                                              notes: try inv.longText("notes")))
        default:  // upload-document: the store reads `--file` and records its name, size and hash
            return .uploadDocument(UploadDocument(title: text("title"), docType: text("doc-type"), documentId: args.value("document")))
        }
    }

    /// `--occurred-at` as given (kept as written when it is a valid time), or a date
    /// (`2026-11-01`) made midnight in the time zone; anything else is a bad time: a usage
    /// error (exit 2, SPEC §4), like `--now`.
    static func occurredAt(_ inv: Invocation) throws -> String? {
        guard let text = inv.arguments.value("occurred-at") else { return nil }
        if Timestamp(rfc3339: text) != nil { return text }
        return try inv.time(text, option: "--occurred-at").rfc3339
    }

    /// `--new-coach "First Last" --coach-role R`: a coach added in the same batch (seed 001).
    static func newCoach(_ args: ParsedArguments) throws -> NewCoach? {
        guard let name = args.value("new-coach") else {
            if args.has("coach-role") { throw CLIError.usage("'--coach-role' goes with '--new-coach NAME'") }
            return nil
        }
        if args.has("coach") { throw CLIError.usage("'--coach' and '--new-coach' cannot be combined (the new coach is the interaction's coach)") }
        let words = name.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 2 else {
            throw CLIError.usage("invalid value '\(TerminalText.escape(name))' for '--new-coach' (expected \"First Last\")")
        }
        return NewCoach(firstName: String(words[0]), lastName: words.dropFirst().joined(separator: " "), role: args.value("coach-role") ?? "")
    }

    /// Whether a family id already has members in the log (read without a full replay when a
    /// snapshot matches).
    static func familyExists(_ family: String, inv: Invocation) throws -> Bool {
        let store = try inv.store(mustExist: false)
        return try store.replay(.init(scope: .summary, problems: .summary)).state.members.values.contains { $0.family == family }
    }

    /// `y,n,y,n,n,y` → six booleans (yes/no/true/false accepted too).
    static func interestAnswers(_ text: String) throws -> [Bool] {
        var answers: [Bool] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            switch word.trimmingSpaces().lowercased() {
            case "y", "yes", "true", "1": answers.append(true)
            case "n", "no", "false", "0": answers.append(false)
            default: throw CLIError.usage("invalid value '\(TerminalText.escape(text))' for '--interest' (expected six of y|n, comma-separated)")
            }
        }
        guard answers.count == 6 else {
            throw CLIError.usage("invalid value '\(TerminalText.escape(text))' for '--interest' (expected six answers, one per question, got \(answers.count); e.g. y,n,y,n,n,y)")
        }
        return answers
    }
}

/// The invocation's id source, handed to the store (one command runs on one thread).
final class IdSource: @unchecked Sendable {
    private let make: () -> String
    init(_ make: @escaping () -> String) { self.make = make }
    func next() -> String { make() }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var result = self
        while result.first == " " { result = result.dropFirst() }
        while result.last == " " { result = result.dropLast() }
        return result
    }
}
