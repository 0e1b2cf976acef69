import CompassCore
import Foundation

/// The log in PostgreSQL (``PostgresSchema``): the same lines, byte for byte, as the file
/// store writes, one stream per family.
///
/// An append locks only its family's row in `families`, checks that the family is still at
/// the version it decided against (else it reads the newer lines, decides again and retries),
/// inserts the lines and commits: acknowledged means committed (with the server's
/// `synchronous_commit` on, as it is by default). User and event ids are unique across the
/// store through their own tables, so two families' appends never wait for each other and
/// still cannot take the same id.
final class PostgresLogBackend: LogBackend {
    private(set) var db: PostgresConnection
    /// The address, to connect again after a lost connection.
    let address: String
    /// Whether this connection `LISTEN`s (a feed's): a new connection listens again.
    private var isListening = false
    /// Whether the server is a standby (in recovery, read-only): it gets no notifications and
    /// keeps no snapshots, and a read it has not replayed yet is read on ``primaryAddress``.
    private(set) var isStandby = false
    /// Inside a transaction a lost connection is not replaced (the transaction is gone with it).
    private var inTransaction = false
    /// The events the current append is committing: after a lost connection, whether they
    /// are in the store says whether the commit happened.
    private var committing: [Event] = []
    /// How many lines a block of a whole-store read (``eachBlock(_:)``) holds.
    private let blockLines: Int
    /// One statement or transaction at a time on the connection (recursive: an append's
    /// transaction stores its blobs through ``saveBlobs(_:)`` on the same connection).
    let lock = NSRecursiveLock()
    /// Each family this process appended to, replayed up to the version it last saw: an
    /// append reads only the lines other writers added since (guarded by `lock`).
    private var families: [String: Replayer] = [:]
    /// The erasure generation the cached families were read at.
    private var cachedGeneration: Int64 = -1
    /// Each member's family, as appends found it (a member never moves; an erasure clears it).
    private var userFamilies: [String: String] = [:]

    /// When appends wake feeds with `NOTIFY` (bench/results.md measures each).
    enum NotifyMode: String, Sendable {
        /// In the append's own transaction (the default).
        case inTransaction = "transaction"
        /// After the append committed, in a statement of its own.
        case afterCommit = "after"
        /// Never: feeds wake on their interval only.
        case off
    }

    /// The mode: ``NotifyMode/inTransaction``, unless a benchmark sets another before it opens
    /// any store (`compass-bench pg-load` takes it from `COMPASS_PG_NOTIFY`). Set once, before
    /// any store exists: it is read without a lock.
    nonisolated(unsafe) static var notify: NotifyMode = .inTransaction

    /// Wakes the feeds (a write to `family` was committed; the notification does not say
    /// which, ``PostgresSchema/channelQuery``): at once outside a transaction (after a commit,
    /// ``NotifyMode/afterCommit``), at its commit inside one.
    private func notifyFeeds(_ family: String) throws(StoreError) {
        try sql("SELECT pg_notify((\(PostgresSchema.channelQuery)), '')")
    }

    /// The store's notification channel (``PostgresSchema/channelQuery``).
    private func channel() throws(StoreError) -> String {
        guard let name = try sql(PostgresSchema.channelQuery).rows.first?[0], PostgresSchema.isChannel(name) else {
            throw .io(path: db.display, message: "the Compass tables in \(db.display) have no notification channel; run: compass db init --log ADDRESS")
        }
        return name
    }

    /// Inside a write's transaction: wakes the feeds when it commits (unless notifications are off).
    func notifyInTransaction(_ family: String) throws(StoreError) {
        guard Self.notify != .off else { return }
        try notifyFeeds(family)
    }

    /// - Parameter blockLines: how many lines a block of a whole-store read holds.
    init(address: String, blockLines: Int = PostgresLogBackend.defaultBlockLines) throws(StoreError) {
        self.address = address
        self.blockLines = blockLines
        db = try PostgresConnection(address)
        let version = try schemaVersion()
        guard version == PostgresSchema.version else {
            throw .io(path: db.display, message: version == 0
                      ? "no Compass tables in \(db.display); create them with: compass db init --log ADDRESS"
                      : "the Compass tables in \(db.display) are version \(version); this build reads version \(PostgresSchema.version)")
        }
        isStandby = try inRecovery()
    }

    /// Whether the server is a standby replaying the primary's WAL.
    private func inRecovery() throws(StoreError) -> Bool { try sql("SELECT pg_is_in_recovery()")[0, 0] == "t" }

    /// Where a read that asks for a version this standby has not replayed yet goes: the same
    /// hosts asking for the primary (``PrimaryAddress``); nil on a primary, or when the
    /// address names no other server.
    var primaryAddress: String? { isStandby ? PrimaryAddress.of(address) : nil }

    private init(connection: PostgresConnection, address: String) {
        db = connection
        self.address = address
        blockLines = Self.defaultBlockLines
    }

    var location: String { db.display }

    /// Creates or upgrades the tables (idempotent); returns the versions before and after.
    static func initialize(address: String) throws(StoreError) -> (from: Int, to: Int) {
        let backend = PostgresLogBackend(connection: try PostgresConnection(address), address: address)
        let from = try backend.schemaVersion()
        for version in from..<PostgresSchema.version {
            try backend.transaction { () throws(StoreError) in
                for statement in PostgresSchema.migrations[version] { try backend.sql(statement) }
                try backend.sql("INSERT INTO compass_meta (key, value) VALUES ('schema', $1) ON CONFLICT (key) DO UPDATE SET value = $1",
                                [.int(Int64(version + 1))])
            }
        }
        return (from, PostgresSchema.version)
    }

    /// What the server's settings leave open to loss of an acknowledged append (issue 56): an
    /// append is acknowledged once its `COMMIT` returns, which is durable on a standby only
    /// when a synchronous standby is named and `synchronous_commit` waits for it.
    static func durabilityWarnings(address: String) throws(StoreError) -> [String] {
        let backend = PostgresLogBackend(connection: try PostgresConnection(address), address: address)
        let commit = try backend.sql("SHOW synchronous_commit")[0, 0] ?? ""
        let standbys = try backend.sql("SHOW synchronous_standby_names")[0, 0] ?? ""
        var warnings: [String] = []
        switch commit {
        case "off":
            warnings.append("synchronous_commit is off: an acknowledged append can be lost when the server crashes; set it to on")
        case "local":
            warnings.append("synchronous_commit is local: an acknowledged append can be missing on a standby that takes over; set it to on (or remote_apply)")
        default: break
        }
        if standbys.isEmpty {
            warnings.append("no synchronous standby (synchronous_standby_names is empty): an append acknowledged just before this server fails "
                            + "may be missing on a standby that takes over; a formation that fails over needs one (pg_auto_failover names it "
                            + "while a secondary is healthy)")
        }
        return warnings
    }

    /// The version of the tables at `address` (0: none).
    static func schemaVersion(address: String) throws(StoreError) -> Int {
        try PostgresLogBackend(connection: try PostgresConnection(address), address: address).schemaVersion()
    }

    private func schemaVersion() throws(StoreError) -> Int {
        let exists = try sql("SELECT to_regclass('compass_meta') IS NOT NULL")
        guard exists[0, 0] == "t" else { return 0 }
        return Int(try sql("SELECT value FROM compass_meta WHERE key = 'schema'").rows.first?[0] ?? "0") ?? 0
    }

    // MARK: Statements

    @discardableResult
    func sql(_ text: String, _ values: [PostgresConnection.Value] = []) throws(StoreError) -> PostgresConnection.Rows {
        try perform { connection throws(PostgresConnection.Failure) in try connection.run(text, values) }
    }

    /// A statement whose first column is `bytea`: the first row's bytes, or nil.
    func bytes(_ text: String, _ values: [PostgresConnection.Value] = []) throws(StoreError) -> [UInt8]? {
        try perform { connection throws(PostgresConnection.Failure) in try connection.bytes(text, values) }
    }

    /// A statement whose first column is a stored line: the lines' bytes, each ending in
    /// `\n` (``PostgresConnection/lines(_:_:)``), and how many.
    func lines(_ text: String, _ values: [PostgresConnection.Value] = []) throws(StoreError) -> (bytes: [UInt8], count: Int) {
        try perform { connection throws(PostgresConnection.Failure) in try connection.lines(text, values) }
    }

    /// Runs a statement on the connection, made again first if the server or the network
    /// dropped it (outside a transaction).
    private func perform<T>(_ statement: (PostgresConnection) throws(PostgresConnection.Failure) -> T) throws(StoreError) -> T {
        if !inTransaction, !db.isUp { try reconnect() }
        do throws(PostgresConnection.Failure) {
            return try statement(db)
        } catch {
            // libpq learns the connection is gone only when a statement fails. Outside a
            // transaction every statement here may run twice (reads, and writes that are
            // `ON CONFLICT DO NOTHING` or a transaction's BEGIN): connect again, run it again.
            guard !inTransaction, !db.isUp else { throw .io(path: db.display, message: "PostgreSQL: \(error.message)") }
            try reconnect()
            do throws(PostgresConnection.Failure) {
                return try statement(db)
            } catch {
                throw .io(path: db.display, message: "PostgreSQL: \(error.message)")
            }
        }
    }

    /// Connects again (listening again if this connection listened: a notification missed
    /// meanwhile costs latency only, as the listener reads the store after).
    private func reconnect() throws(StoreError) {
        db = try PostgresConnection(address)
        if isListening {
            do throws(PostgresConnection.Failure) {
                guard let name = try db.run(PostgresSchema.channelQuery).rows.first?[0], PostgresSchema.isChannel(name) else { return }
                try db.run("LISTEN \(name)")
            } catch {
                throw .io(path: db.display, message: "PostgreSQL: \(error.message)")
            }
        }
    }

    /// A backend on its own connection that listens for appends' notifications: a feed's,
    /// so waiting on it never holds the store's connection.
    func listening() throws(StoreError) -> PostgresLogBackend {
        let other = PostgresLogBackend(connection: try PostgresConnection(address), address: address)
        other.isStandby = try other.inRecovery()
        // A standby cannot `LISTEN` (notifications are not replicated): its feeds look again
        // every interval.
        guard !other.isStandby else { return other }
        try other.sql("LISTEN \(try other.channel())")
        other.isListening = true
        return other
    }

    /// Blocks until an append or an erasure notifies (true), or `timeout` passes (false).
    @discardableResult
    func waitForNotification(upTo timeout: Duration) -> Bool {
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        lock.lock()
        if !db.isUp { _ = try? reconnect() }
        let connection = db
        lock.unlock()
        return connection.waitForNotification(milliseconds: milliseconds)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// - Parameter begin: the statement that starts it (an isolation level, read only).
    func transaction<T>(begin: String = "BEGIN", _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try sql(begin)
        inTransaction = true
        defer { inTransaction = false }
        do throws(StoreError) {
            let value = try body()
            try sql("COMMIT")
            return value
        } catch {
            _ = try? db.run("ROLLBACK")
            throw error
        }
    }

    // MARK: Reading

    func exists() throws(StoreError) -> Bool { true }

    /// A database is the family's store, never a device's: it is synced with, not synced.
    func replaceLog(_ make: ([UInt8]) throws(StoreError) -> [UInt8], committed: () throws(StoreError) -> Void) throws(StoreError) {
        throw .conflict("a device's store is a file: a database is the store devices sync with")
    }

    /// Every line, family by family, each family's in `seq` order. (Families are independent
    /// streams, and the ids that are unique across families are held unique by the database,
    /// so no order between families changes what a replay decides.)
    func allLines() throws(StoreError) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return try lines("SELECT line FROM events ORDER BY family, seq").bytes
    }

    func familyLines(_ family: String) throws(StoreError) -> (lines: [UInt8], count: Int) {
        lock.lock()
        defer { lock.unlock() }
        let found = try lines("SELECT line FROM events WHERE family = $1 ORDER BY seq", [.text(family)])
        return (found.bytes, found.count)
    }

    /// The lines of the families a batch names or whose users or event ids it names, family
    /// by family, each in `seq` order.
    func linesOfFamilies(naming names: BatchNames, excluding read: Set<String> = []) throws(StoreError) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        // The families first, then their lines by the primary key (with the families as a
        // subquery of one statement, importing one 10,000-line family into a store of 2M
        // lines took 12.5 s: bench/results.md).
        let families = try sql("""
            SELECT unnest($1::text[])
            UNION SELECT family FROM users WHERE user_id = ANY($2::text[])
            UNION SELECT family FROM event_ids WHERE event_id = ANY($3::text[])
            """, [.text(Self.arrayLiteral(names.families.sorted())), .text(Self.arrayLiteral(names.users.sorted())),
                  .text(Self.arrayLiteral(names.eventIds.sorted()))]).rows.compactMap { $0[0] }.filter { !read.contains($0) }
        guard !families.isEmpty else { return [] }
        return try lines("SELECT line FROM events WHERE family = ANY($1::text[]) ORDER BY family, seq",
                         [.text(Self.arrayLiteral(families.sorted()))]).bytes
    }

    func family(of user: String) throws(StoreError) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return try sql("SELECT family FROM users WHERE user_id = $1", [.text(user)]).rows.first?[0] ?? nil
    }

    static func joined(_ rows: PostgresConnection.Rows) -> [UInt8] {
        var bytes: [UInt8] = []
        for row in rows.rows {
            bytes += Array((row[0] ?? "").utf8)
            bytes.append(0x0A)
        }
        return bytes
    }

    func replay(_ options: CompassStore.ReadOptions) throws(StoreError) -> Replayer {
        var replayer = Replayer(cut: options.cut, observer: options.observer, problems: options.problems)
        // A viewer's read costs their family: its lines alone, in `seq` order; so does their
        // audit, whose lines are numbered in that order (a database has no file order).
        if case .familyOf(let user) = options.scope {
            guard let family = try family(of: user) else { return replayer }
            // From the family's snapshot when the read is not cut and not observed.
            if options.cut == ReplayCut(), options.observer == nil { return try familyReplay(family, problems: options.problems) }
            replayer.consume(bytes: try familyLines(family).lines)
            return replayer
        }
        lock.lock()
        defer { lock.unlock() }
        try readOnlySnapshot { () throws(StoreError) in try eachBlock { replayer.consume(bytes: $0) } }
        return replayer
    }

    /// A family's snapshot is checked where it is read (its generation); there is no store-wide one.
    func storedSnapshotMatches(_ snapshot: ReplaySnapshot) throws(StoreError) -> Bool? { nil }

    func makeCursor() -> any LogCursor { PostgresCursor(backend: self) }

    func changeSignal() throws(StoreError) -> any FamilyChangeSignal {
        try PostgresChangeSignal(backend: try listening())
    }

    /// A viewer's feed reads the viewer's family alone: its first read, and its read again
    /// after an erasure of any family, cost that family, not the store. A viewer who is not a
    /// member yet is followed store-wide (their family is not known).
    func changes(scope: ReplayScope, after: (family: String, seq: Int64)?) throws(StoreError) -> any ChangeSource {
        var families: Set<String>?
        if case .familyOf(let user) = scope, let family = try family(of: user) { families = [family] }
        return try PostgresFeed(backend: try listening(), after: after, families: families)
    }

    /// Reads the store in blocks, twice when an erasure must be walked, within one read-only
    /// snapshot: both passes see the same lines, and a block is all it holds beside the state.
    func verify(expectHead: String?, problems: (@Sendable (Problem) -> Void)?,
                progress: ReadProgress?) throws(StoreError) -> VerifyReport {
        lock.lock()
        defer { lock.unlock() }
        return try readOnlySnapshot { () throws(StoreError) in
            try LogVerifier.verify(blocks: { (body) throws(StoreError) in try eachBlock(body) }, expectHead: expectHead,
                                   problems: problems) { sha throws(StoreError) in try blob(sha) }
        }
    }

    /// Runs `body` in one `REPEATABLE READ READ ONLY` transaction (the caller holds the lock).
    private func readOnlySnapshot<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// How many lines a block of a whole-store read holds by default (about 12 MB of a
    /// generated log).
    static let defaultBlockLines = 20_000

    /// Every line, family by family, each family's in `seq` order (as ``allLines()``), handed
    /// to `body` in blocks of whole lines through a server-side cursor: in a transaction the
    /// caller opened, under the lock (a cursor left open by a failure ends with it).
    private func eachBlock(_ body: ([UInt8]) throws(StoreError) -> Void) throws(StoreError) {
        try sql("DECLARE compass_blocks NO SCROLL CURSOR FOR SELECT line FROM events ORDER BY family, seq")
        while true {
            let block = try lines("FETCH \(blockLines) FROM compass_blocks")
            if block.count == 0 { break }
            try body(block.bytes)
        }
        try sql("CLOSE compass_blocks")
    }

    func eachBlockOfLines(_ body: ([UInt8]) throws(StoreError) -> Void) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        try readOnlySnapshot { () throws(StoreError) in try eachBlock(body) }
    }

    // MARK: Blobs

    func blob(_ sha256: String) throws(StoreError) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        guard let text = try sql("SELECT bytes FROM blobs WHERE sha256 = $1", [.text(sha256)]).rows.first?[0] else { return nil }
        return PostgresConnection.bytes(fromHex: text)
    }

    func hasBlob(_ sha256: String) throws(StoreError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return try sql("SELECT 1 FROM blobs WHERE sha256 = $1", [.text(sha256)]).count == 1
    }

    func saveBlobs(_ blobs: [StagedAttachment]) throws(StoreError) -> () -> Void {
        lock.lock()
        defer { lock.unlock() }
        var added: [String] = []
        for blob in blobs {
            let inserted = try sql("INSERT INTO blobs (sha256, bytes) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING sha256",
                                   [.text(blob.sha256), .bytes(blob.bytes)])
            if inserted.count == 1 { added.append(blob.sha256) }
        }
        return { [self] in
            lock.lock()
            defer { lock.unlock() }
            for sha in added { _ = try? sql("DELETE FROM blobs WHERE sha256 = $1", [.text(sha)]) }
        }
    }

    // MARK: Appending

    func append(_ request: AppendRequest, build: DraftBuilder) throws(StoreError) -> AppendOutcome {
        // Decided against the state read, committed only if no other writer moved the family
        // since: otherwise read again and decide again.
        var reconnects = 0
        for _ in 0..<200 {
            do throws(StoreError) {
                if let outcome = try attemptAppend(request, build: build) { return outcome }
            } catch {
                // A connection lost mid-append: the commit may or may not have happened. Connect
                // again; if the batch's events are in the store it did (acknowledged now, never
                // written twice), else decide again.
                lock.lock()
                let lost = !db.isUp
                let pending = committing
                lock.unlock()
                guard lost, reconnects < 3 else { throw error }
                reconnects += 1
                if let first = pending.first, try isCommitted(first.id) {
                    lock.lock()
                    defer { lock.unlock() }
                    try confirmDurable()
                    return .written(pending)
                }
            }
        }
        throw .conflict("Conflict: the family kept changing while this append was decided; try again")
    }

    /// One attempt; nil when another writer changed a family it decided against.
    private func attemptAppend(_ request: AppendRequest, build: DraftBuilder) throws(StoreError) -> AppendOutcome? {
        lock.lock()
        committing = []
        lock.unlock()
        // An append by a member to their own family: locked first, decided under the lock, so a
        // hot family queues instead of retrying.
        if let actor = request.actor, let family = try cachedFamily(of: actor),
           let outcome = try familyAppend(request, family: family, build: build) {
            return outcome
        }
        return try optimisticAppend(request, build: build)
    }

    /// The actor's family, looked up once per process (and again after an erasure).
    private func cachedFamily(of user: String) throws(StoreError) -> String? {
        lock.lock()
        defer { lock.unlock() }
        if let known = userFamilies[user] { return known }
        let found = try family(of: user)
        if let found {
            if userFamilies.count >= 65536 { userFamilies.removeAll() }  // bounded, read again
            userFamilies[user] = found
        }
        return found
    }

    /// Returns once everything this server has committed is as durable as a commit of this
    /// connection: on a synchronous standby too, where one is named.
    ///
    /// An append acknowledged because its line was read back (a retry of a stored event id,
    /// or a commit whose answer the lost connection never brought) would otherwise rest on
    /// a read: a primary that crashed and came back serves its own commits that never reached
    /// the standby, and a failover to that standby then loses them. A transaction that writes
    /// to the WAL (a transactional logical message, which needs no table or grant) commits
    /// only once the standby has the WAL up to it, so everything before it too.
    func confirmDurable() throws(StoreError) {
        _ = try transaction { () throws(StoreError) in
            try sql("SELECT pg_logical_emit_message(true, 'compass', 'durable')")
        }
    }

    /// Whether an event with this id is in the store.
    private func isCommitted(_ eventId: String) throws(StoreError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return try sql("SELECT 1 FROM event_ids WHERE event_id = $1", [.text(eventId)]).count == 1
    }

    /// Decides against this process's replay of the family (read once, then only what other
    /// writers add) and writes in one round trip (``PostgresSchema/appendFunction``): the
    /// function locks the family's row and writes only if the family is still where the
    /// decision was made; else it returns the newer lines, which are folded before deciding
    /// again. Nil when the drafts are not all of the family (a new family's first member):
    /// then the optimistic path decides.
    private func familyAppend(_ request: AppendRequest, family: String, build: DraftBuilder) throws(StoreError) -> AppendOutcome? {
        lock.lock()
        defer { lock.unlock() }
        for _ in 0..<200 {
            var replayer: Replayer
            if let cached = families.removeValue(forKey: family) {
                replayer = cached
            } else {
                // The generation first: lines read after it are at least that new, and the
                // function refuses a write decided against an older one.
                let generation = try erasureGeneration()
                if generation != cachedGeneration { forgetFamilies(at: generation) }
                replayer = try familyReplay(family)
            }
            var original: Event?
            if let eventId = request.eventId, let line = try originalLine(of: eventId) { original = Self.event(in: line) }
            var decided = replayer
            let decision = Result { () throws(StoreError) -> OptimisticDecision in
                let drafts = try build(replayer.state, original)
                if let eventId = request.eventId, let original {
                    try StreamSealing.checkRetry(drafts, of: original, eventId: eventId, sanitizing: request.sanitizing)
                    return .alreadyPresent
                }
                guard drafts.allSatisfy({ $0.family == family }) else { return .outsideFamily }
                let version = replayer.streams.version(of: family)
                if let expectVersion = request.expectVersion, expectVersion != version {
                    throw .staleVersion(family: family, expected: expectVersion, current: version)
                }
                // Decided on a copy: if another writer moved the family, the replay at
                // `version` is what the newer lines are folded into.
                return .decided(try StreamSealing.decide(drafts, against: &decided, sanitizing: request.sanitizing,
                                                         lineNumbers: request.lineNumbers, prebuilt: request.prebuilt))
            }
            let events: [Event]
            switch decision {
            case .success(.alreadyPresent):
                keep(replayer, for: family)
                try confirmDurable()
                return .alreadyPresent(original!)
            case .success(.decided(let decidedEvents)):
                events = decidedEvents
            case .success(.outsideFamily):
                keep(replayer, for: family)
                return nil
            case .failure(let error):
                // A refusal decided against this process's replay stands only if the replay
                // is current: else fold what other writers added and decide again.
                switch try catchUp(&replayer, family: family) {
                case nil: return nil
                case true?: keep(replayer, for: family); continue
                case false?: keep(replayer, for: family); throw error
                }
            }
            let version = replayer.streams.version(of: family)
            let head = replayer.streams[family: family]?.head.text ?? SHA256.emptyHex
            let lines = StreamSealing.seal(events, heads: [family: head])
            let undo = try request.beforeWrite(lines.map(\.event))
            committing = lines.map(\.event)
            let answer: PostgresConnection.Rows
            do throws(StoreError) {
                answer = try callAppend(family: family, version: version, head: head, lines: lines)
            } catch {
                undo()
                throw error
            }
            guard let first = answer.rows.first else {
                for line in lines { decided.advanceWritten(line.event, lineLength: line.text.utf8.count, hash: line.hash) }
                keep(decided, for: family)
                return .written(lines.map(\.event))
            }
            undo()
            if first[0] == "-1" {
                // An erasure rewrote lines since: decided again from what the store holds now.
                forgetFamilies(at: first[1].flatMap { Int64($0) } ?? -1)
                return nil
            }
            replayer.consume(bytes: Self.joined(PostgresConnection.Rows(rows: answer.rows.map { [$0[1]] })))
            keep(replayer, for: family)
        }
        throw .conflict("Conflict: the family kept changing while this append was decided; try again")
    }

    /// What deciding an append against one family's cached replay came to.
    private enum OptimisticDecision {
        /// The events to write.
        case decided([Event])
        /// An idempotent retry of an event already stored.
        case alreadyPresent
        /// Drafts outside the actor's family: decided against the whole store instead.
        case outsideFamily
    }

    /// Folds the lines other writers added to the family since `replayer` read it: true when
    /// there were some, false when it was current, nil when an erasure rewrote lines since
    /// (every cached family is dropped; the caller decides from the store).
    private func catchUp(_ replayer: inout Replayer, family: String) throws(StoreError) -> Bool? {
        let generation = try erasureGeneration()
        guard generation == cachedGeneration else {
            forgetFamilies(at: generation)
            return nil
        }
        let newer = try sql("SELECT line FROM events WHERE family = $1 AND seq > $2 ORDER BY seq",
                            [.text(family), .int(replayer.streams.version(of: family))])
        guard newer.count > 0 else { return false }
        replayer.consume(bytes: Self.joined(newer))
        return true
    }

    /// Runs ``PostgresSchema/appendFunction`` for one family's sealed lines.
    private func callAppend(family: String, version: Int64, head: String,
                            lines: [(event: Event, text: String, hash: String)]) throws(StoreError) -> PostgresConnection.Rows {
        func column(_ value: (Event, String, String) -> String) -> PostgresConnection.Value {
            .text(Self.arrayLiteral(lines.map { value($0.event, $0.text, $0.hash) }))
        }
        var users: [String] = []
        for line in lines { if case .memberJoined(let joined) = line.event.payload { users.append(joined.userId) } }
        let values: [PostgresConnection.Value] = [
            .text(family), .int(cachedGeneration), .int(version), .text(head),
            column { e, _, _ in e.id }, column { e, _, _ in String(e.seq) }, column { _, text, _ in text }, column { _, _, hash in hash },
            column { e, _, _ in e.type.rawValue }, column { e, _, _ in e.actor }, column { e, _, _ in e.at.rfc3339 },
            .text(Self.arrayLiteral(users)), .text(Self.notify == .inTransaction ? "true" : "false"),
        ]
        let text = "SELECT r_seq, r_line FROM compass_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
        let rows: PostgresConnection.Rows
        if !db.isUp { try reconnect() }
        do throws(PostgresConnection.Failure) {
            rows = try db.run(text, values)
        } catch {
            throw Self.refusal(error, users: users, display: db.display)
        }
        if rows.count == 0, Self.notify == .afterCommit { try? notifyFeeds(family) }
        return rows
    }

    /// A failed write as the rule it broke (an id another family took meanwhile), or an I/O error.
    static func refusal(_ error: PostgresConnection.Failure, users: [String], display: String) -> StoreError {
        guard error.isUniqueViolation else { return .io(path: display, message: "PostgreSQL: \(error.message)") }
        if error.constraint == "users_pkey" {
            return .rejected(EventError("User \(users.first ?? "") is already a member"))
        }
        return .rejected(EventError("duplicate event id: another writer took an id of this batch meanwhile", kind: .duplicate))
    }

    /// Keeps a family's replay for this process's next append to it. At most
    /// ``cachedFamilyLimit`` families are kept: past it, one already kept is dropped (read
    /// again if it is appended to again).
    private func keep(_ replayer: Replayer, for family: String) {
        if families.count >= Self.cachedFamilyLimit, families[family] == nil, let dropped = families.keys.first {
            families[dropped] = nil
        }
        families[family] = replayer
    }

    /// How many families' replays one process keeps between appends.
    static let cachedFamilyLimit = 1024

    /// The store's erasure generation (bumped by every erasure).
    private func erasureGeneration() throws(StoreError) -> Int64 {
        Int64(try sql("SELECT value FROM compass_meta WHERE key = 'erasures'").rows.first?[0] ?? "0") ?? 0
    }

    /// Drops every cached family and member: an erasure rewrote lines since they were read.
    private func forgetFamilies(at generation: Int64) {
        families = [:]
        userFamilies = [:]
        cachedGeneration = generation
    }

    /// The stored line of an event id, if any (a failed lookup is an error, never "absent":
    /// the retry could then be decided as a new event).
    private func originalLine(of eventId: String) throws(StoreError) -> String? {
        try sql("SELECT e.line FROM event_ids i JOIN events e ON e.family = i.family AND e.seq = i.seq WHERE i.event_id = $1",
                [.text(eventId)]).rows.first?[0] ?? nil
    }

    private func optimisticAppend(_ request: AppendRequest, build: DraftBuilder) throws(StoreError) -> AppendOutcome? {
        // The state to decide against: the whole store for a numbered batch (its lines may be
        // of any family), else the actor's family.
        var replayer = Replayer(problems: .summary)
        if request.lineNumbers != nil {
            replayer.consume(bytes: try allLines())
        } else if let actor = request.actor, let family = try family(of: actor) {
            replayer.consume(bytes: try familyLines(family).lines)
        }
        var original: Event?
        if let eventId = request.eventId {
            // A failed lookup is an error, never "no original" (the retry could then be
            // decided as a new event).
            lock.lock()
            defer { lock.unlock() }
            let found = try sql("SELECT e.line FROM event_ids i JOIN events e ON e.family = i.family AND e.seq = i.seq WHERE i.event_id = $1",
                                [.text(eventId)])
            if let line = found.rows.first?[0] { original = Self.event(in: line) }
        }
        var drafts = try build(replayer.state, original)
        if request.lineNumbers == nil {
            // A family the drafts join or start, or one a new member or event id is already
            // in, is read too, and the drafts decided again: the rules then refuse what the
            // store holds (a family that exists, a taken id) as they do on a file.
            var names = BatchNames(families: Set(drafts.map(\.family)), users: [], eventIds: Set(drafts.map(\.id)))
            for draft in drafts { if case .string(let user)? = draft.data["userId"] { names.users.insert(user) } }
            names.families.subtract(replayer.streams.sorted.map(\.family))
            let more = try linesOfFamilies(naming: names, excluding: Set(replayer.streams.sorted.map(\.family)))
            if !more.isEmpty {
                replayer.consume(bytes: more)
                drafts = try build(replayer.state, original)
            }
        }
        if let eventId = request.eventId, let original {
            try StreamSealing.checkRetry(drafts, of: original, eventId: eventId, sanitizing: request.sanitizing)
            lock.lock()
            defer { lock.unlock() }
            try confirmDurable()
            return .alreadyPresent(original)
        }
        if let expectVersion = request.expectVersion, let family = drafts.first?.family {
            if let other = drafts.first(where: { $0.family != family })?.family {
                throw .conflict("Conflict: --expect-version names one family's version, but the batch writes to \(family) and \(other)")
            }
            // Checked again under the family's lock below.
            let version = replayer.streams.version(of: family)
            if expectVersion != version { throw .staleVersion(family: family, expected: expectVersion, current: version) }
        }
        // The families the batch writes, each at the version and head it was decided against.
        var before: [String: (seq: Int64, head: String)] = [:]
        for draft in drafts where before[draft.family] == nil {
            let stream = replayer.streams[family: draft.family]
            before[draft.family] = (stream?.seq ?? 0, stream?.head.text ?? SHA256.emptyHex)
        }
        let events = try StreamSealing.decide(drafts, against: &replayer, sanitizing: request.sanitizing,
                                              lineNumbers: request.lineNumbers, prebuilt: request.prebuilt)
        let lines = StreamSealing.seal(events, heads: before.mapValues(\.head))
        let undo = try request.beforeWrite(lines.map(\.event))

        // The undo of the blobs runs after the connection is free again.
        lock.lock()
        committing = lines.map(\.event)
        let result = Result { () throws(StoreError) -> Bool in
            for family in before.keys.sorted() {
                try sql("INSERT INTO families (family) VALUES ($1) ON CONFLICT DO NOTHING", [.text(family)])
            }
            return try transaction { () throws(StoreError) -> Bool in
                // The only lock an append takes: its families' rows, in id order (no deadlock).
                for family in before.keys.sorted() {
                    let row = try sql("SELECT version, head FROM families WHERE family = $1 FOR UPDATE", [.text(family)])
                    guard let version = row.rows.first?[0].flatMap({ Int64($0) }), row.rows.first?[1] == before[family]!.head,
                          version == before[family]!.seq else { return true }
                }
                try insertLines(lines)
                var heads: [String: (Int64, String)] = [:]
                for line in lines { heads[line.event.family] = (line.event.seq, line.hash) }
                for (family, head) in heads {
                    try sql("UPDATE families SET version = $2, head = $3 WHERE family = $1", [.text(family), .int(head.0), .text(head.1)])
                }
                if let family = heads.keys.min() { try notifyInTransaction(family) }
                return false
            }
        }
        lock.unlock()
        switch result {
        case .failure(let error):
            undo()
            throw error
        case .success(true):
            undo()  // another writer moved a family: decide again
            return nil
        case .success(false):
            break
        }
        return .written(lines.map(\.event))
    }

    /// Inserts sealed lines with their columns, their event ids and the members they add: one
    /// line by itself, many in statements of up to 2,000 lines (arrays unnested server-side).
    func insertLines(_ lines: [(event: Event, text: String, hash: String)]) throws(StoreError) {
        if lines.count == 1 {
            try insertLine(lines[0].text, hash: lines[0].hash, event: lines[0].event)
        } else {
            var start = 0
            while start < lines.count {
                let chunk = lines[start..<min(lines.count, start + 2000)]
                func column(_ value: (Event, String, String) -> String) -> PostgresConnection.Value {
                    .text(Self.arrayLiteral(chunk.map { value($0.event, $0.text, $0.hash) }))
                }
                try insertUnique("""
                    WITH ids AS (INSERT INTO event_ids (event_id, family, seq)
                                 SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]))
                    INSERT INTO events (family, seq, line, hash, event_id, type, actor, at)
                    SELECT * FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $1::text[], $6::text[], $7::text[], $8::text[])
                    """, [column { e, _, _ in e.id }, column { e, _, _ in e.family }, column { e, _, _ in String(e.seq) },
                          column { _, text, _ in text }, column { _, _, hash in hash }, column { e, _, _ in e.type.rawValue },
                          column { e, _, _ in e.actor }, column { e, _, _ in e.at.rfc3339 }],
                         else: EventError("duplicate event id: another writer took an id of this batch meanwhile", kind: .duplicate))
                start += 2000
            }
        }
        for line in lines {
            if case .memberJoined(let joined) = line.event.payload {
                try insertUnique("INSERT INTO users (user_id, family) VALUES ($1, $2)", [.text(joined.userId), .text(line.event.family)],
                                 else: EventError("User \(joined.userId) is already a member"))
            }
        }
    }

    /// A PostgreSQL array literal of texts: each element quoted, `\` and `"` escaped.
    static func arrayLiteral(_ values: [String]) -> String {
        var out = "{"
        for (index, value) in values.enumerated() {
            if index > 0 { out += "," }
            out += "\""
            for character in value.unicodeScalars {
                if character == "\\" || character == "\"" { out += "\\" }
                out.unicodeScalars.append(character)
            }
            out += "\""
        }
        return out + "}"
    }

    /// Inserts one sealed line with its columns and its event id.
    func insertLine(_ text: String, hash: String, event: Event) throws(StoreError) {
        try insertUnique("INSERT INTO event_ids (event_id, family, seq) VALUES ($1, $2, $3)",
                         [.text(event.id), .text(event.family), .int(event.seq)],
                         else: EventError("duplicate event id \(event.id)", kind: .duplicate))
        try sql("INSERT INTO events (family, seq, line, hash, event_id, type, actor, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                [.text(event.family), .int(event.seq), .text(text), .text(hash), .text(event.id), .text(event.type.rawValue),
                 .text(event.actor), .text(event.at.rfc3339)])
    }

    /// An insert whose unique violation is the rule `refusal` (another family took the id).
    func insertUnique(_ text: String, _ values: [PostgresConnection.Value], else refusal: EventError) throws(StoreError) {
        do throws(PostgresConnection.Failure) {
            try db.run(text, values)
        } catch {
            if error.isUniqueViolation { throw .rejected(refusal) }
            throw .io(path: db.display, message: "PostgreSQL: \(error.message)")
        }
    }

    /// The event a stored line holds.
    static func event(in line: String) -> Event? {
        // Read alone: only its shape matters here (the line was decided when it was written).
        let bytes = Array(line.utf8)
        let prepared = bytes.withUnsafeBufferPointer { PreparedLine($0, hashing: false) }
        switch prepared.content {
        case .event: return prepared.event
        case .draft(let draft, .success(let payload)):
            return Event(seq: draft.seq, id: draft.id, at: draft.at, actor: draft.actor, family: draft.family, payload: payload, prev: draft.prev)
        default: return nil
        }
    }
}
