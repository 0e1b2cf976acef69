import CompassCore
import Foundation

/// One recruiting log on disk, held by an app or a server: durable appends, reads that
/// follow other writers, a live feed of changes, attachments and verification.
///
/// Every append is decided by the same rules replay uses, written under an exclusive lock
/// and fsynced before it returns; a rejected or failed append changes nothing on disk.
/// Reads keep the replayed state and fold only the bytes appended since (by this process or
/// any other), so a read is not a replay. It is safe to share one store between threads.
///
/// ```swift
/// let store = try CompassStore(path: documents + "/events.jsonl")
/// try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat Lopez", role: .parent,
///                                       newFamily: "f-lopez")), as: "u-pat")
/// let receipt = try store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
/// let list = try store.interactions(as: "u-pat")
/// for await event in store.changes() { refresh(event) }
/// ```
public final class CompassStore: @unchecked Sendable {
    /// What the store takes from the outside world, all of it: the clock, the ids, when to
    /// write snapshots, how often a feed looks for changes; tests pass fixed ones.
    public struct Configuration: Sendable {
        /// The time of each new event (`at`) and the default `now` of views.
        public var clock: @Sendable () -> Timestamp
        /// The id of each new event (a lowercase UUID by default).
        public var makeId: @Sendable () -> String
        /// When reads keep `LOG.snapshot` beside the log so a cold open reads only what
        /// changed; nil: never.
        public var snapshots: SnapshotPolicy?
        /// How long a feed or an observation waits for a change before it looks again when
        /// nothing wakes it (a notification or a file watch wakes it at once).
        public var feedInterval: Duration
        /// How long a read that asks for a version (``CompassStore/views(as:atLeast:)``) waits
        /// for a store that reads a standby to replay it before it reads the primary.
        public var versionWait: Duration = .seconds(2)
        /// The file system the log, its snapshot and attachments go through (tests inject faults).
        package var fileSystem: any FileSystem = POSIXFileSystem()

        public init(clock: @escaping @Sendable () -> Timestamp = Configuration.systemClock,
                    makeId: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() },
                    snapshots: SnapshotPolicy? = SnapshotPolicy(),
                    feedInterval: Duration = CompassStore.feedInterval) {
            self.clock = clock
            self.makeId = makeId
            self.snapshots = snapshots
            self.feedInterval = feedInterval
        }

        /// The real clock, to the millisecond.
        public static let systemClock: @Sendable () -> Timestamp = {
            Timestamp(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
        }
    }

    /// The log's path, or the database's address.
    public let path: String
    let configuration: Configuration
    let lock = NSLock()
    /// The one change feed every observation of this store shares (started by the first).
    let observations = ObservationHub()
    /// Where the log lives: every read, append, erasure and blob goes through it.
    let backend: any LogBackend
    // The read side, guarded by `lock`: the committed lines read so far, folded.
    private var tail: any LogCursor
    private var replayer = Replayer(problems: .summary)
    /// When the last poll of `tail` that folded everything it found began: a read asked for
    /// before then is answered by it (it saw every line committed before the read was asked
    /// for), so reads that queue on the lock together (observations' first values) poll once.
    private var lastPoll: ContinuousClock.Instant?
    /// Told how far the first read has gone, while ``prepare(as:progress:)`` makes it.
    private var firstReadProgress: ReadProgress?

    /// Opens the log at `path`: a file, or a PostgreSQL database address
    /// (`postgresql://…`); the store decides which.
    ///
    /// - Parameter createIfMissing: when false, a missing log is ``StoreError/noLog(path:)``;
    ///   when true (the default) the log and its folders are created by the first append that
    ///   the rules accept (never by a read, never by a rejected append).
    public init(path: String, createIfMissing: Bool = true, configuration: Configuration = Configuration()) throws(StoreError) {
        let backend: any LogBackend
        if Self.isDatabaseAddress(path) {
            backend = try PostgresLogBackend(address: path)
        } else {
            backend = FileLogBackend(path: path, fs: configuration.fileSystem, snapshots: configuration.snapshots)
        }
        if !createIfMissing, try !backend.exists() { throw .noLog(path: path) }
        self.path = path
        self.configuration = configuration
        self.backend = backend
        self.tail = backend.makeCursor()
    }

    /// Whether `path` names a PostgreSQL database (`postgresql://…` or `postgres://…`) rather
    /// than a file: the store then keeps its log there (libpq is loaded when it is opened).
    public static func isDatabaseAddress(_ path: String) -> Bool {
        path.hasPrefix("postgresql://") || path.hasPrefix("postgres://")
    }

    /// `path` as messages may show it: a database address without its password.
    public static func displayAddress(_ path: String) -> String {
        isDatabaseAddress(path) ? PostgresConnection.redacted(path) : path
    }

    /// Creates or upgrades the store's tables in the PostgreSQL database at `address`
    /// (idempotent); returns the schema versions before and after.
    public static func initializeDatabase(_ address: String) throws(StoreError) -> (from: Int, to: Int) {
        try PostgresLogBackend.initialize(address: address)
    }

    /// What the database server's settings leave open to losing an acknowledged append when
    /// it crashes or fails over (`synchronous_commit`, a synchronous standby): one sentence
    /// each; none when an acknowledged append is on a standby too.
    public static func databaseDurabilityWarnings(_ address: String) throws(StoreError) -> [String] {
        try PostgresLogBackend.durabilityWarnings(address: address)
    }

    /// The version of the store's tables in the database at `address` (0: none yet).
    public static func databaseSchemaVersion(_ address: String) throws(StoreError) -> Int {
        try PostgresLogBackend.schemaVersion(address: address)
    }

    /// The file system the store reads files given to it and writes files it is asked for
    /// through (the log itself is the backend's).
    var fs: FileSystem { configuration.fileSystem }
    /// When reads write a snapshot.
    var snapshots: SnapshotPolicy? { configuration.snapshots }

    // MARK: Appending

    /// Appends one command's event by `user`, durably, and returns its receipt.
    ///
    /// - Parameters:
    ///   - idempotencyKey: the event's id. Appending the same command again with the same
    ///     key writes nothing and returns the original receipt (after making sure the
    ///     original is durable); a different command under a used key is a conflict.
    ///   - expectVersion: fail with a conflict unless the user's family is at this version, the
    ///     `seq` of its last line (SPEC §1.1): writers of different families never conflict.
    ///   - files: attachment files for a ``LogInteraction``: checked (type by extension, size),
    ///     or the one file of an ``UploadDocument`` (its name, size and SHA-256 are recorded),
    ///     stored content-addressed before the line is written, taken back if it fails.
    /// - Throws: ``StoreError/rejected(_:)`` with the SPEC's message, ``StoreError/conflict(_:)``,
    ///   ``StoreError/io(path:message:)``.
    @discardableResult
    public func append(_ command: Command, as user: String, idempotencyKey: String? = nil,
                       expectVersion: Int64? = nil, files: [AttachmentFile] = []) throws(StoreError) -> Receipt {
        // The command's own event is the last (a new coach named while logging comes first).
        try append([command], as: user, idempotencyKey: idempotencyKey, expectVersion: expectVersion, files: files).last!
    }

    /// Appends several commands by `user` as one batch: all of them or none, across crashes
    /// and I/O errors (a rollback journal guards the write).
    @discardableResult
    public func append(batch commands: [Command], as user: String, expectVersion: Int64? = nil) throws(StoreError) -> [Receipt] {
        guard !commands.isEmpty else { return [] }
        return try append(commands, as: user, idempotencyKey: nil, expectVersion: expectVersion, files: [], numbered: true)
    }

    /// - Parameter numbered: a batch: each refused command is reported with its place in the
    ///   batch (1-based) as ``StoreError/rejectedLines(_:)``.
    private func append(_ requested: [Command], as user: String, idempotencyKey: String?,
                        expectVersion: Int64?, files: [AttachmentFile], numbered: Bool = false) throws(StoreError) -> [Receipt] {
        lock.lock()
        defer { lock.unlock() }
        // A new coach named while logging is added first, in the same batch; the interaction
        // then names the coach drafted just before it.
        var commands: [Command] = []
        var positions: [Int] = []  // each command's place in the batch asked for
        var takesCoachOfPrevious: Set<Int> = []
        for (position, command) in requested.enumerated() {
            defer { while positions.count < commands.count { positions.append(position + 1) } }
            if case .logInteraction(var logged) = command, let coach = logged.newCoach {
                commands.append(.addCoach(AddCoach(schoolId: logged.schoolId ?? "", firstName: coach.firstName, lastName: coach.lastName,
                                                   role: coach.role)))
                logged.newCoach = nil
                takesCoachOfPrevious.insert(commands.count)
                commands.append(.logInteraction(logged))
            } else {
                commands.append(command)
            }
        }
        var staged: [StagedAttachment] = []
        if case .uploadDocument(var document)? = commands.last, !files.isEmpty {
            // A document's one file (SPEC §2 v3): its name, size and hash go into the event.
            guard files.count == 1 else { throw .rejected(EventError("A document has one file", kind: .rule)) }
            let file = try files[0].stagedAsDocument(fs: fs)
            staged = [file]
            document.fileName = document.fileName ?? file.name
            document.sizeBytes = Int64(file.bytes.count)
            document.sha256 = file.sha256
            commands[commands.count - 1] = .uploadDocument(document)
        } else {
            for file in files { staged.append(try file.staged(fs: fs)) }
            if !staged.isEmpty, let index = commands.lastIndex(where: { if case .logInteraction = $0 { true } else { false } }),
               case .logInteraction(var logged) = commands[index] {
                logged.attachments += staged.map(\.attachment)
                commands[index] = .logInteraction(logged)
            }
        }
        let now = configuration.clock()
        // The idempotency key names the command's own event, the last; a coach added with it gets
        // `KEY.coach` (so a retried command makes the same ids).
        let ids = commands.indices.map { index -> String in
            guard let key = idempotencyKey else { return configuration.makeId() }
            if index == commands.count - 1 { return key }
            let derived = key + ".coach"
            return derived.utf8.count <= 64 ? derived : configuration.makeId()
        }
        let backend = self.backend
        // A device's store (SPEC §7) tags the default ids it makes.
        let tag = try deviceTag()
        var request = AppendRequest(eventId: idempotencyKey, expectVersion: expectVersion, actor: user)
        request.beforeWrite = { _ throws(StoreError) in try backend.saveBlobs(staged) }
        if numbered { request.lineNumbers = positions }
        let outcome = try backend.append(request,
            build: { state, original throws(StoreError) in
                var drafts: [EventDraft] = []
                var state = state
                for (index, var command) in commands.enumerated() {
                    // A retry finds the command's event in the log: its new coach is there too.
                    if original != nil, takesCoachOfPrevious.contains(index + 1) { continue }
                    if takesCoachOfPrevious.contains(index), case .logInteraction(var logged) = command {
                        if case .interactionLogged(let logged0)? = original?.payload {
                            logged.coachId = logged0.coachId
                        } else if case .string(let coachId)? = drafts.last?.data["coachId"] {
                            logged.coachId = coachId
                        }
                        command = .logInteraction(logged)
                    }
                    let draft: EventDraft
                    do throws(EventError) {
                        draft = try command.draft(by: user, at: now, eventId: ids[index], in: state,
                                                  reusing: index == commands.count - 1 ? original?.payload.entityId : nil, deviceTag: tag)
                    } catch {
                        if numbered { throw .rejectedLines([Problem(line: positions[index], message: error.message, kind: error.kind)]) }
                        throw .rejected(error)
                    }
                    drafts.append(draft)
                    // Later commands of a batch see the entities earlier ones add (their default ids).
                    if commands.count > 1, let event = try? Rules.decide(draft, in: state, sanitizing: true) { state.apply(event) }
                }
                return drafts
            })
        switch outcome {
        case .written(let events):
            return events.map { Receipt(seq: $0.seq, eventId: $0.id, entityId: $0.payload.entityId) }
        case .alreadyPresent(let event):
            return [Receipt(seq: event.seq, eventId: event.id, entityId: event.payload.entityId)]
        }
    }

    // MARK: Reading

    /// Whether the log is there yet: a file store's log file (a folder at its path is an
    /// error); a database store's tables are always there once `initializeDatabase` ran.
    public func logExists() throws(StoreError) -> Bool {
        try backend.exists()
    }

    /// The state of every committed line, read incrementally: only bytes appended since the
    /// last read are folded (a replaced log is read again from its start).
    public func state() throws(StoreError) -> CompassState {
        try state(for: nil)
    }

    /// The state with at least `viewer`'s family read (every family for nil). The first read
    /// starts from the snapshot when one matches and reads only the viewer's family section of
    /// it; other families are read from it when asked for. A part of the snapshot that does
    /// not check sends the store back to the log itself.
    func state(for viewer: String?) throws(StoreError) -> CompassState {
        let asked = ContinuousClock.now
        lock.lock()
        defer { lock.unlock() }
        if lastPoll.map({ $0 < asked }) ?? true {
            // A log that is not there is `noLog`, not an empty log where nobody is a member.
            guard try backend.exists() else { throw .noLog(path: CompassStore.displayAddress(path)) }
            let polled = ContinuousClock.now
            lastPoll = nil
            if let first = try tail.firstRead(snapshots: snapshots, scope: viewer.map { .familyOf($0) } ?? .everything,
                                              progress: firstReadProgress) {
                replayer = first
            }
            if try tail.poll(into: &replayer) == .replaced {
                replayer = Replayer(problems: .summary)
                _ = try tail.poll(into: &replayer)
            }
            lastPoll = polled
        }
        try tail.include(viewer.map { .familyOf($0) } ?? .everything, into: &replayer)
        if let viewer {
            if let family = replayer.state.members[viewer]?.family { replayer.load(families: [family]) }
        } else {
            replayer.loadEverything()
        }
        if replayer.deferredFailed {
            lastPoll = nil
            tail = backend.makeCursor()
            replayer = Replayer(problems: .summary)
            _ = try tail.poll(into: &replayer)
        }
        return replayer.state
    }

    /// Makes the store's first read now, telling `progress` how far it has gone (bytes of the
    /// log read and to read): a new store's first read of a big log without a snapshot takes
    /// seconds, and is otherwise made by the first view. Reads `viewer`'s family (every
    /// family for nil). On PostgreSQL the first read is one statement and reports nothing.
    public func prepare(as viewer: String? = nil, progress: @escaping @Sendable (_ read: Int, _ total: Int) -> Void) throws(StoreError) {
        try prepare(as: viewer, progress: progress, isCancelled: { false })
    }

    /// ``prepare(as:progress:)`` that stops, with ``StoreError/cancelled``, once `isCancelled`
    /// says so: checked after each block of the log, the read fails at its next read as a
    /// failed read does (what it folded stays folded, and the next read goes on after it).
    package func prepare(as viewer: String?, progress: @escaping @Sendable (_ read: Int, _ total: Int) -> Void,
                         isCancelled: @escaping @Sendable () -> Bool) throws(StoreError) {
        lock.lock()
        firstReadProgress = { done, total, _ in
            progress(done, total)
            return !isCancelled()
        }
        lock.unlock()
        defer {
            lock.lock()
            firstReadProgress = nil
            lock.unlock()
        }
        _ = try state(for: viewer)
    }

    /// The version of `user`'s family: the `seq` of its last committed line (SPEC §1.1), what
    /// `expectVersion` compares with and `NotificationsRead.upToSeq` marks read to.
    ///
    /// - Throws: ``StoreError/rejected(_:)`` `Unknown user U` when `user` is not a member.
    public func version(as user: String) throws(StoreError) -> Int64 {
        let state = try state(for: user)
        guard let family = state.members[user]?.family else { throw .rejected(EventError("Unknown user \(user)")) }
        lock.lock()
        defer { lock.unlock() }
        return replayer.streams.version(of: family)
    }

    /// The state of every committed line and each family's stream (its last `seq` and head):
    /// what a ``Projector`` projects.
    package func projectionSource() throws(StoreError) -> (state: CompassState, streams: [FamilyStream]) {
        let state = try state(for: nil)
        lock.lock()
        defer { lock.unlock() }
        return (state, replayer.streams.list)
    }

    /// What the reads so far folded past (unreadable or refused lines) that `viewer` may be
    /// told about: their family's lines and lines naming no family, as the CLI's warning line
    /// counts them. Cheap: kept as lines are read; ``verify()`` lists every problem.
    ///
    /// - Throws: ``StoreError/rejected(_:)`` `Unknown user U` when `viewer` is not a member.
    public func problems(as viewer: String) throws(StoreError) -> ProblemCount {
        let state = try state(for: viewer)
        guard let family = state.members[viewer]?.family else { throw .rejected(EventError("Unknown user \(viewer)", kind: .notFound)) }
        lock.lock()
        defer { lock.unlock() }
        let (count, first) = replayer.problemSummary.visible(to: family)
        return ProblemCount(count: count, first: first)
    }

    /// Runs `body` with the current state (see ``state()``); `body` may throw a ``StoreError``
    /// of its own.
    public func read<T>(_ body: (CompassState) throws(StoreError) -> T) throws(StoreError) -> T {
        try body(try state())
    }

    /// The viewer's family's state and the viewer (SPEC §3: a viewer must be a member).
    private func viewing(_ viewer: String) throws(StoreError) -> (CompassState, Viewer) {
        let state = try state(for: viewer)
        do throws(EventError) {
            return (state, try Viewer(viewer, in: state))
        } catch {
            throw .rejected(error)
        }
    }

    /// Every read model of `viewer`'s family (``FamilyViews``): now, as of the configured
    /// clock; or as it was (time travel, SPEC §4) after each family's line with `seq` `atSeq`,
    /// or before the first line recorded after `asOf` (then counted from `asOf`). A viewer who
    /// joined after that point sees their family as it was then, as the member they are now.
    public func views(as viewer: String, atSeq: Int64? = nil, asOf: Timestamp? = nil) throws(StoreError) -> FamilyViews {
        let cut = ReplayCut(atSeq: atSeq, asOf: asOf)
        guard cut != ReplayCut() else {
            let (state, who) = try viewing(viewer)
            return FamilyViews(state: state, viewer: who, now: configuration.clock())
        }
        return try views(as: viewer, options: ReadOptions(cut: cut, scope: .familyOf(viewer), problems: .summary),
                         now: asOf ?? configuration.clock()).views
    }

    /// `viewer`'s views once their family holds at least `version`, the version an append's
    /// ``Receipt`` gave: read-your-writes on a store that reads a standby
    /// (`target_session_attrs=prefer-standby`). The read waits up to the configuration's
    /// `versionWait` for the standby to replay that version, then reads the primary through
    /// the same hosts (`target_session_attrs=read-write`).
    ///
    /// - Throws: ``StoreError/staleVersion(family:expected:current:)`` when neither holds that
    ///   version (a version no append gave); ``StoreError/rejected(_:)`` for a viewer who is
    ///   not a member there either.
    public func views(as viewer: String, atLeast version: Int64) throws(StoreError) -> FamilyViews {
        let deadline = ContinuousClock.now + configuration.versionWait
        var last: Result<FamilyViews, StoreError>
        repeat {
            // A viewer whose joining line the standby has not replayed is not a member there yet.
            last = Result { () throws(StoreError) in try self.views(as: viewer) }
            if case .success(let found) = last, found.version >= version { return found }
            if case .failure(let error) = last {
                guard case .rejected(let refusal) = error, refusal.kind == .notFound else { throw error }
            }
            usleep(10_000)
        } while ContinuousClock.now < deadline
        if let primary = backend.primaryAddress {
            last = Result { () throws(StoreError) in try CompassStore(path: primary, configuration: configuration).views(as: viewer) }
        }
        let found = try last.get()
        guard found.version >= version else {
            throw .staleVersion(family: found.viewer.family, expected: version, current: found.version)
        }
        return found
    }

    /// ``views(as:atSeq:asOf:)`` read as `options` say (a command's cut, progress and problem
    /// keeping), counted from `now`; with the replay, whose problems a command reports.
    package func views(as viewer: String, options: ReadOptions, now: Timestamp) throws(StoreError) -> (views: FamilyViews, replayer: Replayer) {
        let replayer = try replay(options)
        let who: Viewer
        if let then = try? Viewer(viewer, in: replayer.state) {
            who = then
        } else if options.cut != ReplayCut() {
            who = try viewing(viewer).1  // not a member yet at the cut: the member they are now
        } else {
            do throws(EventError) { who = try Viewer(viewer, in: replayer.state) } catch { throw .rejected(error) }
        }
        return (FamilyViews(state: replayer.state, viewer: who, now: now), replayer)
    }

    /// The family's schools with status, interactions and last contact (SPEC §3.4), as of the
    /// configured clock.
    public func schools(as viewer: String) throws(StoreError) -> [SchoolItem] { try views(as: viewer).schools() }

    /// The family's coaches (SPEC §3.4), optionally one school's.
    public func coaches(as viewer: String, school: String? = nil) throws(StoreError) -> [CoachItem] {
        try views(as: viewer).coaches(school: school)
    }

    /// The family's members (SPEC §3.4).
    public func members(as viewer: String) throws(StoreError) -> [MemberItem] { try views(as: viewer).members() }

    /// The documents the viewer can see (SPEC §3.4).
    public func documents(as viewer: String) throws(StoreError) -> [DocumentItem] { try views(as: viewer).documents() }

    /// The viewer's inbound-contact alerts (SPEC §3.5).
    public func notifications(as viewer: String, unreadOnly: Bool = false) throws(StoreError) -> NotificationList {
        try views(as: viewer).notifications(unreadOnly: unreadOnly)
    }

    /// The recruiting history (SPEC §4 `audit`) the viewer may see: every event and every
    /// rejected line of their family, oldest first, with the query's filters.
    public func audit(as viewer: String, query: AuditQuery = AuditQuery(),
                      zone: TimeZone = TimeZone(secondsFromGMT: 0)!) throws(StoreError) -> [AuditEntry] {
        let (_, who) = try viewing(viewer)
        var trail = AuditTrail(zone: zone)
        var entries: [AuditEntry] = []
        _ = try replay(ReadOptions(scope: .familyOf(viewer), problems: .summary, observer: { outcome, state in
            trail.record(outcome, state: state)
            entries += trail.takeEntries().filter { AuditTrail.shows($0, to: who, query: query) }
        }))
        return entries
    }

    /// The interactions list as it was (time travel, SPEC §4): after each family's line with
    /// `seq` `atSeq`, or before the first line recorded after `asOf` (then also as of then).
    public func interactions(as viewer: String, query: InteractionQuery = InteractionQuery(), atSeq: Int64? = nil,
                             asOf: Timestamp? = nil) throws(StoreError) -> InteractionList {
        try views(as: viewer, atSeq: atSeq, asOf: asOf).interactions(query)
    }

    /// The self-contained HTML report (SPEC §3.6), as of the configured clock.
    public func report(as viewer: String, query: InteractionQuery = InteractionQuery(),
                       zone: TimeZone = TimeZone(secondsFromGMT: 0)!) throws(StoreError) -> String {
        try views(as: viewer).report(query, zone: zone)
    }

    /// The interactions list and its analytics (SPEC §3.1) for `viewer`.
    public func interactions(as viewer: String, query: InteractionQuery = InteractionQuery(), now: Timestamp? = nil) throws(StoreError) -> InteractionList {
        try views(as: viewer, now: now).interactions(query)
    }

    /// A page of the interactions list (SPEC §3.1) for `viewer`: `limit` items from `offset`,
    /// with the analytics of the whole filtered list (`analytics.total` items); only the
    /// page's items are built.
    public func interactions(as viewer: String, query: InteractionQuery = InteractionQuery(), offset: Int, limit: Int,
                             now: Timestamp? = nil) throws(StoreError) -> InteractionList {
        try views(as: viewer, now: now).interactions(query, offset: offset, limit: limit)
    }

    /// One interaction's detail (SPEC §3.2) for `viewer`.
    public func interaction(_ id: String, as viewer: String) throws(StoreError) -> InteractionDetail {
        try views(as: viewer).interaction(id)
    }

    /// A page of the activity timeline (SPEC §3.3) for `viewer`.
    public func activity(as viewer: String, query: ActivityQuery = ActivityQuery(), now: Timestamp? = nil,
                         zone: TimeZone = TimeZone(secondsFromGMT: 0)!) throws(StoreError) -> ActivityPage {
        try views(as: viewer, now: now).activity(query, zone: zone)
    }

    /// The views of `viewer`'s family now, counted from `now` (else the configured clock).
    private func views(as viewer: String, now: Timestamp?) throws(StoreError) -> FamilyViews {
        let (state, who) = try viewing(viewer)
        return FamilyViews(state: state, viewer: who, now: now ?? configuration.clock())
    }

    // MARK: Following

    /// The events appended from now on, by this process or any other, in log order.
    ///
    /// Every event committed after this returns is delivered: the log is measured here, at
    /// once, and what it held then is read (not delivered) by the feed's first poll. Reads the
    /// log when it changes (inotify on Linux; a PostgreSQL store's `NOTIFY`) and at least
    /// every `interval` (by default the configuration's `feedInterval`); reads only committed complete lines (a torn line or an unfinished
    /// batch is delivered once whole); after the log is replaced (an erasure's rename, or
    /// removed and made again) it reads the new file and delivers only events not in the old
    /// one. The stream ends when the consumer stops iterating, or at once when the log cannot
    /// be read to measure it.
    public func changes(every interval: Duration? = nil) -> AsyncStream<Event> {
        feed(every: interval) { () throws(StoreError) in try backend.changes(scope: .summary, after: nil) }
    }

    /// Every event of `family` after its `seq` (SPEC §1.1: each family counts on its own),
    /// already in the log or appended later, in log order: an app that kept the `seq` of the
    /// last event it handled resumes with no gap and no duplicate.
    public func changes(inFamily family: String, after seq: Int64, every interval: Duration? = nil) -> AsyncStream<Event> {
        feed(every: interval) { () throws(StoreError) in try backend.changes(scope: .summary, after: (family, seq)) }
    }

    private func feed(every interval: Duration?, _ make: () throws(StoreError) -> any ChangeSource) -> AsyncStream<Event> {
        let made = Result { () throws(StoreError) in try make() }
        return AsyncStream { continuation in
            guard case .success(let start) = made else {
                continuation.finish()
                return
            }
            FeedThread.run(start, every: interval ?? configuration.feedInterval, continuation: continuation) { _, events in events }
        }
    }

    /// The activity items (SPEC §3.3) that events appended from now on add to `viewer`'s
    /// timeline: the live dashboard widget. Items are built one by one, never by rebuilding
    /// the timeline. For a viewer who is not a member (or a log that cannot be read) the
    /// stream ends at once, with no item; ``observe(as:every:_:)`` says why.
    public func activityChanges(as viewer: String, every interval: Duration? = nil,
                                zone: TimeZone = TimeZone(secondsFromGMT: 0)!) -> AsyncStream<ActivityItem> {
        let clock = configuration.clock
        let made = Result { () throws(StoreError) -> any ChangeSource in
            let feed = try backend.changes(scope: .familyOf(viewer), after: nil)
            _ = try viewing(viewer)  // a viewer who is not a member: the stream ends at once
            return feed
        }
        return AsyncStream { continuation in
            guard case .success(let start) = made else {
                continuation.finish()
                return
            }
            FeedThread.run(start, every: interval ?? configuration.feedInterval, continuation: continuation) { feed, events in
                guard let who = try? Viewer(viewer, in: feed.state) else { return [] }
                return events.compactMap { ActivityViews.newItem(for: $0, in: feed.state, viewer: who, now: clock(), zone: zone) }
            }
        }
    }

    // MARK: Attachments

    /// The bytes of a stored attachment, checked against its hash.
    public func attachmentBytes(_ attachment: Attachment) throws(StoreError) -> [UInt8] {
        guard let sha = attachment.sha256, SHA256.isHex(sha) else {
            throw .rejected(EventError("Attachment \(attachment.name) has no stored bytes", kind: .notFound))
        }
        let blob = AttachmentStore(logPath: backend.location).path(for: sha)
        guard let bytes = try backend.blob(sha) else { throw .io(path: blob, message: "missing attachment \(attachment.name)") }
        guard SHA256.hex(bytes) == sha else { throw .io(path: blob, message: "attachment \(attachment.name) does not match its hash") }
        return bytes
    }

    /// Copies an attachment's bytes (checked against their hash) to a file, durably.
    ///
    /// Never writes through or replaces a symbolic link, a folder or anything but a regular
    /// file, and replaces a regular file only when asked.
    ///
    /// - Parameter replacing: whether an existing file at `path` may be replaced.
    /// - Returns: a warning when the file is written but its folder entry could not be made
    ///   durable (the file is there; a power loss might still take it).
    @discardableResult
    public func copyAttachment(_ attachment: Attachment, to path: String, replacing: Bool = false) throws(StoreError) -> String? {
        let bytes = try attachmentBytes(attachment)
        switch try fs.entry(at: path) {
        case .missing: break
        case .regular where replacing: break
        case .regular: throw .io(path: path, message: "\(path) already exists")
        case .link: throw .io(path: path, message: "\(path) is a symbolic link; name the file it points to, or another path")
        case .directory: throw .io(path: path, message: "\(path) is a directory, not a file")
        case .other: throw .io(path: path, message: "\(path) is not a regular file; an attachment is written only to a new or regular file")
        }
        return try fs.writeFileAtomically(path, parts: [bytes], warnAfterRename: true)
    }

    // MARK: Erasure

    /// Makes the log forget one member for good (SPEC §5): their lines, their `MemberJoined`,
    /// and what depends on what they created are replaced by `Erased` records; orphaned
    /// attachments, torn fragments and the snapshot go too. Asked by a parent of the family or
    /// by the member. The `prev` chain still proves the old head (``verify(expectHead:)``).
    ///
    /// Crash-safe (the new log replaces the old one in one rename) and safe against writers
    /// racing it (they wait for the lock and open the new log).
    ///
    /// - Parameter dryRun: only report what would be erased; nothing changes.
    /// - Throws: ``StoreError/rejected(_:)`` (`Unknown user U`, who may erase, a member who
    ///   added members still in the family), ``StoreError/noLog(path:)``, ``StoreError/io(path:message:)``.
    @discardableResult
    public func erase(member: String, as requester: String, dryRun: Bool = false) throws(StoreError) -> ErasureReport {
        try erase(.member(member), as: requester, dryRun: dryRun)
    }

    /// Makes the log forget the requester's whole family (SPEC §5); asked by a parent.
    @discardableResult
    public func erase(familyOf requester: String, dryRun: Bool = false) throws(StoreError) -> ErasureReport {
        try erase(.family, as: requester, dryRun: dryRun)
    }

    private func erase(_ target: ErasureTarget, as requester: String, dryRun: Bool) throws(StoreError) -> ErasureReport {
        lock.lock()
        defer { lock.unlock() }
        let outcome = try backend.erase(target, requester: requester, at: configuration.clock(), eventId: configuration.makeId(), dryRun: dryRun)
        return ErasureReport(outcome, target: target)
    }

    // MARK: Verification

    /// Checks every line, the `prev` chain and any snapshot (SPEC §4 `verify`).
    public func verify(expectHead: String? = nil) throws(StoreError) -> VerifyReport {
        try backend.verify(expectHead: expectHead, problems: nil, progress: nil)
    }
}
