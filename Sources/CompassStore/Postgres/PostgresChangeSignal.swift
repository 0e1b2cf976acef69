import CompassCore

/// A PostgreSQL store's change signal: the families of lines committed since the last read,
/// on a connection of its own that `LISTEN`s. It starts at the store's horizon and reads
/// family ids only (no line, no fold), as ``PostgresCursor`` reads lines: below the oldest
/// running transaction, so no committed line is passed over.
struct PostgresChangeSignal: FamilyChangeSignal {
    private let backend: PostgresLogBackend
    private var lastTx: String
    private var lastPosition: Int64
    private var erasures: Int64

    init(backend: PostgresLogBackend) throws(StoreError) {
        self.backend = backend
        backend.lock.lock()
        defer { backend.lock.unlock() }
        erasures = Int64(try backend.sql("SELECT value FROM compass_meta WHERE key = 'erasures'").rows.first?[0] ?? "0") ?? 0
        let horizon = UInt64(try PostgresCursor.horizon(backend)) ?? 0
        // Every row of a transaction below the horizon is already there: only later ones count.
        lastTx = horizon > 0 ? String(horizon - 1) : "0"
        lastPosition = horizon > 0 ? Int64.max : 0
    }

    mutating func changedFamilies() throws(StoreError) -> Set<String>? {
        backend.lock.lock()
        defer { backend.lock.unlock() }
        let generation = Int64(try backend.sql("SELECT value FROM compass_meta WHERE key = 'erasures'").rows.first?[0] ?? "0") ?? 0
        let rows = try backend.sql("""
            SELECT tx::text, position, family FROM events
            WHERE (tx, position) > ($1::xid8, $2::bigint) AND tx < $3::xid8
            ORDER BY tx, position
            """, [.text(lastTx), .int(lastPosition), .text(try PostgresCursor.horizon(backend))])
        var families: Set<String> = []
        for row in rows.rows {
            guard let tx = row[0], let position = row[1].flatMap({ Int64($0) }), let family = row[2] else { continue }
            lastTx = tx
            lastPosition = position
            families.insert(family)
        }
        if generation != erasures {
            erasures = generation
            return nil  // an erasure rewrote a family's lines: any observation may read anew
        }
        return families
    }

    func wait(upTo timeout: Duration) -> Bool { backend.waitForNotification(upTo: timeout) }
}
