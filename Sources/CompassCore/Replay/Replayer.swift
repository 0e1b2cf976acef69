/// One problem found in a log: its 1-based line, the SPEC's message, what kind of problem it
/// is and the family of its line (when the line names one readably).
///
/// Two problems are equal when they have the same line and message: the kind follows from
/// the message and the family from the line.
public struct Problem: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line in the log.
    public var line: Int
    /// The SPEC's message.
    public var message: String
    /// What kind of problem it is.
    public var kind: ProblemKind
    /// The line's `family` when it is a readable id; nil for unreadable lines.
    public var family: String?

    public init(line: Int, message: String, kind: ProblemKind = .rule, family: String? = nil) {
        self.line = line
        self.message = message
        self.kind = kind
        self.family = family
    }

    public static func == (a: Problem, b: Problem) -> Bool { a.line == b.line && a.message == b.message }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        hasher.combine(message)
    }

    /// `LINE: message`.
    public var description: String { "\(line): \(message)" }
}

/// What kind of problem a line has, so callers never compare message texts.
public enum ProblemKind: UInt8, Sendable, Hashable, CaseIterable {
    /// Blank, not JSON, or longer than ``Replayer/maxLineBytes``.
    case unreadable
    /// A last line without `\n`.
    case torn
    /// A missing or wrong-typed envelope or payload field.
    case shape
    /// A `seq` other than the previous one + 1 (the event is still applied).
    case sequence
    /// A `prev` that does not match, or is missing once the chain started (still applied).
    case chain
    case duplicate
    case unknownType
    case unsupportedVersion
    /// A rule of SPEC §2 about a value: missing, too long, not allowed, already used.
    case rule
    /// A user, or an entity of the family, that is not there (`Unknown user U`,
    /// `Interaction not found`): another family's ids are never "forbidden", only not found.
    case notFound
    /// Something the actor's role may not do (`Only players can create interactions`).
    case forbidden
    /// An `Erased` record (SPEC §5): replay skips it without a problem; appends refuse it.
    case erased
}

/// The problems of a log in bounded memory: how many, and the first of each family's lines
/// (lines without a readable family under nil).
public struct ProblemSummary: Hashable, Sendable {
    /// How many problems one family's lines have, and the first.
    public struct Entry: Hashable, Sendable {
        /// How many.
        public var count: Int
        /// The first problem.
        public var first: Problem
    }

    /// How many.
    public private(set) var count = 0
    /// Per family id (nil: lines that name none), how many problems and the first.
    public private(set) var byFamily: [String?: Entry] = [:]

    public init() {}

    mutating func record(_ problem: Problem) {
        count += 1
        if byFamily[problem.family] == nil {
            byFamily[problem.family] = Entry(count: 1, first: problem)
        } else {
            byFamily[problem.family]!.count += 1
        }
    }

    /// Rebuilds a summary (a snapshot's).
    public init(count: Int, byFamily: [String?: Entry]) {
        self.count = count
        self.byFamily = byFamily
    }

    /// The problems a member of `family` may be told about: their family's lines and lines
    /// that name no family (which carry nothing of anyone's).
    public func visible(to family: String?) -> (count: Int, first: Problem?) {
        let own = family.flatMap { byFamily[$0] }
        let unnamed = byFamily[nil as String?]
        let firsts = [own?.first, unnamed?.first].compactMap { $0 }.sorted { $0.line < $1.line }
        return ((own?.count ?? 0) + (unnamed?.count ?? 0), firsts.first)
    }
}

/// How much a ``Replayer`` keeps of the problems it finds (it always keeps a ``ProblemSummary``).
package enum ProblemRetention: Sendable {
    /// Every problem, in ``Replayer/problems``.
    case all
    /// The summary only: memory does not grow with the number of bad lines.
    case summary
    /// Each problem handed to a closure as it is found (a command streams them out).
    case forward(@Sendable (Problem) -> Void)
}

/// Where to end a replay: before the first line whose readable `seq` is greater than
/// `atSeq`, or whose readable `at` is later than `asOf` (SPEC §4).
package struct ReplayCut: Equatable, Sendable {
    package var atSeq: Int64?
    package var asOf: Timestamp?

    package init(atSeq: Int64? = nil, asOf: Timestamp? = nil) {
        self.atSeq = atSeq
        self.asOf = asOf
    }

    func ends(seq: Int64?, at: Timestamp?) -> Bool {
        if let atSeq, let seq, seq > atSeq { return true }
        if let asOf, let at, at > asOf { return true }
        return false
    }
}

/// What happened to one line during replay.
package enum LineOutcome {
    case applied(line: Int, event: Event)
    /// Not applied: the draft when its envelope could be read, and the reason.
    case rejected(line: Int, draft: EventDraft?, message: String)
    /// An `Erased` record (SPEC §5): skipped without a problem.
    case erased(line: Int, draft: EventDraft)
}

/// Replays a log line by line (SPEC §2.2): parse, check the envelope, decide, fold.
///
/// Feed it lines with ``consume(line:terminated:)``; every line that fails a step is recorded
/// as a ``Problem`` and the rest of the log is still replayed.
///
/// ```swift
/// var replayer = Replayer()
/// replayer.consume(bytes: logBytes)
/// print(replayer.state.liveInteractionCount, replayer.problems)
/// ```
package struct Replayer {
    /// Lines longer than this many bytes are reported as `line too long` and not parsed, so a
    /// pathological line cannot make memory grow without limit. A valid event is far smaller
    /// (content is at most 10,000 UTF-16 units); appends refuse to write a longer line.
    package static let maxLineBytes = 1 << 20

    /// The folded state of every applied event.
    package private(set) var state = CompassState()
    /// Every problem, in line order (with ``ProblemRetention/all``).
    package private(set) var problems: [Problem] = []
    /// How many problems, and the first of each family's lines.
    package private(set) var problemSummary = ProblemSummary()
    /// The line of a torn last line, if the replay ended with one.
    package private(set) var tornLine: Int?
    private let retention: ProblemRetention
    /// Lines read, a torn last line included.
    package private(set) var linesRead = 0
    /// The last readable `seq` (0 before any).
    package private(set) var lastSeq: Int64 = 0
    /// SHA-256 of the last complete line's bytes: the `prev` the next line must carry.
    package var headHash: String { head.text }
    /// The head as the last line left it: words for a line read here, text when given one.
    private var head = Head.text(SHA256.emptyHex)
    /// Complete lines that carry a `prev` field.
    package private(set) var sealedLines = 0
    /// Bytes of complete lines consumed (the offset where the next line starts).
    package private(set) var consumedBytes = 0
    /// The length of the last complete line (a snapshot records it to check the log later).
    package private(set) var lastLineLength = 0
    /// Whether a cut point ended the replay.
    package private(set) var reachedCut = false
    /// Whether hashing of lines (for `prev` checks and the head) is on.
    package let checksChain: Bool

    private let cut: ReplayCut
    private let observer: ((LineOutcome, CompassState) -> Void)?

    /// Whether someone is told every line's outcome (then rejected drafts keep their payload).
    package var hasObserver: Bool { observer != nil }

    /// - Parameters:
    ///   - cut: where to stop (time travel); nil replays everything.
    ///   - checksChain: hash every line to check `prev` links.
    ///   - observer: told the outcome of every line with the state right after it (the audit
    ///     and `follow` use it).
    ///   - problems: how much to keep of the problems found.
    package init(cut: ReplayCut = ReplayCut(), checksChain: Bool = true, observer: ((LineOutcome, CompassState) -> Void)? = nil,
                problems: ProblemRetention = .all) {
        self.cut = cut
        self.checksChain = checksChain
        self.observer = observer
        self.retention = problems
    }

    /// Parts of a resumed state still in the snapshot, read when a line first needs them.
    private var deferred: DeferredParts?
    private var idsDeferred = false
    /// Whether the snapshot's event ids are still unread (no line was decided since resuming).
    package var eventIdsDeferred: Bool { idsDeferred }
    /// Whether a deferred part of the snapshot could not be read: the state is then
    /// incomplete, and the log must be replayed without the snapshot.
    package var deferredFailed: Bool { deferredPartFailed || state.eventIds.storedFailed }
    private var deferredPartFailed = false

    /// Goes on from a snapshot of an earlier replay of the same log's first bytes.
    ///
    /// - Parameter deferring: when given, the snapshot's state holds no families and no event
    ///   ids yet: each family is read the first time a line of it is decided (or
    ///   ``load(families:)`` asks for it), the ids before the first line is decided.
    package init(resuming snapshot: ReplaySnapshot, deferring parts: DeferredParts? = nil, cut: ReplayCut = ReplayCut(),
                checksChain: Bool = true, observer: ((LineOutcome, CompassState) -> Void)? = nil, problems: ProblemRetention = .summary) {
        self.init(cut: cut, checksChain: checksChain, observer: observer, problems: problems)
        deferred = parts
        idsDeferred = parts != nil
        state = snapshot.state
        problemSummary = snapshot.problems
        linesRead = snapshot.linesRead
        lastSeq = snapshot.lastSeq
        head = .text(snapshot.headHash)
        lastLineLength = snapshot.lastLineLength
        sealedLines = snapshot.sealedLines
        consumedBytes = snapshot.consumedBytes
    }

    /// Replays a whole log held in memory; a last line without `\n` is a torn write.
    package mutating func consume(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var lines: [Range<Int>] = []
            let end = LineSplitter.completeLines(in: buffer, from: 0, to: buffer.count, into: &lines)
            for line in lines where !reachedCut {
                consume(line: UnsafeBufferPointer(rebasing: buffer[line]), terminated: true)
            }
            if end < buffer.count, !reachedCut {
                consume(line: UnsafeBufferPointer(rebasing: buffer[end...]), terminated: false)
            }
        }
    }

    /// Replays one line (without its `\n`). Returns false once a cut point is reached.
    @discardableResult
    package mutating func consume(line: UnsafeBufferPointer<UInt8>, terminated: Bool) -> Bool {
        guard !reachedCut else { return false }
        guard terminated else {
            linesRead += 1
            tornLine = linesRead
            reject(linesRead, nil, "torn last line", kind: .torn)
            return true
        }
        guard line.count <= Self.maxLineBytes else {
            return consumeOversizedLine(byteCount: line.count, hash: checksChain ? SHA256.hex(line) : "")
        }
        return consume(prepared: PreparedLine(line, hashing: checksChain))
    }

    /// Records a complete line longer than ``maxLineBytes`` that was not kept in memory:
    /// only its length and hash (for the next line's `prev`) are known. It cannot end a cut.
    @discardableResult
    package mutating func consumeOversizedLine(byteCount: Int, hash: String) -> Bool {
        guard !reachedCut else { return false }
        linesRead += 1
        consumedBytes += byteCount + 1
        lastLineLength = byteCount
        if checksChain { head = .text(hash) }
        reject(linesRead, nil, "line too long", kind: .unreadable)
        return true
    }

    /// Replays one complete line that was parsed, hashed and decoded ahead (possibly on another
    /// thread). Returns false once a cut point is reached.
    @discardableResult
    package mutating func consume(prepared line: consuming PreparedLine) -> Bool {
        guard !reachedCut else { return false }
        let number = linesRead + 1
        switch line.content {
        case .blank, .invalid:
            linesRead = number
            advance(over: &line)
            reject(number, nil, line.content.isBlank ? "blank line" : "invalid JSON", kind: .unreadable)
            return true
        case .badEnvelope, .draft, .event:
            break
        }
        if cut.ends(seq: line.readableSeq, at: line.readableAt) {
            reachedCut = true
            return false
        }
        linesRead = number
        // Whether `prev` names the line before, read before this line's hash takes its place.
        let chainBreaks = checksChain && line.prevText.map { !head.isSpelled(by: $0) } == true
        advance(over: &line)

        let family = line.readableFamily
        if let seq = line.readableSeq {
            if seq != lastSeq + 1 {
                record(Problem(line: number, message: "seq \(seq), expected \(lastSeq + 1)", kind: .sequence, family: family))
            }
            lastSeq = seq
        }
        if line.prevText != nil {
            sealedLines += 1
            if chainBreaks {
                record(Problem(line: number, message: "prev does not match line \(number - 1)", kind: .chain, family: family))
            }
        } else if sealedLines > 0 {
            // Once a line carried `prev`, every later line must (SPEC §1): reported, still applied.
            record(Problem(line: number, message: "missing field prev", kind: .chain, family: family))
        }
        let keys = line.keys
        // The content is moved out (the line is not needed after it): the event goes into the
        // state without its texts being copied.
        switch line.takeContent() {
        case .badEnvelope(let error):
            reject(number, nil, error.message, kind: error.kind, family: family)
        case .draft(let draft, let payload):
            if deferred != nil { loadDeferred(for: draft.family) }
            if case .failure(let error) = payload, error.kind == .erased {
                state.noteErased(family: draft.family)
                observer?(.erased(line: number, draft: draft), state)
                return true
            }
            do {
                let event = try Rules.decide(draft, prebuilt: payload, in: state)
                state.apply(event)
                observer?(.applied(line: number, event: event), state)
            } catch {
                reject(number, draft, error.message, kind: error.kind, family: draft.family)
            }
        case .event(let event):
            let keys = keys ?? LineKeys(id: event.id, family: event.family, payload: event.payload)  // always set with an event
            if deferred != nil { loadDeferred(for: event.family) }
            do {
                try Rules.accept(event, keys: keys, in: state)
            } catch {
                reject(number, EventDraft(envelopeOf: event), error.message, kind: error.kind, family: event.family)
                return true
            }
            if let observer {
                state.apply(event, keys: keys)
                observer(.applied(line: number, event: event), state)
            } else {
                state.apply(event, keys: keys)
            }
        case .blank, .invalid:
            break
        }
        return true
    }

    /// Starts loading what deciding a line with these keys reads first: its slot in the
    /// event-id table and, for an interaction event, in its family's interaction index (the
    /// family found by hash alone: a wrong guess only wastes the hint). A reader calls it a
    /// few lines ahead of the fold.
    package func prefetch(_ keys: LineKeys?) {
        guard let keys else { return }
        state.eventIds.prefetch(keys.eventId)
        if let interaction = keys.interaction, let position = state.families.anyPosition(hash: keys.family) {
            state.families.list.withUnsafeBufferPointer { ($0.baseAddress! + position).pointee.interactions.prefetch(hash: interaction) }
        }
    }

    /// Folds the state of an event this process is about to write as the log's next line
    /// (accepted by ``Rules`` against this replayer's state). ``advanceWritten(_:lineLength:hash:)``
    /// then moves the position past its line: together, the same as reading that line back,
    /// without parsing it again.
    package mutating func applyWritten(_ event: Event) {
        state.apply(event)
    }

    /// Moves past the line of an event folded with ``applyWritten(_:)``: `lineLength` bytes
    /// without its `\n`, SHA-256 `hash`.
    package mutating func advanceWritten(_ event: Event, lineLength: Int, hash: String) {
        linesRead += 1
        if event.prev != nil { sealedLines += 1 }
        lastSeq = event.seq
        head = .text(hash)
        consumedBytes += lineLength + 1
        lastLineLength = lineLength
    }

    /// Reads these families from the snapshot being resumed, if they are there and not read yet.
    package mutating func load(families ids: [String]) {
        for id in ids { load(family: id) }
    }

    /// Reads what deciding an event of `family` needs from the snapshot being resumed (the
    /// event ids and that family), as consuming a line of it would. A writer calls it before
    /// deciding its own drafts; afterwards check ``deferredFailed``.
    package mutating func prepareToDecide(family: String, eventId: String? = nil) {
        if deferred != nil { loadDeferred(for: family) }
        // The chunk of stored ids that would hold the id is read (and checked) now.
        if let eventId { state.eventIds.prefetch(eventId) }
    }

    private mutating func loadDeferred(for family: String) {
        if idsDeferred, let deferred {
            idsDeferred = false
            if let ids = deferred.eventIds() { state.eventIds = ids } else { deferredPartFailed = true }
        }
        load(family: family)
    }

    private mutating func load(family id: String) {
        guard let deferred, state.families.position(of: id) == nil else { return }
        switch deferred.family(id) {
        case .absent: break
        case .loaded(let family): state.families.set(family)
        case .unreadable: deferredPartFailed = true
        }
    }

    /// Moves past a line; its hash becomes the head.
    private mutating func advance(over line: inout PreparedLine) {
        consumedBytes += line.byteCount + 1
        lastLineLength = line.byteCount
        if checksChain { head = line.hash.map(Head.words) ?? .text("") }
    }

    private mutating func reject(_ line: Int, _ draft: EventDraft?, _ message: String, kind: ProblemKind, family: String? = nil) {
        record(Problem(line: line, message: message, kind: kind, family: family))
        observer?(.rejected(line: line, draft: draft, message: message), state)
    }

    private mutating func record(_ problem: Problem) {
        // A torn last line is kept out of the summary: it is not part of the prefix a snapshot
        // records, and is read again (or healed) next time.
        if problem.kind != .torn { problemSummary.record(problem) }
        switch retention {
        case .all: problems.append(problem)
        case .summary: break
        case .forward(let body): body(problem)
        }
    }
}

extension Replayer {
    /// The hash of the last line: kept as words when this replayer hashed the line (no string
    /// per line), as text when it was handed one (a snapshot's head, a written line's hash).
    enum Head: Equatable, Sendable {
        case words(LineHash)
        case text(String)

        var text: String {
            switch self {
            case .words(let hash): hash.hex
            case .text(let text): text
            }
        }

        /// Whether a line's `prev` names this head.
        func isSpelled(by prev: String) -> Bool {
            switch self {
            case .words(let hash): hash.isSpelled(by: prev)
            case .text(let text): text == prev
            }
        }
    }
}

extension Result {
    var succeeded: Bool {
        if case .success = self { return true }
        return false
    }
}

/// How a replay resumed from a snapshot reads the parts it deferred.
package struct DeferredParts {
    package var family: (String) -> DeferredFamily
    /// The snapshot's event ids, or nil when they cannot be read.
    package var eventIds: () -> EventIdSet?

    package init(family: @escaping (String) -> DeferredFamily, eventIds: @escaping () -> EventIdSet?) {
        self.family = family
        self.eventIds = eventIds
    }
}

/// A complete log line parsed, hashed and decoded as far as it can be without the state.
///
/// Preparing is pure and independent per line, so a reader may prepare lines on several
/// threads and feed them to ``Replayer/consume(prepared:)`` in order; only the state rules
/// (``Rules/check(_:in:)``) and the fold are left for that thread.
package struct PreparedLine: Equatable, Sendable {
    package enum Content: Equatable, Sendable {
        case blank
        case invalid
        /// Valid JSON whose envelope breaks a rule of SPEC §1.
        case badEnvelope(EventError)
        /// A readable envelope and its payload built without the state, or why it did not build.
        case draft(EventDraft, payload: Result<Payload, EventError>)
        /// A line whose payload built, when no one keeps raw payloads: the event as it will be
        /// folded if the state allows it (built here, so the fold thread only decides).
        case event(Event)

        /// A draft and its built payload, or the event they make when the payload is not kept.
        static func decoded(_ draft: consuming EventDraft, _ payload: consuming Result<Payload, EventError>, keepingPayload: Bool) -> Content {
            guard !keepingPayload, payload.succeeded else { return .draft(draft, payload: payload) }
            guard case .success(let built) = consume payload else { preconditionFailure("succeeded") }
            return .event(draft.takeEvent(payload: built))
        }

        var isBlank: Bool {
            if case .blank = self { return true }
            return false
        }
    }

    /// The content, moved out of the line (swapped for `.blank`: returning the stored
    /// property of a consumed line would copy the payload's texts, a reference count each).
    mutating func takeContent() -> Content {
        var taken = Content.blank
        swap(&taken, &content)
        return taken
    }

    package var byteCount: Int
    /// SHA-256 of the line's bytes (nil when not hashing).
    package var hash: LineHash?
    package var content: Content
    /// The `seq` field when it is an integer ≥ 1, even if the envelope is otherwise broken.
    package var readableSeq: Int64?
    /// The `at` field when it is an RFC 3339 time, even if the envelope is otherwise broken.
    package var readableAt: Timestamp?
    /// The `prev` field when it is a string, well-formed or not.
    package var prevText: String?
    /// The `family` field when it is a valid id, even if the envelope is otherwise broken.
    package var readableFamily: String?
    /// The keys the fold looks the line's event up by (worked out here, off the fold thread);
    /// nil when the line has no readable envelope.
    package var keys: LineKeys?

    /// Parses, hashes and decodes one line without its `\n`.
    ///
    /// - Parameter keepingPayload: keep the raw payload of a draft whose payload built (an
    ///   observer may want it when the state rejects the line); otherwise it is freed here.
    package init(_ line: UnsafeBufferPointer<UInt8>, hashing: Bool = true, keepingPayload: Bool = true) {
        var tape = JSONTape()
        self.init(line, hashing: hashing, keepingPayload: keepingPayload, tape: &tape)
    }

    /// Prepares a line with a tape kept from earlier lines (no tape allocation per line).
    ///
    /// - Parameter fastEnvelope: read a common-shape envelope straight from the tape (tests
    ///   turn it off to compare with the general decoder).
    package init(_ line: UnsafeBufferPointer<UInt8>, hashing: Bool = true, keepingPayload: Bool = true,
                tape: inout JSONTape, fastEnvelope: Bool = true) {
        // Each path builds its values and then the line in one go (a line without a readable
        // envelope gets no keys, rather than placeholder ones worked out and thrown away).
        let hash = hashing ? LineHash(of: line) : nil
        guard tape.scan(line), let base = line.baseAddress else {
            self.init(byteCount: line.count, hash: hash,
                      content: line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) ? .blank : .invalid)
            return
        }
        if fastEnvelope, case (var draft, let data)? = EnvelopeFastPath.decode(tape, base) {
            // The payload is read from the tape in place; the `data` tree is built only when
            // someone may still need it (an observer, or the step-by-step rules after a failure).
            let (type, version) = (draft.type, draft.version)
            let payload = TapeObject.reading(tape: tape, base: base, index: data) { fields in
                Result { () throws(EventError) in try Rules.payloadIgnoringState(type: type, version: version, data: fields, sanitizing: false) }
            }
            if keepingPayload || !payload.succeeded, case .object(let object) = tape.value(at: data, in: base) { draft.data = object }
            let keys = LineKeys(id: draft.id, family: draft.family, result: payload)
            let (seq, at, prev, family) = (draft.seq, draft.at, draft.prev, draft.family)
            self.init(byteCount: line.count, hash: hash, content: .decoded(draft, payload, keepingPayload: keepingPayload), keys: keys,
                      readableSeq: seq, readableAt: at, prevText: prev, readableFamily: family)
            return
        }
        guard case .object(let object) = tape.value(at: 0, in: base) else {
            self.init(byteCount: line.count, hash: hash, content: .invalid)  // valid JSON, but not an object
            return
        }
        var seq: Int64?
        if case .int(let value)? = object["seq"], value >= 1, value <= EnvelopeDecoder.maxSeq { seq = value }
        var prev: String?
        if case .string(let text)? = object["prev"] { prev = text }
        var family: String?
        if case .string(let text)? = object["family"], Identifier.isValid(text) { family = text }
        do {
            let draft = try EnvelopeDecoder.decode(object)
            let payload = Result { () throws(EventError) in try Rules.payloadIgnoringState(draft, sanitizing: false) }
            let keys = LineKeys(id: draft.id, family: draft.family, result: payload)
            let at = draft.at
            self.init(byteCount: line.count, hash: hash, content: .decoded(draft, payload, keepingPayload: keepingPayload), keys: keys,
                      readableSeq: seq, readableAt: at, prevText: prev, readableFamily: family)
        } catch {
            var at: Timestamp?
            if case .string(let text)? = object["at"] { at = Timestamp(rfc3339: text) }
            self.init(byteCount: line.count, hash: hash, content: .badEnvelope(error),
                      readableSeq: seq, readableAt: at, prevText: prev, readableFamily: family)
        }
    }

    private init(byteCount: Int, hash: LineHash?, content: consuming Content, keys: LineKeys? = nil, readableSeq: Int64? = nil,
                 readableAt: Timestamp? = nil, prevText: String? = nil, readableFamily: String? = nil) {
        self.byteCount = byteCount
        self.hash = hash
        self.content = content
        self.keys = keys
        self.readableSeq = readableSeq
        self.readableAt = readableAt
        self.prevText = prevText
        self.readableFamily = readableFamily
    }
}
