import CompassCore
import Dispatch

extension PostgresLogBackend {
    /// `import` a block at a time in one transaction (SPEC: all or nothing, across crashes):
    /// each block's families are locked and read, the block is filled, staged and decided with
    /// the one rule set against them and the blocks before it, then sealed and sent with
    /// `COPY` while the next block is decided and sealed (the server writes one block as this
    /// process works on the next). The import holds two blocks' lines and the state of the
    /// families it writes (without texts), never the file. Once any line is refused nothing
    /// more is sent, though every later line is still decided so each rejected one is
    /// reported; the transaction is then rolled back.
    ///
    /// A family's row is locked (`FOR UPDATE`) when a block first names it, and stays locked
    /// to the commit: no other writer moves a family the import decided against. Feeds see
    /// the import when it commits.
    func importLines(from source: inout some ImportSource, expectVersion: Int64?, progress: ReadProgress?) throws(StoreError) -> ImportSummary {
        lock.lock()
        defer { lock.unlock() }
        var run = ImportRun()
        do throws(StoreError) {
            try transaction { () throws(StoreError) in
                defer { run.sending?.wait() }  // nothing is sent once this returns
                while var block = try source.nextBlock() {
                    try importBlock(&block, from: &source, expectVersion: expectVersion, run: &run)
                }
                try run.finishSending()
                if !run.refused.isEmpty || !run.rejected.isEmpty {
                    throw StoreError.rejectedLines(ImportBlock.report(refused: run.refused, decided: run.rejected))
                }
                if let last = run.unsent {
                    run.unsent = nil
                    run.sending = BlockCopy(last, on: db)
                    try run.finishSending()
                }
                guard !run.heads.isEmpty else { return }
                let families = run.heads.keys.sorted()
                try sql("""
                    UPDATE families f SET version = u.version, head = u.head
                    FROM unnest($1::text[], $2::bigint[], $3::text[]) AS u(family, version, head) WHERE f.family = u.family
                    """, [.text(Self.arrayLiteral(families)), .text(Self.arrayLiteral(families.map { String(run.seqs[$0]!) })),
                          .text(Self.arrayLiteral(families.map { run.heads[$0]! }))])
                try notifyInTransaction(families[0])
            }
        } catch {
            // A connection lost during the commit: the import is there whole or not at all.
            guard !db.isUp, let first = run.firstEventId, try isCommittedAfterReconnecting(first) else { throw error }
        }
        return run.summary
    }

    /// One block of an import: its families locked and read, then decided and sent.
    private func importBlock(_ block: inout ImportBlock, from source: inout some ImportSource, expectVersion: Int64?,
                             run: inout ImportRun) throws(StoreError) {
        // The families the block names, by id or through its users and event ids (so the
        // rules refuse an id another family holds with the line's number, as on a file),
        // then those the lines that leave their family out are filled into.
        var named = BatchNames(families: [], users: [], eventIds: [])
        for (draft, payload) in zip(block.drafts, block.payloads) {
            if !draft.family.isEmpty { named.families.insert(draft.family) } else { named.users.insert(draft.actor) }
            if let joining = ImportFile.joiningUser(draft, payload) { named.users.insert(joining) }
            named.eventIds.insert(draft.id)
        }
        // The block before is sent while this one is decided; the connection is the send's
        // until it ends.
        if let unsent = run.unsent {
            run.unsent = nil
            run.sending = BlockCopy(unsent, on: db)
        }
        try lockAndRead(try unread(naming: named, run: &run), run: &run)
        try source.fill(&block, state: run.replayer.state)
        try lockAndRead(Set(block.drafts.map(\.family)).subtracting(run.loaded).subtracting(["_"]).sorted(), run: &run)
        if !block.attaching.isEmpty { try run.finishSending() }  // staging may read the store's blobs
        let staged = try source.stage(&block, state: run.replayer.state)
        run.refused += block.problems
        if let expectVersion {
            try block.checkVersion(expectVersion, expected: &run.expected, streams: run.replayer.streams)
        }
        let events: [Event]
        do throws(StoreError) {
            events = try StreamSealing.decide(taking: &block.drafts, against: &run.replayer, seqs: &run.seqs, sanitizing: true,
                                              lineNumbers: block.lineNumbers, prebuilt: &block.payloads)
        } catch {
            guard case .rejectedLines(let problems) = error else { throw error }
            run.rejected += problems
            try run.finishSending()
            return
        }
        // Once a line is refused the import sends nothing more (it will be rolled back).
        guard run.refused.isEmpty, run.rejected.isEmpty, !events.isEmpty else {
            try run.finishSending()
            return
        }
        for event in events where run.heads[event.family] == nil {
            run.heads[event.family] = run.replayer.streams[family: event.family]?.head.text ?? SHA256.emptyHex
        }
        // Sealed, and made into rows, while the block before is sent.
        let heads = run.heads
        let sealed = try BatchSealer.lines(of: events) { heads[$0]! }
        var unsent = UnsentBlock()
        for (index, event) in events.enumerated() {
            unsent.add(event, line: sealed.output[sealed.lines[index]], hash: sealed.hashes[index].hex)
            run.summary.add(family: event.family, seq: event.seq)
            run.replayer.advanceWritten(family: event.family, seq: event.seq, sealed: true, lineLength: sealed.lines[index].count,
                                        hash: sealed.hashes[index])
        }
        for (family, hash) in sealed.heads { run.heads[family] = hash }
        try run.finishSending()
        for blob in staged {
            try sql("INSERT INTO blobs (sha256, bytes) VALUES ($1, $2) ON CONFLICT DO NOTHING", [.text(blob.sha256), .bytes(blob.bytes)])
        }
        if run.firstEventId == nil { run.firstEventId = events.first?.id }
        run.unsent = unsent
    }

    /// The families `names` names that the import has not read yet: those its lines name,
    /// and those its users and event ids are in, asked on the import's own second connection
    /// (the block before is being sent on the first meanwhile; the import's own lines are in
    /// its replay, so what others committed is what this must find).
    private func unread(naming names: BatchNames, run: inout ImportRun) throws(StoreError) -> [String] {
        var found = names.families.subtracting(run.loaded)
        if !names.users.isEmpty || !names.eventIds.isEmpty {
            if run.lookup == nil { run.lookup = try PostgresConnection(address) }
            let rows: PostgresConnection.Rows
            do throws(PostgresConnection.Failure) {
                rows = try run.lookup!.run("""
                    SELECT u.family FROM unnest($1::text[]) AS n(id) JOIN users u ON u.user_id = n.id
                    UNION SELECT e.family FROM unnest($2::text[]) AS n(id) JOIN event_ids e ON e.event_id = n.id
                    """, [.text(Self.arrayLiteral(names.users.sorted())), .text(Self.arrayLiteral(names.eventIds.sorted()))])
            } catch {
                throw .io(path: db.display, message: "PostgreSQL: \(error.message)")
            }
            for row in rows.rows { if let family = row[0], !run.loaded.contains(family) { found.insert(family) } }
        }
        return found.sorted()
    }

    /// Locks families' rows in id order (a new family's is made) once the block before is
    /// sent, and folds their lines into the import's replay.
    private func lockAndRead(_ families: [String], run: inout ImportRun) throws(StoreError) {
        guard !families.isEmpty else { return }
        try run.finishSending()
        let list = Self.arrayLiteral(families)
        try sql("INSERT INTO families (family) SELECT unnest($1::text[]) ORDER BY 1 ON CONFLICT DO NOTHING", [.text(list)])
        try sql("SELECT family FROM families WHERE family = ANY($1::text[]) ORDER BY family FOR UPDATE", [.text(list)])
        run.replayer.consume(bytes: try lines("SELECT line FROM events WHERE family = ANY($1::text[]) ORDER BY family, seq",
                                              [.text(list)]).bytes)
        run.loaded.formUnion(families)
    }

    /// Whether an event id is in the store, asked on a new connection (the one that lost the
    /// answer to a commit is gone); confirmed durable when it is.
    private func isCommittedAfterReconnecting(_ eventId: String) throws(StoreError) -> Bool {
        guard try sql("SELECT 1 FROM event_ids WHERE event_id = $1", [.text(eventId)]).count == 1 else { return false }
        try confirmDurable()
        return true
    }
}

/// What an import on PostgreSQL has done so far.
private struct ImportRun {
    /// The families the import has read (and locked), folded with its decided lines (but not
    /// their texts: ``Replayer/decidesOnly``).
    var replayer = { var replayer = Replayer(problems: .summary); replayer.decidesOnly = true; return replayer }()
    var loaded: Set<String> = []
    /// Each family's last `seq` and head written by the import.
    var seqs: [String: Int64] = [:]
    var heads: [String: String] = [:]
    var refused: [Problem] = []
    var rejected: [Problem] = []
    var expected: (family: String, version: Int64)?
    var summary = ImportSummary()
    /// The first event sent: after a lost commit, whether it is stored says whether the import is.
    var firstEventId: String?
    /// The last decided block's rows, sent while the next block is decided.
    var unsent: UnsentBlock?
    /// The block being sent, on the connection the import holds.
    var sending: BlockCopy?
    /// A second connection, for what the import asks while a block is being sent.
    var lookup: PostgresConnection?

    /// Waits for the block being sent: the connection is free again.
    mutating func finishSending() throws(StoreError) {
        guard let sending else { return }
        self.sending = nil
        try sending.finish()
    }
}

/// A decided and sealed block's rows, for `COPY`.
private struct UnsentBlock {
    var events = CopyRows()
    var eventIds = CopyRows()
    var users = CopyRows()
    /// The users the block's lines add (a unique violation of `users` names the first).
    var joined: [String] = []

    /// Adds an event's rows: its line (sealed, with its hash), its id, and the member it adds.
    mutating func add(_ event: Event, line: ArraySlice<UInt8>, hash: String) {
        events.field(event.family); events.field(event.seq); events.field(bytes: line); events.field(hash); events.field(event.id)
        events.field(event.type.rawValue); events.field(event.actor); events.field(event.at.rfc3339)
        events.endRow()
        eventIds.field(event.id); eventIds.field(event.family); eventIds.field(event.seq)
        eventIds.endRow()
        if case .memberJoined(let member) = event.payload {
            users.field(member.userId); users.field(event.family)
            users.endRow()
            joined.append(member.userId)
        }
    }
}

/// One block's rows sent with `COPY` on another thread, while the thread that decided them
/// decides and seals the next block without touching the connection.
private final class BlockCopy: @unchecked Sendable {
    private let done = DispatchGroup()
    // Set by the sending thread before `done` is left, read only after waiting on it.
    private var result: Result<Void, StoreError> = .success(())

    init(_ block: UnsentBlock, on db: PostgresConnection) {
        let job = Job(block: block, db: db)
        done.enter()
        DispatchQueue.global().async { [self] in
            result = job.run()
            done.leave()
        }
    }

    /// Waits for the send to end, whatever its outcome.
    func wait() { done.wait() }

    /// Waits for the send; throws what stopped it.
    func finish() throws(StoreError) {
        done.wait()
        try result.get()
    }

    /// The send's inputs, owned by the sending thread while it runs.
    private struct Job: @unchecked Sendable {
        let block: UnsentBlock
        let db: PostgresConnection

        func run() -> Result<Void, StoreError> {
            Result { () throws(StoreError) in
                try copy("COPY event_ids (event_id, family, seq) FROM STDIN", block.eventIds)
                try copy("COPY events (family, seq, line, hash, event_id, type, actor, at) FROM STDIN", block.events)
                if !block.users.isEmpty { try copy("COPY users (user_id, family) FROM STDIN", block.users) }
            }
        }

        /// Sends `rows`; a unique violation is the rule it broke (another writer took an id
        /// of the import meanwhile).
        private func copy(_ statement: String, _ rows: CopyRows) throws(StoreError) {
            do throws(PostgresConnection.Failure) {
                try db.copy(statement, rows.bytes)
            } catch {
                throw PostgresLogBackend.refusal(error, users: block.joined, display: db.display)
            }
        }
    }
}
