import CompassMachine

/// Every interaction a family logged, deleted ones included (their ids stay used): the
/// records in logging order, found by id through a small id → position index.
///
/// The records are stored compactly: each as a ``StoredInteraction`` of plain values, with its
/// texts (ids, subject, content, names) end to end in one ``TextArena`` per family. A record
/// costs its texts' bytes and about 140 bytes more, and holds no reference count; the
/// `InteractionRecord` a caller reads is built from it on demand (``records``, ``subscript(_:)``).
/// The index is keyed by the id's hash, which replay works out while the line is prepared
/// (``PositionIndex``).
package struct InteractionTable: Equatable, Sendable {
    private var index = PositionIndex()
    private var rows: [StoredInteraction] = []
    private var texts = TextArena()
    /// The attachment lists of the rows that have one (a row holds 1 + its list's index).
    private var attachmentLists: [[Attachment]] = []
    /// The rows whose attachment list names a blob (an attachment with a SHA-256), in order:
    /// what ``forEachHashedAttachmentList(_:)`` walks instead of every row.
    private var hashedListRows: [Int32] = []
    /// Interest answers that are not six (only an app folding its own unchecked events makes
    /// them: the rules refuse any other count), by row.
    private var irregularAnswers: [Int: [Bool]] = [:]
    /// Whether a subject or content that is a plain string in its line (one the replay stages)
    /// was copied in rather than left in the log: then a snapshot section holds the texts'
    /// bytes; else it keeps each text left in the log as its range there (``SnapshotCodec``).
    /// Set by a replay that holds its texts, by a read back, and by a section of bytes decoded.
    private(set) var textsCopied = false

    package init() {}

    /// The records in logging order, each built when it is read.
    package var records: Records { Records(table: self) }

    /// The interaction with this id, live or deleted.
    package subscript(id: String) -> InteractionRecord? {
        position(of: id, hash: id.hashValue).map(record(at:))
    }

    /// Whether an interaction with this id was ever logged.
    package func contains(_ id: String) -> Bool { contains(id, hash: id.hashValue) }

    /// ``contains(_:)`` with the id's `hashValue` worked out ahead.
    func contains(_ id: String, hash: Int) -> Bool { position(of: id, hash: hash) != nil }

    /// How many.
    package var count: Int { rows.count }

    /// Bytes of text held (ids, subjects, contents, names).
    var textBytes: Int { texts.count }

    /// The ids in logging order.
    package var ids: [String] { rows.map { texts.string($0.interactionId) } }

    /// Whether some subject or content is still in the log (a replay that left them there).
    var holdsTextsInLog: Bool { rows.contains { $0.subject.isInLog || $0.content.isInLog } }

    /// Reads every text left in the log back into the table: `read` fills its buffer's
    /// first `range.count` bytes with the log's bytes in `range` (growing it as needed), or
    /// says it cannot. A row's subject and content, in the same line, come in one read. False,
    /// with the table left as it was in part, when one cannot be read whole.
    mutating func readTextsBack(_ read: (_ range: Range<Int>, _ buffer: inout [UInt8]) -> Bool) -> Bool {
        var buffer: [UInt8] = []
        textsCopied = true
        for position in rows.indices {
            guard let range = logRange(ofRow: position) else { continue }
            guard range.count <= Replayer.maxLineBytes, read(range, &buffer) else { return false }
            takeTextsBack(ofRow: position, from: buffer, at: range.lowerBound)
        }
        return true
    }

    /// ``readTextsBack(_:)`` of many tables at once (every family of a snapshot read whole), in
    /// the log's order: the log is read once, a block of `blockSize` bytes (or a longer row) at a
    /// time, instead of once per row (700,000 reads for the 1M log took twice a cold replay's time).
    static func readTextsBack(_ tables: inout [InteractionTable], blockSize: Int = 4 << 20,
                              _ read: (_ range: Range<Int>, _ buffer: inout [UInt8]) -> Bool) -> Bool {
        var wanted: [(range: Range<Int>, table: Int, row: Int)] = []
        for table in tables.indices {
            tables[table].textsCopied = true
            for row in tables[table].rows.indices {
                if let range = tables[table].logRange(ofRow: row) { wanted.append((range, table, row)) }
            }
        }
        wanted.sort { $0.range.lowerBound < $1.range.lowerBound }
        let end = wanted.map(\.range.upperBound).max() ?? 0
        var buffer: [UInt8] = []
        var block = 0..<0
        for (range, table, row) in wanted {
            guard range.count <= Replayer.maxLineBytes else { return false }
            if !block.contains(range.lowerBound) || range.upperBound > block.upperBound {
                block = range.lowerBound..<max(range.upperBound, min(end, range.lowerBound + blockSize))
                guard read(block, &buffer) else { return false }
            }
            tables[table].takeTextsBack(ofRow: row, from: buffer, at: block.lowerBound)
        }
        return true
    }

    /// Copies a row's subject and content left in the log into the arena from `bytes`, the
    /// log's bytes from offset `offset` on, which hold them (checked as a snapshot's texts are).
    private mutating func takeTextsBack(ofRow position: Int, from bytes: [UInt8], at offset: Int) {
        func readBack(_ span: TextSpan) -> TextSpan {
            guard span.isInLog else { return span }
            let range = span.logRange
            return bytes.withUnsafeBufferPointer {
                texts.add(decoding: UnsafeBufferPointer(rebasing: $0[(range.lowerBound - offset)..<(range.upperBound - offset)]))
            }
        }
        rows[position].subject = readBack(rows[position].subject)
        rows[position].content = readBack(rows[position].content)
    }

    mutating func reserveCapacity(_ count: Int) {
        index.reserveCapacity(count)
        rows.reserveCapacity(count)
    }

    /// Adds a newly logged interaction (its id must be new).
    mutating func append(_ record: consuming InteractionRecord) {
        append(record, hash: record.logged.interactionId.hashValue)
    }

    /// ``append(_:)`` with the id's `hashValue` worked out ahead.
    mutating func append(_ record: consuming InteractionRecord, hash: Int) {
        let deletion = record.deletion
        append(eventId: record.eventId, seq: record.seq, at: record.at, loggedBy: record.loggedBy, logged: record.logged, hash: hash)
        if let deletion { delete(at: rows.count - 1, deletion) }
    }

    /// Adds a newly logged interaction from the parts of its event (its id must be new); a
    /// text staged outside the event (``TextStaging``) is taken from `staged`, and the event id
    /// is spelled from `idKey` when it was left out of the event (``LineKeys/idInKey``).
    mutating func append(eventId: String, idKey: EventIdKey? = nil, seq: Int64, at: Timestamp, loggedBy: String, logged: borrowing InteractionLogged, hash: Int,
                         staged: StagedBytes? = nil) {
        let position = rows.count
        index.insert(hash: hash, position: position)
        var attachments: Int32 = 0
        if let list = logged.attachments {
            attachmentLists.append(list)
            attachments = Int32(attachmentLists.count)
            if list.contains(where: { $0.sha256 != nil }) { hashedListRows.append(Int32(position)) }
        }
        var answers = StoredInteraction.packed(logged.interestAnswers)
        if let given = logged.interestAnswers, given.count != 6 {
            irregularAnswers[position] = given
            answers = 1 << 7
        }
        // The ids go in with one check for the lot (``TextArena/reserve(_:)``), before the
        // subject and content, which are added (or left in the log) one by one.
        if let staged, staged.logOffsets == nil, staged.subject != nil || staged.content != nil { textsCopied = true }
        let ids = (idKey == nil ? eventId.utf8.count : 16) + loggedBy.utf8.count + logged.interactionId.utf8.count
            + (logged.schoolId?.utf8.count ?? 0) + (logged.coachId?.utf8.count ?? 0) + (logged.eventId?.utf8.count ?? 0)
            + (logged.otherCoachName?.utf8.count ?? 0)
        let reserved = texts.reserve(ids)
        func id(_ text: String) -> TextSpan { reserved ? texts.addReserved(text) : texts.add(text) }
        func id(_ text: String?) -> TextSpan { reserved ? texts.addReserved(text) : texts.add(text) }
        rows.append(StoredInteraction(
            eventId: idKey.map { reserved ? texts.addReserved(uuid: $0) : texts.add(uuid: $0) } ?? id(eventId), loggedBy: id(loggedBy),
            interactionId: id(logged.interactionId), schoolId: id(logged.schoolId), coachId: id(logged.coachId),
            loggedEventId: id(logged.eventId), otherCoachName: id(logged.otherCoachName),
            subject: staged?.span(.subject, in: &texts) ?? texts.add(logged.subject),
            content: staged?.span(.content, in: &texts) ?? texts.add(logged.content),
            seq: seq, at: at.millisecondsSinceEpoch, occurredAt: logged.occurredAt?.millisecondsSinceEpoch ?? 0,
            deletedEventId: .none, deletedBy: .none, deletedAt: 0, attachments: attachments,
            type: logged.type, direction: logged.direction, sentiment: logged.sentiment, answers: answers,
            hasOccurredAt: logged.occurredAt != nil))
    }

    /// Whether the interaction is logged, not deleted, and was logged by `actor`.
    func isLive(_ id: String, loggedBy actor: String, hash: Int) -> Bool {
        withUnsafePointer(to: self) { Self.isLive(in: $0, id, loggedBy: actor, hash: hash) }
    }

    /// ``isLive(_:loggedBy:hash:)`` in a table read where it lies (no record built; calling a
    /// method on `.pointee.interactions` copied the table out, a retain and a release per
    /// array it holds, for every deletion).
    static func isLive(in table: UnsafePointer<InteractionTable>, _ id: String, loggedBy actor: String, hash: Int) -> Bool {
        let texts = table.pointer(to: \.texts)!
        return table.pointer(to: \.rows)!.withElements { rows in
            guard !rows.isEmpty, let stored = rows.baseAddress,
                  let position = PositionIndex.position(in: table.pointer(to: \.index)!, hash: hash, where: {
                      texts.pointee.equals((stored + $0).pointee.interactionId, id)
                  }) else { return false }
            let row = stored + position
            return !row.pointee.isDeleted && texts.pointee.equals(row.pointee.loggedBy, actor)
        }
    }

    /// Marks an interaction deleted; the deleting event's id is spelled from `idKey` when it
    /// was left out of the deletion (``LineKeys/idInKey``).
    mutating func delete(_ id: String, _ deletion: Deletion, hash: Int, idKey: EventIdKey? = nil) {
        guard let position = position(of: id, hash: hash) else { return }
        delete(at: position, deletion, idKey: idKey)
    }

    private mutating func delete(at position: Int, _ deletion: Deletion, idKey: EventIdKey? = nil) {
        let (eventId, by) = (idKey.map { texts.add(uuid: $0) } ?? texts.add(deletion.eventId), texts.add(deletion.by))
        rows[position].deletedEventId = eventId
        rows[position].deletedBy = by
        rows[position].deletedAt = deletion.at.millisecondsSinceEpoch
    }

    /// Starts loading the index slot of an id's hash (the fold calls it a few lines ahead), in
    /// a table read where it lies (no copy of its arrays).
    /// ``contains(_:hash:)`` of a table read where it lies, through a pointer to it (a rule
    /// holds its family by pointer; calling the method on `.pointee.interactions` copied the
    /// table out, four reference counts a line), its arrays read where they lie.
    static func contains(in table: UnsafePointer<InteractionTable>, _ id: String, hash: Int) -> Bool {
        let texts = table.pointer(to: \.texts)!
        return table.pointer(to: \.rows)!.withElements { rows in
            guard !rows.isEmpty, let stored = rows.baseAddress else { return false }
            return PositionIndex.position(in: table.pointer(to: \.index)!, hash: hash) {
                texts.pointee.equals((stored + $0).pointee.interactionId, id)
            } != nil
        }
    }

    /// Starts loading what appending a row to the table at `table` reads and writes (a hint;
    /// never faults): first (`headers`) the texts' last chunk; a few lines later, that loaded,
    /// where the next row and its texts go. Their first touch by the append was a third of
    /// its samples.
    static func prefetchAppend(in table: UnsafePointer<InteractionTable>, headers: Bool) {
        let texts = table.pointer(to: \.texts)!
        if !headers {
            table.pointer(to: \.rows)!.withElements { rows in
                guard let first = rows.baseAddress else { return }
                let next = UnsafeRawPointer(first + rows.count)
                for line in stride(from: 0, to: MemoryLayout<StoredInteraction>.stride, by: 64) { compass_prefetch_write(next + line) }
            }
        }
        TextArena.prefetchTail(in: texts, headers: headers)
    }

    static func prefetch(in table: UnsafePointer<InteractionTable>, hash: Int) {
        guard let index = table.pointer(to: \.index) else { return }
        PositionIndex.prefetch(in: index, hash: hash)
    }

    /// Calls `body` with each record `include` keeps, in logging order, building only those:
    /// `include` sees the row's ``RowFacts`` and whether `loggedBy` is a given user.
    func forEachRecord(where include: (_ facts: RowFacts, _ loggedBy: (String) -> Bool) -> Bool, _ body: (InteractionRecord) -> Void) {
        for position in rows.indices {
            let row = rows[position]
            guard include(RowFacts(row), { texts.equals(row.loggedBy, $0) }) else { continue }
            body(record(at: position))
        }
    }

    /// Calls `body` with the ``RowFacts`` of each row `include` keeps, in logging order,
    /// building no record: what counting needs, without a `String` made.
    func forEachFacts(where include: (_ facts: RowFacts, _ loggedBy: (String) -> Bool) -> Bool, _ body: (RowFacts) -> Void) {
        for position in rows.indices {
            let row = rows[position]
            let facts = RowFacts(row)
            guard include(facts, { texts.equals(row.loggedBy, $0) }) else { continue }
            body(facts)
        }
    }

    /// What a row tells without building its record: whether it is deleted, and the fields
    /// the list's filters (all but the text search) and its analytics read.
    struct RowFacts {
        let deleted: Bool
        let type: InteractionType
        let direction: Direction
        let sentiment: Sentiment?
        /// ``InteractionRecord/displayDate``: `occurredAt`, else `at`.
        let displayDate: Timestamp

        init(_ row: StoredInteraction) {
            deleted = row.isDeleted
            type = row.type
            direction = row.direction
            sentiment = row.sentiment
            displayDate = Timestamp(millisecondsSinceEpoch: row.hasOccurredAt ? row.occurredAt : row.at)
        }
    }

    /// Calls `body` with the interaction id and attachment list of every record whose list
    /// names a blob (an attachment with a SHA-256), in logging order. Only those rows are
    /// visited (``hashedListRows``, noted as each list is added): `verify` walked all 720,000
    /// rows of the 1M log to find none.
    package func forEachHashedAttachmentList<Failure: Error>(
        _ body: (_ interactionId: String, _ attachments: [Attachment]) throws(Failure) -> Void
    ) throws(Failure) {
        for position in hashedListRows {
            let row = rows[Int(position)]
            try body(texts.string(row.interactionId), attachmentLists[Int(row.attachments) - 1])
        }
    }

    /// Writes the records in the snapshot's form (``SnapshotCodec``) straight from their stored
    /// form: the same bytes as writing each built record, without building any.
    ///
    /// A row at a time (``encodeRow(_:window:ranges:into:)``), texts left in the log as their
    /// ranges unless ``textsCopied`` (then there are none: they were read back). StagedTextTests
    /// holds the bytes equal to the records' written a field at a time.
    func encode(into w: inout ByteWriter) {
        w.uint(UInt64(rows.count))
        var run = ByteRun()
        for position in rows.indices {
            run.clear()
            encodeRow(position, window: nil, ranges: !textsCopied, into: &run)
            run.flush(into: &w)
        }
    }

    /// Where in the log the texts a row left there are (its subject and content are in one
    /// line), or nil when it left none.
    func logRange(ofRow position: Int) -> Range<Int>? {
        let (subject, content) = (rows[position].subject, rows[position].content)
        switch (subject.isInLog, content.isInLog) {
        case (false, false): return nil
        case (true, false): return subject.logRange
        case (false, true): return content.logRange
        case (true, true): return min(subject.logRange.lowerBound, content.logRange.lowerBound)..<max(subject.logRange.upperBound, content.logRange.upperBound)
        }
    }

    /// Writes one record in the snapshot's form after what `run` holds: room for its fixed
    /// fields is made first, each text makes its own as it is written, and the fields are
    /// written through a pointer with no check each.
    /// A text left in the log is written as its range when `ranges`, else copied from
    /// `window`, which must then hold the row's ``logRange(ofRow:)``.
    func encodeRow(_ position: Int, window: LogWindow?, ranges: Bool, into run: inout ByteRun) {
        let row = rows[position]
        // 29 varints and tags of at most ten bytes each; each text makes its own room.
        run.reserve(10 * 29)
        run.text(row.eventId, of: texts); run.int(row.seq); run.int(row.at); run.text(row.loggedBy, of: texts)
        run.text(row.interactionId, of: texts); run.optional(row.schoolId, of: texts); run.optional(row.coachId, of: texts)
        run.optional(row.loggedEventId, of: texts); run.optional(row.otherCoachName, of: texts)
        run.uint(UInt64(row.type.position)); run.uint(UInt64(row.direction.position))
        if row.hasOccurredAt { run.byte(1); run.int(row.occurredAt) } else { run.byte(0) }
        run.optional(row.subject, of: texts, window: window, ranges: ranges)
        run.optional(row.content, of: texts, window: window, ranges: ranges)
        run.uint(row.sentiment.map { UInt64($0.position + 1) } ?? 0)
        if row.answers & (1 << 7) != 0 {
            writeIrregular(answers: irregularAnswers[position], into: &run)
        } else if row.answers & (1 << 6) != 0 {
            run.byte(1); run.uint(UInt64(row.answers & 0x3F))  // the six answers' bits, as packed
        } else {
            run.byte(0)
        }
        guard row.attachments > 0 else { run.byte(0); return writeDeletion(row, into: &run) }
        // The list is read where it lies: a copy took a reference to it, an atomic count that
        // waited for its memory before anything else could.
        attachmentLists.withUnsafeBufferPointer { lists in (lists.baseAddress! + Int(row.attachments) - 1).withElements { list in
            run.extend(10 + 10 * 3 * list.count)
            run.uint(UInt64(list.count + 1))
            for a in list.indices {
                run.string(list[a].name); run.int(list[a].sizeBytes); run.string(list[a].mimeType)
                if let sha = list[a].sha256 { run.byte(1); run.string(sha) } else { run.byte(0) }
            }
        } }
        writeDeletion(row, into: &run)
    }

    /// Whether a row is deleted, and by which event, when and by whom (the end of its record).
    private func writeDeletion(_ row: StoredInteraction, into run: inout ByteRun) {
        if row.isDeleted {
            run.byte(1); run.text(row.deletedEventId, of: texts); run.int(row.deletedAt); run.text(row.deletedBy, of: texts)
        } else { run.byte(0) }
    }

    /// Interest answers other than six (only an unchecked app event holds them), as the
    /// record's codec writes them.
    private func writeIrregular(answers: [Bool]?, into run: inout ByteRun) {
        guard let answers else { run.byte(0); return }
        run.byte(1); run.uint(UInt64(answers.enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) }))
    }

    /// Reads `count` records that ``encode(into:)`` wrote (its count already read), their texts
    /// copied from the section's bytes straight into the arena, or, in a section that keeps
    /// them as `ranges` of the log, left there (to be read back before they are shown); false
    /// when the bytes are not such records or repeat an interaction id.
    mutating func decode(_ count: UInt64, from r: inout ByteReader, ranges: Bool) -> Bool {
        if !ranges { textsCopied = true }
        guard count <= UInt64(r.buffer.count - r.index) else { return false }  // a record is more than a byte
        reserveCapacity(rows.count + Int(count))
        let types = InteractionType.allCases, directions = Direction.allCases, sentiments = Sentiment.allCases
        for _ in 0..<count {
            guard let eventId = r.bytes(), let seq = r.int(), let at = r.int(), let by = r.bytes(), let iid = r.bytes(),
                  let school = r.optionalBytes(), let coach = r.optionalBytes(), let event = r.optionalBytes(), let other = r.optionalBytes(),
                  let type = r.choice(types), let direction = r.choice(directions), let occurred = r.optionalInt(),
                  let subject = r.optionalText(), let content = r.optionalText(), let sentiment = r.optionalChoice(sentiments),
                  let hasAnswers = r.uint() else { return false }
            var answers: UInt8 = 0
            if hasAnswers == 1 {
                guard let bits = r.uint() else { return false }
                answers = 1 << 6 | UInt8(truncatingIfNeeded: bits) & 0x3F
            }
            guard let attachmentTag = r.uint(), attachmentTag <= UInt64(r.buffer.count - r.index) + 1 else { return false }
            var list: [Attachment]?
            if attachmentTag > 0 {
                list = []
                for _ in 0..<(attachmentTag - 1) {
                    guard let name = r.string(), let size = r.int(), let mime = r.string(), let sha = r.optional() else { return false }
                    list?.append(Attachment(name: name, sizeBytes: size, mimeType: mime, sha256: sha))
                }
            }
            guard let deleted = r.uint() else { return false }
            var deletion: (eventId: UnsafeBufferPointer<UInt8>, at: Int64, by: UnsafeBufferPointer<UInt8>)?
            if deleted == 1 {
                guard let did = r.bytes(), let dat = r.int(), let dby = r.bytes() else { return false }
                deletion = (did, dat, dby)
            }
            let id = String(decoding: iid, as: UTF8.self)
            let hash = id.hashValue
            guard !contains(id, hash: hash) else { return false }
            index.insert(hash: hash, position: rows.count)
            var attachments: Int32 = 0
            if let list {
                attachmentLists.append(list)
                attachments = Int32(attachmentLists.count)
            }
            func text(_ bytes: UnsafeBufferPointer<UInt8>) -> TextSpan { texts.add(decoding: bytes) }
            func optional(_ bytes: UnsafeBufferPointer<UInt8>?) -> TextSpan { bytes.map(text) ?? .none }
            func stored(_ text: StoredText) -> TextSpan? {
                switch text {
                case .none: return TextSpan.none
                case .bytes(let bytes): return self.texts.add(decoding: bytes)
                case .inLog(let span): return ranges ? span : nil  // a range only where the section says so
                }
            }
            guard let subject = stored(subject), let content = stored(content) else { return false }
            rows.append(StoredInteraction(
                eventId: text(eventId), loggedBy: text(by), interactionId: texts.add(id), schoolId: optional(school),
                coachId: optional(coach), loggedEventId: optional(event), otherCoachName: optional(other), subject: subject,
                content: content, seq: seq, at: at, occurredAt: occurred ?? 0,
                deletedEventId: deletion.map { text($0.eventId) } ?? .none, deletedBy: deletion.map { text($0.by) } ?? .none,
                deletedAt: deletion?.at ?? 0, attachments: attachments, type: type, direction: direction, sentiment: sentiment,
                answers: answers, hasOccurredAt: occurred != nil))
            if list?.contains(where: { $0.sha256 != nil }) == true { hashedListRows.append(Int32(rows.count - 1)) }
        }
        return true
    }

    /// The record at a position, built from its stored form.
    func record(at position: Int) -> InteractionRecord {
        let row = rows[position]
        let logged = InteractionLogged(
            interactionId: texts.string(row.interactionId), schoolId: texts.optionalString(row.schoolId),
            coachId: texts.optionalString(row.coachId), eventId: texts.optionalString(row.loggedEventId),
            otherCoachName: texts.optionalString(row.otherCoachName), type: row.type, direction: row.direction,
            occurredAt: row.hasOccurredAt ? Timestamp(millisecondsSinceEpoch: row.occurredAt) : nil,
            subject: texts.optionalString(row.subject), content: texts.optionalString(row.content), sentiment: row.sentiment,
            interestAnswers: answers(of: row, at: position), attachments: attachments(of: row))
        var deletion: Deletion?
        if row.isDeleted {
            deletion = Deletion(eventId: texts.string(row.deletedEventId), at: Timestamp(millisecondsSinceEpoch: row.deletedAt),
                                by: texts.string(row.deletedBy))
        }
        return InteractionRecord(eventId: texts.string(row.eventId), seq: row.seq, at: Timestamp(millisecondsSinceEpoch: row.at),
                                 loggedBy: texts.string(row.loggedBy), logged: logged, deletion: deletion)
    }

    /// A row's interest answers: its six packed bits, or the irregular list kept aside.
    private func answers(of row: StoredInteraction, at position: Int) -> [Bool]? {
        row.answers & (1 << 7) != 0 ? irregularAnswers[position] : StoredInteraction.unpacked(row.answers)
    }

    /// A row's attachment list, if it has one.
    private func attachments(of row: StoredInteraction) -> [Attachment]? {
        row.attachments > 0 ? attachmentLists[Int(row.attachments) - 1] : nil
    }

    /// Where the record with this id is; a hash match is confirmed against the stored id (in
    /// place).
    private func position(of id: String, hash: Int) -> Int? {
        rows.withUnsafeBufferPointer { stored in
            index.position(hash: hash) { texts.equals((stored.baseAddress! + $0).pointee.interactionId, id) }
        }
    }

    /// Equal when they hold the same records in the same order (the index and the layout of
    /// the texts follow from them).
    package static func == (a: InteractionTable, b: InteractionTable) -> Bool { a.records.elementsEqual(b.records) }
}

extension InteractionTable {
    /// The records of a table in logging order; each element is built when it is read.
    package struct Records: RandomAccessCollection, Sendable {
        let table: InteractionTable

        public var startIndex: Int { 0 }
        public var endIndex: Int { table.rows.count }
        public subscript(position: Int) -> InteractionRecord { table.record(at: position) }
    }
}
