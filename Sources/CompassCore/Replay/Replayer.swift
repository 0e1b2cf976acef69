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
    /// Where problems go (a check that replays lines after a store's log collects theirs).
    package var retention: ProblemRetention
    /// Lines of the file read, a torn last line and lines past an `--at-seq` cut included
    /// (the next line's number is one more).
    package private(set) var linesRead = 0
    /// Lines read that a family's `--at-seq` cut left out.
    package private(set) var linesBeyondCut = 0
    /// Lines read and replayed: ``linesRead`` without the lines past a cut.
    package var linesInCut: Int { linesRead - linesBeyondCut }
    /// Every family's stream: its last `seq`, its head, its last line (SPEC §1.1).
    package private(set) var streams = StreamTable()
    /// SHA-256 of the last complete line of the file, whatever its family: a snapshot records
    /// it to check later that the log still ends its prefix with that line.
    package var lastLineHash: String { lastLine.text }
    /// The last line's hash: words for a line read here, text when given one.
    private var lastLine = LineHead.text(SHA256.emptyHex)
    /// Complete lines that carry a `prev` field.
    package private(set) var sealedLines = 0
    /// The first line that shows the log was written as SPEC v2 (one chain for all families):
    /// a family's first line numbered after the lines before it and chained to the line before
    /// it in the file, another family's. `compass migrate` converts such a log.
    package private(set) var oneChainLine: Int?
    /// Bytes of complete lines consumed (the offset where the next line starts).
    package private(set) var consumedBytes = 0
    /// The length of the last complete line (a snapshot records it to check the log later).
    package private(set) var lastLineLength = 0
    /// Whether a cut point ended the replay.
    package private(set) var reachedCut = false
    /// Whether the interactions' staged subjects and contents are left in the log, as where
    /// they are, rather than copied into the state: for a reader that shows no text and
    /// only writes the snapshot, which reads them back (`compass replay`). The state's
    /// records must not be read then.
    package var textsStayInLog = false
    /// Whether this replay is only decided against (an import into a database, whose lines
    /// are read back from the database): the events it is about to write are folded without
    /// their interactions' subjects and contents, which no rule reads, so an import holds its
    /// families' ids and counts, not every text it sends.
    package var decidesOnly = false

    private let cut: ReplayCut
    private var observer: ((LineOutcome, CompassState) -> Void)?

    /// Whether someone is told every line's outcome (then rejected drafts keep their payload).
    package var hasObserver: Bool { observer != nil }

    /// - Parameters:
    ///   - cut: where to stop (time travel); nil replays everything.
    ///   - observer: told the outcome of every line with the state right after it (the audit
    ///     and `follow` use it).
    ///   - problems: how much to keep of the problems found.
    package init(cut: ReplayCut = ReplayCut(), observer: ((LineOutcome, CompassState) -> Void)? = nil,
                problems: ProblemRetention = .all) {
        self.cut = cut
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
                observer: ((LineOutcome, CompassState) -> Void)? = nil, problems: ProblemRetention = .summary) {
        self.init(cut: cut, observer: observer, problems: problems)
        deferred = parts
        idsDeferred = parts != nil
        state = snapshot.state
        problemSummary = snapshot.problems
        linesRead = snapshot.linesRead
        streams = snapshot.streams
        lastLine = .text(snapshot.lastLineHash)
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
            return consumeOversizedLine(byteCount: line.count, hash: SHA256.hex(line))
        }
        return consume(prepared: PreparedLine(line, hashing: true))
    }

    /// Replays one line of a family's stream read on its own (``FamilyLines``), numbered and
    /// placed as it is in the log: its problems and outcomes name the log's line numbers.
    ///
    /// - Parameters:
    ///   - hash: the line's SHA-256, when the caller worked it out already.
    ///   - tape: kept from line to line (no tape allocated per line).
    @discardableResult
    package mutating func consume(familyLine line: UnsafeBufferPointer<UInt8>, number: Int, offset: Int,
                                  hash: LineHash? = nil, tape: inout JSONTape) -> Bool {
        guard !reachedCut else { return false }
        linesRead = number - 1
        consumedBytes = offset
        guard line.count <= Self.maxLineBytes else { return consumeOversizedLine(byteCount: line.count, hash: SHA256.hex(line)) }
        // Read as a block of the log is: a payload kept only for an observer, texts staged.
        let keep = observer != nil
        var prepared = PreparedLine(line, hash: hash ?? LineHash(of: line), keepingPayload: keep, tape: &tape, stagingTexts: !keep)
        return consume(prepared: &prepared, bytes: line)
    }

    /// Records a complete line longer than ``maxLineBytes`` that was not kept in memory:
    /// only its length and hash (for the next line's `prev`) are known. It cannot end a cut.
    @discardableResult
    package mutating func consumeOversizedLine(byteCount: Int, hash: String) -> Bool {
        guard !reachedCut else { return false }
        linesRead += 1
        consumedBytes += byteCount + 1
        lastLineLength = byteCount
        lastLine = .text(hash)
        reject(linesRead, nil, "line too long", kind: .unreadable)
        return true
    }

    /// Replays one complete line that was parsed, hashed and decoded ahead (possibly on another
    /// thread). Returns false once a cut point is reached.
    ///
    /// - Parameter bytes: the line's bytes, when its texts were staged (``TextStaging``): they
    ///   are read there.
    @discardableResult
    package mutating func consume(prepared line: consuming PreparedLine, bytes: UnsafeBufferPointer<UInt8>? = nil) -> Bool {
        consume(prepared: &line, bytes: bytes)
    }

    /// ``consume(prepared:bytes:)`` reading the line where it lies: its content is moved out
    /// and the rest left for the caller to free. A reader folding a block of prepared lines
    /// passes each in place; moving the ~500-byte line out first was a copy per line on the
    /// folding thread.
    @discardableResult
    package mutating func consume(prepared line: inout PreparedLine, bytes: UnsafeBufferPointer<UInt8>? = nil) -> Bool {
        guard !reachedCut else { return false }
        precondition(line.staged.isEmpty || bytes?.count == line.byteCount, "a line's staged texts folded without its bytes")
        let number = linesRead + 1
        let lineOffset = consumedBytes  // where the line starts in the log
        let place: LinePlace = (number, lineOffset, line.byteCount)
        switch line.content {
        case .blank, .invalid:
            linesRead = number
            advance(over: &line)
            reject(number, nil, line.content.isBlank ? "blank line" : "invalid JSON", kind: .unreadable)
            return true
        case .erasedOutsideStreams:
            linesRead = number
            advance(over: &line)
            state.noteErased(family: nil)
            observer?(.erased(line: number, draft: nil), state)
            return true
        case .badEnvelope, .draft, .event:
            break
        }
        if cut.ends(at: line.readableAt) {
            reachedCut = true
            return false
        }
        linesRead = number
        let family = line.readableFamily
        if let family, !followStream(of: family, &line, number: number) {
            linesBeyondCut += 1
            advance(over: &line)
            return true
        }
        advance(over: &line)
        let keys = line.keys
        let staged = line.staged.isEmpty ? nil : bytes.map { StagedBytes(line.staged, inLine: $0, lineOffset: textsStayInLog ? lineOffset : nil) }
        // The content is moved out (the line is not needed after it): the event goes into the
        // state without its texts being copied.
        switch line.takeContent() {
        case .badEnvelope(let error):
            reject(number, nil, error.message, kind: error.kind, family: family)
        case .draft(let draft, let payload):
            if deferred != nil { loadDeferred(for: draft.family) }
            if case .failure(let error) = payload, error.kind == .erased {
                state.noteErased(family: draft.family, place: place)
                observer?(.erased(line: number, draft: draft), state)
                return true
            }
            do {
                let event = try Rules.decide(draft, prebuilt: payload, in: state)
                state.apply(event, place: place)
                observer?(.applied(line: number, event: event), state)
            } catch {
                reject(number, draft, error.message, kind: error.kind, family: draft.family)
            }
        case .event:
            // The event is read and folded where it lies in the line, its parts moved out by the
            // fold (moving it out first copied its 240 bytes).
            let keys = keys ?? LineKeys(id: line.event.id, actor: line.event.actor, family: line.event.family,
                                        payload: line.event.payload)  // always set with an event
            if deferred != nil { loadDeferred(for: line.event.family) }
            do {
                try Rules.accept(line.event, keys: keys, in: state)
            } catch {
                var draft = EventDraft(envelopeOf: line.event)
                draft.id = keys.eventIdText(line.event.id)
                reject(number, draft, error.message, kind: error.kind, family: line.event.family)
                return true
            }
            if let observer {
                let event = line.event
                state.apply(taking: &line.event, keys: keys, staged: staged, place: place)  // (a line prepared for an observer keeps its texts: none staged)
                observer(.applied(line: number, event: event), state)
            } else {
                state.apply(taking: &line.event, keys: keys, staged: staged, place: place)
            }
        case .blank, .invalid, .erasedOutsideStreams:
            break
        }
        return true
    }

    /// Checks a line against its family's stream (SPEC §1.1) and moves the stream past it:
    /// `seq` one more than the stream's last readable one, `prev` the hash of the stream's last
    /// line, `prev` present once the stream carried one. Returns false, changing nothing but
    /// the stream's cut, when `--at-seq` has ended the stream.
    private mutating func followStream(of family: String, _ line: inout PreparedLine, number: Int) -> Bool {
        let position = streams.position(adding: family, hash: line.keys?.family ?? family.hashValue)
        let (seq, prev, hash) = (line.readableSeq, line.prev, line.hash)
        let atSeq = cut.atSeq
        var expectedSeq: Int64?
        var brokenLink: Int?
        var missingPrev = false
        // A v2 log: a family's first line carries the global count and links to the file's
        // previous line (rare, checked only where a stream starts wrong).
        // (A stream `--at-seq` ended before its first line has read none either: not a v2 start.)
        if oneChainLine == nil, let seq, seq > 1, let prev, streams.list[position].lines == 0, !streams.list[position].cut,
           number > 1, lastLine.isSpelled(by: prev) {
            oneChainLine = number
        }
        let inCut = streams.update(at: position) { stream -> Bool in
            if stream.cut { return false }
            if let atSeq, let seq, seq > atSeq {
                stream.cut = true
                return false
            }
            if let seq {
                if seq != stream.seq + 1 { expectedSeq = stream.seq + 1 }
                stream.seq = seq
            }
            if let prev {
                stream.sealed = true
                if !stream.head.isSpelled(by: prev) { brokenLink = stream.line }
            } else if stream.sealed {
                missingPrev = true
            }
            stream.head = hash.map(LineHead.words) ?? .text("")
            stream.line = number
            stream.lines += 1
            return true
        }
        guard inCut else { return false }
        if prev != nil { sealedLines += 1 }
        if let expectedSeq, let seq {
            record(Problem(line: number, message: "seq \(seq), expected \(expectedSeq)", kind: .sequence, family: family))
        }
        if let brokenLink {
            record(Problem(line: number, message: "prev does not match line \(brokenLink)", kind: .chain, family: family))
        }
        if missingPrev {
            // Once a line of the stream carried `prev`, every later one must (SPEC §1): reported, still applied.
            record(Problem(line: number, message: "missing field prev", kind: .chain, family: family))
        }
        return true
    }

    /// Makes room for the event ids of a log of `bytes` bytes read from its start, so the id
    /// table is not grown (every id moved again, a cache miss each) a dozen times on the
    /// folding thread. Counted at one event per 700 bytes, fewer than a `compass` log holds
    /// (about 600 bytes a line); a log of longer lines gets a larger table than it needs, never
    /// more than 64 bytes per 700 bytes of log. Nothing when lines were read already, or for
    /// a log under 700 kB.
    package mutating func reserveCapacity(forLogBytes bytes: Int) {
        guard linesRead == 0, state.appliedCount == 0, bytes >= Self.reserveLineBytes * 1_000 else { return }
        state.reserveCapacity(events: bytes / Self.reserveLineBytes)
    }

    /// Bytes of log counted per event when making room ahead (``reserveCapacity(forLogBytes:)``).
    static let reserveLineBytes = 700

    /// Starts loading what deciding a line with these keys reads first: its slot in the
    /// event-id table and, for an interaction event, in its family's interaction index (the
    /// family found by hash alone: a wrong guess only wastes the hint). A reader calls it a
    /// few lines ahead of the fold.
    ///
    /// Static, on a replayer read where it lies: a method called on the fold's `inout`
    /// replayer from another module copied all of it (402 bytes) for every call, twice a line.
    package static func prefetch(_ keys: LineKeys?, in replayer: UnsafePointer<Replayer>) {
        guard let keys, let state = replayer.pointer(to: \.state) else { return }
        EventIdSet.prefetch(in: state.pointer(to: \.eventIds)!, keys.eventId)
        FamilyTable.prefetch(in: state.pointer(to: \.families)!, keys, slots: true)
    }

    /// Starts loading the records of the school and coach a line's event names, once
    /// ``prefetch(_:in:)`` loaded their slots (a few lines before the fold).
    package static func prefetchRecords(_ keys: LineKeys?, in replayer: UnsafePointer<Replayer>) {
        guard let keys, keys.school != nil || keys.coach != nil || keys.interaction != nil, let state = replayer.pointer(to: \.state) else { return }
        FamilyTable.prefetch(in: state.pointer(to: \.families)!, keys, slots: false)
    }

    /// Folds the state of an event this process is about to write as the log's next line
    /// (accepted by ``Rules`` against this replayer's state). ``advanceWritten(_:lineLength:hash:)``
    /// then moves the position past its line: together, the same as reading that line back,
    /// without parsing it again.
    package mutating func applyWritten(_ event: Event) {
        guard decidesOnly, case .interactionLogged(var logged) = event.payload else { return state.apply(event) }
        logged.subject = nil
        logged.content = nil
        var bare = event
        bare.payload = .interactionLogged(logged)
        state.apply(bare)
    }

    /// Moves past the line of an event folded with ``applyWritten(_:)``: `lineLength` bytes
    /// without its `\n`, SHA-256 `hash`.
    package mutating func advanceWritten(_ event: Event, lineLength: Int, hash: String) {
        advanceWritten(family: event.family, seq: event.seq, sealed: event.prev != nil, lineLength: lineLength, hash: hash)
    }

    /// ``advanceWritten(_:lineLength:hash:)`` given what it reads of the event: its family,
    /// its `seq` and whether its line has a `prev`.
    package mutating func advanceWritten(family: String, seq: Int64, sealed: Bool, lineLength: Int, hash: String) {
        advanceWritten(family: family, seq: seq, sealed: sealed, lineLength: lineLength, head: .text(hash))
    }

    /// ``advanceWritten(family:seq:sealed:lineLength:hash:)`` given the line's hash as words
    /// (a sealed batch's: no string made a line).
    package mutating func advanceWritten(family: String, seq: Int64, sealed: Bool, lineLength: Int, hash: LineHash) {
        advanceWritten(family: family, seq: seq, sealed: sealed, lineLength: lineLength, head: .words(hash))
    }

    private mutating func advanceWritten(family: String, seq: Int64, sealed: Bool, lineLength: Int, head: LineHead) {
        linesRead += 1
        if sealed { sealedLines += 1 }
        let number = linesRead
        let position = streams.position(adding: family, hash: family.hashValue)
        streams.update(at: position) { stream in
            stream.seq = seq
            stream.head = head
            stream.line = number
            stream.lines += 1
            if sealed { stream.sealed = true }
        }
        lastLine = head
        state.recordLine(of: family, at: (number, consumedBytes, lineLength))
        consumedBytes += lineLength + 1
        lastLineLength = lineLength
    }

    /// Tells `observer` the outcome of every line consumed from now on (a feed that started
    /// from a snapshot, whose lines before now are not news).
    package mutating func observe(with observer: @escaping (LineOutcome, CompassState) -> Void) {
        self.observer = observer
    }

    /// Reads back the texts the replay left in the log of every family it holds
    /// (``CompassState/readTextsBack(inBlocks:_:)``: in blocks when it holds every family of
    /// the log, none left in a snapshot); false when one cannot be read.
    package mutating func readTextsBack(_ read: (_ range: Range<Int>, _ buffer: inout [UInt8]) -> Bool) -> Bool {
        state.readTextsBack(inBlocks: deferred == nil, read)
    }

    /// Reads these families from the snapshot being resumed, if they are there and not read yet.
    package mutating func load(families ids: [String]) {
        for id in ids { load(family: id) }
    }

    /// Reads every part the snapshot being resumed still holds back (the event ids and every
    /// family), so the state is whole; afterwards check ``deferredFailed``.
    package mutating func loadEverything() {
        guard let deferred else { return }
        if idsDeferred {
            idsDeferred = false
            if let ids = deferred.eventIds() { state.eventIds = ids } else { deferredPartFailed = true }
        }
        load(families: deferred.familyIds())
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
        lastLine = line.hash.map(LineHead.words) ?? .text("")
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
    /// Every family the snapshot holds.
    package var familyIds: () -> [String]

    package init(family: @escaping (String) -> DeferredFamily, eventIds: @escaping () -> EventIdSet?,
                 familyIds: @escaping () -> [String] = { [] }) {
        self.family = family
        self.eventIds = eventIds
        self.familyIds = familyIds
    }
}
