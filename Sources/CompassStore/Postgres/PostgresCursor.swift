import CompassCore

/// Reads a PostgreSQL store in its order, by snapshots: each poll reads the lines of every
/// transaction that ended since the snapshot of the poll before (those its snapshot saw still
/// running or not yet begun), so a line committed out of transaction order is never passed
/// over, and none waits for an older transaction still running, here or in any other
/// database of the cluster.
///
/// Transaction ids do not follow a family's `seq` order (writers waiting for a family's row
/// are woken together, and the one that wins need not be the first that asked), so a line
/// can come before its family's previous line; each family's lines are held until they are
/// contiguous, then folded in `seq` order. A line read twice (its transaction ended between a
/// family's first read and the snapshot taken before it) is skipped by its `seq`.
struct PostgresCursor: LogCursor {
    let backend: PostgresLogBackend
    /// The snapshot of the last read: every line of a transaction it saw as ended has been read
    /// (nil: nothing read yet).
    private var seen: String?
    private var erasures: Int64?
    /// Lines read ahead of their family's previous line, by family and `seq`.
    private var pending: [String: [Int64: String]] = [:]
    /// The families this cursor reads (nil: every family). A view's first read follows only
    /// its viewer's family, so it costs that family, not the store.
    private var following: Set<String>?
    /// The families it reads for good (nil: it starts from every family, or from none when
    /// its first read is a view's, and widens as reads ask): a viewer's feed reads their
    /// family alone, after an erasure too.
    private let scope: Set<String>?

    init(backend: PostgresLogBackend, families: Set<String>? = nil) {
        self.backend = backend
        following = families
        scope = families
    }

    mutating func firstRead(snapshots: SnapshotPolicy?, scope: ReplayScope, progress: ReadProgress?) throws(StoreError) -> Replayer? {
        guard erasures == nil, case .familyOf(let user) = scope else { return nil }
        // The snapshot is taken before the family is read: every line it saw is in that read,
        // and lines of transactions that ended after it come in later polls. No query of
        // `events` for its newest row: that made an app's first read 440 ms on a store of 2M
        // lines just after a bulk import (bench/results.md).
        backend.lock.lock()
        let now = try backend.sql("SELECT value FROM compass_meta WHERE key = 'erasures'").rows.first?[0]
        seen = try Self.snapshot(backend)
        backend.lock.unlock()
        erasures = now.flatMap { Int64($0) } ?? 0
        following = []
        // The viewer's family from its snapshot, then its newer lines.
        guard let family = try backend.family(of: user) else { return Replayer(problems: .summary) }
        let replayer = try backend.familyReplay(family)
        following = [family]
        return replayer
    }

    mutating func include(_ scope: ReplayScope, into replayer: inout Replayer) throws(StoreError) {
        guard let followed = following else { return }
        backend.lock.lock()
        defer { backend.lock.unlock() }
        switch scope {
        case .familyOf(let user):
            guard let family = try backend.sql("SELECT family FROM users WHERE user_id = $1", [.text(user)]).rows.first?[0] ?? nil,
                  !followed.contains(family) else { return }
            replayer.consume(bytes: try backend.lines("SELECT line FROM events WHERE family = $1 AND seq > $2 ORDER BY seq",
                                                      [.text(family), .int(replayer.streams.version(of: family))]).bytes)
            following?.insert(family)
        default:
            // Every family now: those not followed yet are read whole, then all are followed.
            replayer.consume(bytes: try backend.lines("SELECT line FROM events WHERE NOT (family = ANY($1::text[])) ORDER BY family, seq",
                                                      [.text(Self.array(followed))]).bytes)
            following = nil
        }
    }

    /// The server's snapshot now, as text: which transactions have ended (read on its own
    /// before a read that must see at least what it saw).
    static func snapshot(_ backend: PostgresLogBackend) throws(StoreError) -> String? {
        try backend.sql("SELECT pg_current_snapshot()::text").rows.first?[0] ?? nil
    }

    /// The lines of transactions that had not ended in the snapshot `$1` (every line when `$1`
    /// is null) that pass `condition`, read in one statement with what frames them: every row
    /// starts with the statement's own snapshot and the store's erasure generation (one row with
    /// nulls after those when no line is new), then `columns` of `e` (the row of `events`).
    /// Everything before the oldest transaction `$1` saw running is skipped by the `(tx,
    /// position)` index.
    static func sinceSnapshot(_ columns: String, where condition: String = "true") -> String {
        """
        SELECT s.now::text, s.erasures, \(columns)
        FROM (SELECT pg_current_snapshot() AS now, (SELECT value FROM compass_meta WHERE key = 'erasures') AS erasures) s
        LEFT JOIN LATERAL (
            SELECT * FROM events
            WHERE ($1::pg_snapshot IS NULL
                   OR (tx >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(tx, $1::pg_snapshot)))
              AND \(condition)
        ) e ON true
        ORDER BY e.tx, e.position
        """
    }

    /// A text array literal of family ids.
    static func array(_ families: Set<String>) -> String { PostgresLogBackend.arrayLiteral(families.sorted()) }

    mutating func poll(into replayer: inout Replayer) throws(StoreError) -> LogPoll {
        backend.lock.lock()
        defer { backend.lock.unlock() }
        // A cursor that follows some families reads only theirs (the others are read whole if
        // a later read asks for them). The generation is read in the same statement: the lines
        // come from the store as that generation left it.
        let rows = try backend.sql(Self.sinceSnapshot("e.family, e.seq, e.line", where: "($2::text[] IS NULL OR family = ANY($2::text[]))"),
                                   [seen.map { .text($0) } ?? .null, following.map { .text(Self.array($0)) } ?? .null])
        let generation = rows.rows.first?[1].flatMap { Int64($0) } ?? 0
        if let erasures, erasures != generation {
            // An erasure rewrote lines already read: the caller reads the store again.
            self.erasures = generation
            seen = nil
            pending = [:]
            following = scope
            return .replaced
        }
        erasures = generation
        var touched: Set<String> = []
        for row in rows.rows {
            if let now = row[0] { seen = now }
            guard let family = row[2], let seq = row[3].flatMap({ Int64($0) }), let line = row[4] else { continue }
            // A line this process already folded (its own append read its family first).
            if seq <= replayer.streams.version(of: family) { continue }
            if let following, !following.contains(family) { continue }
            pending[family, default: [:]][seq] = line
            touched.insert(family)
        }
        for family in touched.sorted() {
            while let line = pending[family]?.removeValue(forKey: replayer.streams.version(of: family) + 1) {
                let bytes = Array(line.utf8)
                bytes.withUnsafeBufferPointer { _ = replayer.consume(line: $0, terminated: true) }
            }
            if pending[family]?.isEmpty == true { pending[family] = nil }
        }
        return .read
    }
}
