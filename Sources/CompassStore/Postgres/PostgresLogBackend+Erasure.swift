import CompassCore

extension PostgresLogBackend {
    /// Erases a member's or a family's data (SPEC §5) in one transaction that locks the
    /// family's row: the changed lines rewritten, `ErasureRecorded` appended, the erased event
    /// ids and members freed, blobs no other family names deleted, the erasure generation
    /// bumped (every cursor reads the store again). Other families' rows are not touched.
    func erase(_ target: ErasureTarget, requester: String, at: Timestamp, eventId: String,
               dryRun: Bool) throws(StoreError) -> ErasureOutcome {
        guard let family = try family(of: requester) else { throw .rejected(EventError("Unknown user \(requester)", kind: .notFound)) }
        for _ in 0..<50 {
            let (lines, count) = try familyLines(family)
            let plan: ErasurePlan
            do throws(EventError) {
                plan = try ErasurePlanner.plan(log: lines, target: target, requester: requester, at: at, eventId: eventId)
            } catch {
                throw .rejected(error)
            }
            if dryRun {
                return ErasureOutcome(plan: plan, tornFragments: 0, blobs: plan.orphanedBlobs.count, snapshot: false, committed: false)
            }
            let old = lines.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
            let new = plan.newLog.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
            lock.lock()
            defer { lock.unlock() }
            let removed: Int? = try transaction { () throws(StoreError) -> Int? in
                let row = try sql("SELECT version FROM families WHERE family = $1 FOR UPDATE", [.text(family)])
                guard row.rows.first?[0].flatMap({ Int64($0) }) == Int64(count) else { return nil }  // changed: plan again
                // One statement each (the transaction holds rows locked while it runs): the
                // changed lines, the freed event ids, the freed members.
                // An erased line's row says what its record says (`Erased`, actor `-`): the
                // erased member's id is not left in the row's columns either.
                var seqs: [String] = [], texts: [String] = [], hashes: [String] = [], erased: [String] = []
                let erasedLines = Set(plan.erasedLines)
                for (index, line) in new.enumerated() where index < old.count && line != old[index] {
                    seqs.append(String(index + 1))
                    texts.append(line)
                    hashes.append(SHA256.hex(Array(line.utf8)))
                    erased.append(erasedLines.contains(index + 1) ? "true" : "false")
                }
                try sql("""
                    UPDATE events e SET line = u.line, hash = u.hash,
                      type = CASE WHEN u.erased THEN 'Erased' ELSE e.type END,
                      actor = CASE WHEN u.erased THEN '-' ELSE e.actor END
                    FROM unnest($2::bigint[], $3::text[], $4::text[], $5::boolean[]) AS u(seq, line, hash, erased)
                    WHERE e.family = $1 AND e.seq = u.seq
                    """, [.text(family), .text(Self.arrayLiteral(seqs)), .text(Self.arrayLiteral(texts)), .text(Self.arrayLiteral(hashes)),
                          .text(Self.arrayLiteral(erased))])
                let freed = plan.erasedLines.compactMap { Self.event(in: old[$0 - 1])?.id }
                try sql("DELETE FROM event_ids WHERE family = $1 AND event_id = ANY($2::text[])", [.text(family), .text(Self.arrayLiteral(freed))])
                try sql("DELETE FROM users WHERE family = $1 AND user_id = ANY($2::text[])",
                        [.text(family), .text(Self.arrayLiteral(plan.erasedUsers.sorted()))])
                try insertLine(new.last!, hash: plan.newHead, event: plan.record)
                try sql("UPDATE families SET version = $2, head = $3 WHERE family = $1",
                        [.text(family), .int(plan.record.seq), .text(plan.newHead)])
                try sql("UPDATE compass_meta SET value = value + 1 WHERE key = 'erasures'")
                // The family's snapshot holds the erased data (a snapshot writer holding the old
                // generation's row waits for this transaction, then finds it moved).
                try sql("DELETE FROM family_snapshots WHERE family = $1", [.text(family)])
                try notifyInTransaction(family)
                var removed = 0
                for sha in plan.orphanedBlobs {
                    // Content-addressed: kept while another family's line still names the bytes.
                    removed += try sql("DELETE FROM blobs WHERE sha256 = $1 AND NOT EXISTS (SELECT 1 FROM events WHERE family <> $2 AND strpos(line, $1) > 0) RETURNING sha256",
                                       [.text(sha), .text(family)]).count
                }
                return removed
            }
            if let removed {
                return ErasureOutcome(plan: plan, tornFragments: 0, blobs: removed, snapshot: false, committed: true)
            }
        }
        throw .conflict("Conflict: the family kept changing while the erasure was planned; try again")
    }
}
