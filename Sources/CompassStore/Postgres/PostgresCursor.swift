import CompassCore

/// Reads a PostgreSQL store in its order, only below the oldest running transaction's
/// horizon: a line whose transaction may still commit before others that already did is
/// never passed over (the gap that reading by sequence value alone would leave).
///
/// Transaction ids do not follow a family's `seq` order (writers waiting for a family's row
/// are woken together, and the one that wins need not be the first that asked), so a line
/// can come before its family's previous line; each family's lines are held until they are
/// contiguous, then folded in `seq` order.
struct PostgresCursor: LogCursor {
    let backend: PostgresLogBackend
    private var lastTx = "0"
    private var lastPosition: Int64 = 0
    private var erasures: Int64?
    /// Lines read ahead of their family's previous line, by family and `seq`.
    private var pending: [String: [Int64: String]] = [:]
    /// The families this cursor reads (nil: every family). A view's first read follows only
    /// its viewer's family, so it costs that family, not the store.
    private var following: Set<String>?

    init(backend: PostgresLogBackend) { self.backend = backend }

    mutating func firstRead(snapshots: SnapshotPolicy?, scope: ReplayScope, progress: ReadProgress?) throws(StoreError) -> Replayer? {
        guard erasures == nil, case .familyOf = scope else { return nil }
        // Start below the oldest running transaction: every row of an older one is visible
        // to the family's read below; rows of newer ones come in later polls (a line the
        // family's read already folded is skipped by its `seq`). No query of `events` for its
        // newest row below the horizon: that made an app's first read 440 ms on a store of
        // 2M lines just after a bulk import (bench/results.md).
        backend.lock.lock()
        let now = try backend.sql("SELECT value FROM compass_meta WHERE key = 'erasures'").rows.first?[0]
        let horizon = try Self.horizon(backend)
        backend.lock.unlock()
        erasures = now.flatMap { Int64($0) } ?? 0
        if let below = UInt64(horizon), below > 0 {
            lastTx = String(below - 1)
            lastPosition = Int64.max
        }
        following = []
        var replayer = Replayer(problems: .summary)
        if case .familyOf(let user) = scope {
            // The viewer's family from its snapshot, then its newer lines.
            guard let family = try backend.family(of: user) else { return replayer }
            replayer = try backend.familyReplay(family)
            following = [family]
            return replayer
        }
        try include(scope, into: &replayer)
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

    /// The oldest transaction still running: every row of a transaction below it is committed
    /// (or never will be) and visible to any later statement. Read on its own and passed as a
    /// parameter, so the `(tx, position)` index serves the read (a function call in the
    /// condition would not).
    static func horizon(_ backend: PostgresLogBackend) throws(StoreError) -> String {
        try backend.sql("SELECT pg_snapshot_xmin(pg_current_snapshot())::text").rows.first?[0] ?? "0"
    }

    /// A text array literal of family ids.
    static func array(_ families: Set<String>) -> String { PostgresLogBackend.arrayLiteral(families.sorted()) }

    mutating func poll(into replayer: inout Replayer) throws(StoreError) -> LogPoll {
        backend.lock.lock()
        defer { backend.lock.unlock() }
        let generation = Int64(try backend.sql("SELECT value FROM compass_meta WHERE key = 'erasures'").rows.first?[0] ?? "0") ?? 0
        if let erasures, erasures != generation {
            // An erasure rewrote lines already read: the caller reads the store again.
            self.erasures = generation
            lastTx = "0"
            lastPosition = 0
            pending = [:]
            following = nil
            return .replaced
        }
        erasures = generation
        // A cursor that follows some families reads only theirs (the others are read whole if
        // a later read asks for them).
        let rows = try backend.sql("""
            SELECT tx::text, position, family, seq, line FROM events
            WHERE (tx, position) > ($1::xid8, $2::bigint) AND tx < $3::xid8
              AND ($4::text[] IS NULL OR family = ANY($4::text[]))
            ORDER BY tx, position
            """, [.text(lastTx), .int(lastPosition), .text(try Self.horizon(backend)), following.map { .text(Self.array($0)) } ?? .null])
        var touched: Set<String> = []
        for row in rows.rows {
            guard let tx = row[0], let position = row[1].flatMap({ Int64($0) }), let family = row[2],
                  let seq = row[3].flatMap({ Int64($0) }), let line = row[4] else { continue }
            lastTx = tx
            lastPosition = position
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
