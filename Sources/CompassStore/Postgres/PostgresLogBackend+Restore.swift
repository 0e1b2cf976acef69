import CompassCore

extension PostgresLogBackend {
    /// Restores whole family streams byte for byte (`import --restore`) in one transaction.
    ///
    /// The lines are checked alone (``StreamRestore``: their families are new, so nothing of
    /// the store decides them but the ids other families hold, which the tables' keys refuse);
    /// then each family's row is created — refused if the family has one, so two restores of
    /// a family never both win — and the lines stored with their columns, the event ids the
    /// replay took (not the erased lines': those are free), the members they add and their
    /// blobs. A refusal or a failure rolls all of it back.
    func restore(_ input: [UInt8], blobs: [StagedAttachment], refused: [Problem]) throws(StoreError) -> ImportSummary {
        var replayer = Replayer(problems: .summary)
        let problems = StreamRestore.problems(input, after: &replayer, and: refused)
        guard problems.isEmpty else { throw .rejectedLines(problems) }
        // Each line's columns, as an append stores them.
        var rows: [(draft: EventDraft, text: String, hash: String, takesId: Bool, joins: String?)] = []
        var heads: [String: (seq: Int64, hash: String, line: Int)] = [:]
        input.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            LineSplitter.completeLines(in: buffer, from: 0, to: buffer.count, into: &ranges)
            for (index, range) in ranges.enumerated() {
                let line = UnsafeBufferPointer(rebasing: buffer[range])
                // Every line decoded (the check found no problem): a draft, its payload built
                // but for an `Erased` record.
                guard case .draft(let draft, let payload) = PreparedLine(line, hashing: false).content else { continue }
                var joins: String?
                if case .success(.memberJoined(let joined)) = payload { joins = joined.userId }
                let hash = SHA256.hex(line)
                rows.append((draft, String(decoding: line, as: UTF8.self), hash, draft.type != Rules.erasedType, joins))
                if heads[draft.family] == nil { heads[draft.family] = (draft.seq, hash, index + 1) }
                heads[draft.family]?.seq = draft.seq
                heads[draft.family]?.hash = hash
            }
        }
        lock.lock()
        defer { lock.unlock() }
        try transaction { () throws(StoreError) in
            for (family, head) in heads.sorted(by: { $0.value.line < $1.value.line }) {
                let created = try sql("INSERT INTO families (family, version, head) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING family",
                                      [.text(family), .int(head.seq), .text(head.hash)])
                guard created.count == 1 else {
                    throw .rejectedLines([Problem(line: head.line, message: "family \(family) already has lines in this store: --restore takes only whole families it does not have")])
                }
            }
            for row in rows {
                if row.takesId {
                    try insertUnique("INSERT INTO event_ids (event_id, family, seq) VALUES ($1, $2, $3)",
                                     [.text(row.draft.id), .text(row.draft.family), .int(row.draft.seq)],
                                     else: EventError("duplicate event id \(row.draft.id)", kind: .duplicate))
                }
                try sql("INSERT INTO events (family, seq, line, hash, event_id, type, actor, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                        [.text(row.draft.family), .int(row.draft.seq), .text(row.text), .text(row.hash), .text(row.draft.id),
                         .text(row.draft.type), .text(row.draft.actor), .text(row.draft.at.rfc3339)])
                if let user = row.joins {
                    try insertUnique("INSERT INTO users (user_id, family) VALUES ($1, $2)", [.text(user), .text(row.draft.family)],
                                     else: EventError("User \(user) is already a member"))
                }
            }
            for blob in blobs {
                try sql("INSERT INTO blobs (sha256, bytes) VALUES ($1, $2) ON CONFLICT DO NOTHING", [.text(blob.sha256), .bytes(blob.bytes)])
            }
            for family in heads.keys.sorted() { try notifyInTransaction(family) }
        }
        return ImportSummary(restored: input)
    }
}
