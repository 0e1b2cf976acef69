import CompassCore

extension PostgresLogBackend {
    /// Lines a family's read folds past its snapshot before it writes a new one.
    static let snapshotAfterLines = 1000

    /// One family replayed: from its snapshot (``PostgresSchema`` version 3) when one was made
    /// at the current erasure generation, then its lines after the snapshot's version; a read
    /// that folded ``snapshotAfterLines`` lines or more writes a new snapshot (a cache: a
    /// failure to write it is ignored; a standby, read-only, writes none). A snapshot is made
    /// only of a problem-free read, so a read that lists its problems (`retention`) lists the
    /// same from one.
    ///
    /// A snapshot holds the family's data, so an erasure must leave none of the erased data
    /// in one: the erasure deletes its family's snapshots in its transaction, and a snapshot is
    /// written only if the erasure generation it was read at is still current, checked under
    /// a share lock on that generation's row (an erasure bumps it first, so the write waits
    /// for the erasure and then finds the generation moved: nothing is written).
    func familyReplay(_ family: String, problems retention: ProblemRetention = .summary) throws(StoreError) -> Replayer {
        lock.lock()
        defer { lock.unlock() }
        let generation = Int64(try sql("SELECT value FROM compass_meta WHERE key = 'erasures'").rows.first?[0] ?? "0") ?? 0
        var replayer = Replayer(problems: retention)
        if let bytes = try bytes("SELECT bytes FROM family_snapshots WHERE family = $1 AND generation = $2", [.text(family), .int(generation)]),
           let snapshot = SnapshotCodec.decode(bytes), snapshot.streams[family: family] != nil {
            replayer = Replayer(resuming: snapshot, problems: retention)
        }
        let from = replayer.streams.version(of: family)
        let newer = try lines("SELECT line FROM events WHERE family = $1 AND seq > $2 ORDER BY seq", [.text(family), .int(from)])
        replayer.consume(bytes: newer.bytes)
        if newer.count >= Self.snapshotAfterLines, replayer.problemSummary.count == 0, !isStandby {
            _ = try? sql("""
                INSERT INTO family_snapshots (family, version, generation, bytes)
                SELECT $1, $2, $3, $4 FROM compass_meta WHERE key = 'erasures' AND value = $3 FOR SHARE
                ON CONFLICT (family) DO UPDATE SET version = EXCLUDED.version, generation = EXCLUDED.generation, bytes = EXCLUDED.bytes
                WHERE family_snapshots.generation <> EXCLUDED.generation OR family_snapshots.version < EXCLUDED.version
                """, [.text(family), .int(replayer.streams.version(of: family)), .int(generation),
                      .bytes(SnapshotCodec.encode(replayer.snapshot))])
        }
        return replayer
    }
}
