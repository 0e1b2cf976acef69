import CompassCore

/// A PostgreSQL store's change signal: the families of lines committed since the last read,
/// on a connection of its own that `LISTEN`s. It reads family ids only (no line, no fold), by
/// snapshots as ``PostgresCursor`` reads lines, so no committed line is passed over.
struct PostgresChangeSignal: FamilyChangeSignal {
    private let backend: PostgresLogBackend
    /// The snapshot of the last read (every line of a transaction it saw as ended is counted).
    private var seen: String?
    private var erasures: Int64

    init(backend: PostgresLogBackend) throws(StoreError) {
        self.backend = backend
        backend.lock.lock()
        defer { backend.lock.unlock() }
        erasures = Int64(try backend.sql("SELECT value FROM compass_meta WHERE key = 'erasures'").rows.first?[0] ?? "0") ?? 0
        // Every line of a transaction that has ended is already there: only later ones count.
        seen = try PostgresCursor.snapshot(backend)
    }

    mutating func changedFamilies() throws(StoreError) -> Set<String>? {
        backend.lock.lock()
        defer { backend.lock.unlock() }
        let rows = try backend.sql(PostgresCursor.sinceSnapshot("e.family"), [seen.map { .text($0) } ?? .null])
        let generation = rows.rows.first?[1].flatMap { Int64($0) } ?? 0
        var families: Set<String> = []
        for row in rows.rows {
            if let now = row[0] { seen = now }
            if let family = row[2] { families.insert(family) }
        }
        if generation != erasures {
            erasures = generation
            return nil  // an erasure rewrote a family's lines: any observation may read anew
        }
        return families
    }

    func wait(upTo timeout: Duration) -> Bool { backend.waitForNotification(upTo: timeout) }
}
