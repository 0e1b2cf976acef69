/// One family's read models as the rows of the SQL projection (SPEC §6): every item of the
/// family, whoever may see it, built by the same views a parent reads. The database's
/// row-level security then shows each member the rows §3 lets them see.
///
/// A pure function of the state: the same state gives the same rows, and a projector writes
/// only the rows that differ from what the table holds.
public struct FamilyRows: Equatable, Sendable {
    /// The family.
    public let family: String
    /// Each table's rows, every row's cells in the table's column order (after `family`).
    public private(set) var rows: [ProjectionTable: [[ProjectionValue]]] = [:]

    /// The rows of `family` in `state` (no rows for a family the state does not have).
    public init(family: String, in state: CompassState) {
        self.family = family
        for table in ProjectionTable.allCases { rows[table] = [] }
        guard let folded = state.families[family] else { return }
        // Someone who sees the whole family: the views then list every item.
        let everyone = Viewer(seeingAllOf: family)
        rows[.members] = LookupViews.members(state, viewer: everyone).map {
            [.text($0.userId), .text($0.fullName), .text($0.role.rawValue), .time($0.joinedAt)]
        }
        rows[.schools] = LookupViews.schools(state, viewer: everyone, now: Timestamp(millisecondsSinceEpoch: 0)).map {
            [.text($0.schoolId), .text($0.name), .text($0.status), .time($0.statusChangedAt)]
        }
        rows[.coaches] = folded.coaches.values.map {
            [.text($0.id), .text($0.schoolId), .text($0.firstName), .text($0.lastName), .text($0.role.rawValue)]
        }
        var interactions: [[ProjectionValue]] = []
        folded.forEachVisibleInteraction(to: everyone) { record in
            let logged = record.logged
            interactions.append([
                .text(logged.interactionId), .text(record.eventId), .text(record.loggedBy), .text(logged.schoolId), .text(logged.coachId),
                .text(logged.otherCoachName), .text(logged.type.rawValue), .text(logged.direction.rawValue),
                .text(logged.sentiment?.rawValue), .text(logged.interestLevel?.rawValue), .text(logged.subject),
                .text(logged.shownContent), .time(record.displayDate), .time(record.at), .count(logged.attachments?.count ?? 0),
            ])
        }
        rows[.interactions] = interactions
        rows[.documents] = LookupViews.documents(state, viewer: everyone).map {
            [.text($0.documentId), .text($0.title), .text($0.docType), .text($0.fileName), .count($0.sizeBytes),
             .text($0.uploadedBy), .time($0.uploadedAt)]
        }
        rows[.statusChanges] = folded.statusChanges.map {
            [.text($0.eventId), .text($0.change.schoolId), .text($0.change.newStatus), .text($0.change.notes), .text($0.actor), .time($0.at)]
        }
    }

    /// How many rows the family has in all tables.
    public var count: Int { rows.values.reduce(0) { $0 + $1.count } }

    /// A time as PostgreSQL reads it: RFC 3339, except that the year 0000 (which PostgreSQL
    /// refuses) is written as what it is, 1 BC.
    static func postgresText(_ time: Timestamp) -> String {
        let text = time.rfc3339
        guard text.hasPrefix("0000-") else { return text }
        let rest = String(text.dropFirst(5).dropLast()).map { $0 == "T" ? " " : $0 }  // "MM-DD HH:MM:SS.sss"
        return "0001-" + String(rest) + "+00 BC"
    }

    /// Writes `table`'s rows as JSON objects (`{"family":…,"column":…}`) into an open array:
    /// what PostgreSQL's `json_populate_recordset` reads.
    package func write(_ table: ProjectionTable, into w: inout JSONWriter) {
        Self.write(rows[table] ?? [], of: family, table, into: &w)
    }

    /// Writes `rows` of `family` as JSON objects into an open array.
    package static func write(_ rows: [[ProjectionValue]], of family: String, _ table: ProjectionTable, into w: inout JSONWriter) {
        let columns = table.columns
        for row in rows {
            w.beginObject()
            w.field("family", family)
            for (column, value) in zip(columns, row) {
                w.key(column.name)
                switch value {
                case .text(let text): w.string(text)
                case .time(let time): w.string(postgresText(time))
                case .count(let count): w.int(count)
                case .null: w.null()
                }
            }
            w.endObject()
        }
    }

    /// Appends `table`'s rows in PostgreSQL's `COPY` text format (`family` and the columns,
    /// tab-separated; `\N` for null; backslash, tab, newline and carriage return escaped).
    package func writeCopyText(_ table: ProjectionTable, into out: inout [UInt8]) {
        var family: [UInt8] = []
        CopyText.append(self.family, into: &family)
        for row in rows[table] ?? [] {
            out.append(contentsOf: family)
            for value in row {
                out.append(0x09)
                switch value {
                case .text(let text): CopyText.append(text, into: &out)
                case .time(let time): out.append(contentsOf: Self.postgresText(time).utf8)
                case .count(let count): out.append(contentsOf: String(count).utf8)
                case .null: out.append(contentsOf: [0x5C, 0x4E])  // \N
                }
            }
            out.append(0x0A)
        }
    }

    /// What turns `old` (rows of the same family) into these, table by table: the keys whose
    /// rows go (removed or changed) and the rows that come (changed or new). Rows equal in
    /// both are in neither.
    public func changes(since old: FamilyRows) -> [ProjectionTable: RowChanges] {
        var changes: [ProjectionTable: RowChanges] = [:]
        for table in ProjectionTable.allCases {
            let before = Dictionary((old.rows[table] ?? []).map { (Self.key($0), $0) }, uniquingKeysWith: { first, _ in first })
            var change = RowChanges()
            var kept = Set<String>()
            for row in rows[table] ?? [] {
                let key = Self.key(row)
                kept.insert(key)
                if before[key] != row {
                    change.removedKeys.append(key)
                    change.added.append(row)
                }
            }
            for (key, _) in before where !kept.contains(key) { change.removedKeys.append(key) }
            if !change.isEmpty { changes[table] = change }
        }
        return changes
    }

    /// A row's key: its first cell.
    static func key(_ row: [ProjectionValue]) -> String {
        if case .text(let key)? = row.first { return key }
        return ""
    }
}
