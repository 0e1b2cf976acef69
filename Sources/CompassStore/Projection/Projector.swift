import CompassCore
import Foundation

/// Keeps a store's read models as tables in a PostgreSQL database (SPEC §6), where a web
/// app, a reporting tool or `psql` reads them under the same per-role visibility as the views.
///
/// Each pass reads the source (a file or a PostgreSQL store) as any reader does, folds every
/// family whose last line is not the one its checkpoint names, and writes the rows that
/// differ from the family's rows in the tables **and** the new checkpoint in one transaction:
/// a reader sees each family as of one `seq`; a pass killed at any moment leaves the last
/// committed checkpoints and their rows, and the next pass goes on from them. Every write
/// transaction takes one advisory lock, so several projectors on one database take turns,
/// and each skips the families another already brought to the same line.
///
/// ```swift
/// let projector = try Projector(source: store, target: "postgresql://app@db/compass")
/// let summary = try projector.project()      // brings the tables up to date
/// for await _ in store.changes() { _ = try projector.project() }
/// ```
public final class Projector: @unchecked Sendable {
    /// The store read.
    public let source: CompassStore
    private let lock = NSLock()
    private let target: ProjectionConnection
    /// Each family's checkpoint as the tables held it when last read or written: a family
    /// whose source stream ends there is not written again. (The write transaction checks
    /// the tables' own checkpoints: this only saves work.)
    private var known: [String: Checkpoint]?
    /// The rows last written of recently written families.
    private var cache = RowCache(budget: Projector.rowsCached)

    /// How big one write transaction grows: families are added to it until it holds this many
    /// rows (a family is never split).
    static let rowsPerTransaction = 20_000
    /// How many written rows a projector keeps to diff the next pass against (about 100 MB).
    static let rowsCached = 200_000

    /// A family's last projected line: its `seq` and its head as `verify` prints them.
    struct Checkpoint: Equatable {
        var seq: Int64
        var head: String
    }

    /// Connects to the target database (`postgresql://…`).
    public init(source: CompassStore, target address: String) throws(StoreError) {
        guard CompassStore.isDatabaseAddress(address) else {
            throw .io(path: address, message: "--to needs a PostgreSQL address (postgresql://…), not '\(address)'")
        }
        self.source = source
        target = try ProjectionConnection(address)
    }

    /// Brings the tables up to date with every line committed to the source now; with
    /// `rebuild`, builds them anew beside the old ones and swaps them in, in one transaction,
    /// so readers never see an empty or half-built table (a schema of another projection
    /// version is rebuilt so, whatever `rebuild` says).
    public func project(rebuild: Bool = false) throws(StoreError) -> ProjectionSummary {
        lock.lock()
        defer { lock.unlock() }
        let version = try schemaVersion(ProjectionSchema.live)
        if version > ProjectionSchema.version {
            throw .io(path: target.display, message: "the tables at \(target.display) are of projection version \(version), newer than this compass's \(ProjectionSchema.version)")
        }
        let (state, streams) = try source.projectionSource()
        // No tables yet, another version, or asked: built beside and swapped in (unless a
        // rival projector built them meanwhile).
        if version == 0 || rebuild || version < ProjectionSchema.version,
           let summary = try self.rebuild(state, streams, unlessCurrent: !rebuild) {
            return summary
        }
        // A projector's first pass catches up (every family, perhaps the whole log): it keeps no
        // rows; later passes keep the rows of the families they write, to send only changes.
        let catchingUp = known == nil
        if catchingUp { known = try checkpoints(in: ProjectionSchema.live) }
        return try write(state, streams, into: ProjectionSchema.live, known: &known!, keepingRows: !catchingUp)
    }

    /// The families whose rows or checkpoint differ from a fresh fold of the source: a row
    /// edited by hand, missing or extra, a checkpoint behind (lines not projected yet) or
    /// a family the source does not have. Sorted by id.
    public func check() throws(StoreError) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let schema = ProjectionSchema.live
        guard try schemaVersion(schema) != 0 else {
            throw .io(path: target.display, message: "no projection at \(target.display); run 'compass project --to \(target.display)'")
        }
        let (state, streams) = try source.projectionSource()
        let held = try checkpoints(in: schema)
        var differing: Set<String> = []
        let names = Set(streams.map(\.family))
        for family in held.keys where !names.contains(family) { differing.insert(family) }
        for stream in streams where held[stream.family] != Checkpoint(seq: stream.seq, head: stream.head.text) { differing.insert(stream.family) }
        let all = Self.jsonArray(streams.map(\.family))
        for table in ProjectionTable.allCases {
            for row in try target.run("SELECT DISTINCT family FROM \(schema).\(table.name) WHERE family NOT IN (SELECT jsonb_array_elements_text($1::jsonb))",
                                      [.text(all)]).rows {
                if let family = row[0] { differing.insert(family) }
            }
        }
        let batches = RowBatches(streams, state: state, rowsPerBatch: Self.rowsPerTransaction)
        defer { batches.stop() }
        while let batch = batches.next() {
            let families = Self.jsonArray(batch.families.map(\.name))
            for table in ProjectionTable.allCases {
                for row in try target.run(ProjectionSchema.differingFamilies(table, in: schema), [.text(batch.json[table]!), .text(families)]).rows {
                    if let family = row[0] { differing.insert(family) }
                }
            }
        }
        return differing.sorted()
    }

    // MARK: Writing

    /// Writes every family of `streams` whose checkpoint in `schema` is not its last line,
    /// a transaction per batch of families.
    private func write(_ state: CompassState, _ streams: [FamilyStream], into schema: String,
                       known: inout [String: Checkpoint], keepingRows: Bool) throws(StoreError) -> ProjectionSummary {
        let pending = streams.filter { known[$0.family] != Checkpoint(seq: $0.seq, head: $0.head.text) }
        var summary = ProjectionSummary()
        // Tables being built hold no row yet: their rows go by `COPY`.
        let batches = RowBatches(pending, state: state, rowsPerBatch: Self.rowsPerTransaction, forCopy: schema == ProjectionSchema.next)
        defer { batches.stop() }
        while let batch = batches.next() {
            let written = try target.transaction { () throws(StoreError) -> (ProjectionSummary, [String: Checkpoint]) in
                try target.run("SELECT pg_advisory_xact_lock($1)", [.int(ProjectionSchema.writeLock)])
                // The checkpoints as committed now (another projector may have moved them).
                var held: [String: Checkpoint] = [:]
                for row in try target.run("SELECT family, seq, head FROM \(schema).checkpoints WHERE family IN (SELECT jsonb_array_elements_text($1::jsonb))",
                                          [.text(Self.jsonArray(batch.families.map(\.name)))]).rows {
                    if let family = row[0], let seq = row[1].flatMap({ Int64($0) }), let head = row[2] { held[family] = Checkpoint(seq: seq, head: head) }
                }
                let todo = batch.families.filter { held[$0.name] != $0.checkpoint }
                var pass = ProjectionSummary()
                if !todo.isEmpty {
                    // Families whose rows this projector wrote at the checkpoint the tables hold:
                    // only what differs is sent. The others are diffed by the server.
                    let cached = todo.filter { cache.rows(of: $0.name, at: held[$0.name]) != nil }
                    let whole = todo.filter { cache.rows(of: $0.name, at: held[$0.name]) == nil }
                    if !cached.isEmpty { pass.rowsWritten += try writeChanges(of: cached, held: held, into: schema) }
                    if !whole.isEmpty, whole.count == batch.families.count, !batch.copy.isEmpty,
                       whole.allSatisfy({ held[$0.name] == nil }) {
                        for table in ProjectionTable.allCases {
                            let columns = (["family"] + table.columns.map(\.name)).joined(separator: ", ")
                            try target.copy("COPY \(schema).\(table.name) (\(columns)) FROM STDIN", batch.copy[table]!)
                            pass.rowsWritten += whole.reduce(0) { $0 + ($1.rows.rows[table]?.count ?? 0) }
                        }
                    } else if !whole.isEmpty {
                        let families = Self.jsonArray(whole.map(\.name))
                        // Rows are written only with their checkpoint: a family with none has no rows to delete.
                        let anyHeld = whole.contains { held[$0.name] != nil }
                        for table in ProjectionTable.allCases {
                            let rows = whole.count == batch.families.count ? batch.json[table] ?? RowBatches.Batch.json(whole, table)
                                : RowBatches.Batch.json(whole, table)
                            if anyHeld {
                                pass.rowsWritten += try count(ProjectionSchema.deleteChanged(table, in: schema), [.text(rows), .text(families)])
                            }
                            pass.rowsWritten += try count(ProjectionSchema.insertMissing(table, in: schema), [.text(rows)])
                        }
                    }
                    var w = JSONWriter()
                    w.beginArray()
                    for family in todo {
                        w.beginObject()
                        w.field("family", family.name)
                        w.field("seq", family.checkpoint.seq)
                        w.field("head", family.checkpoint.head)
                        w.endObject()
                    }
                    w.endArray()
                    try target.run(ProjectionSchema.saveCheckpoints(in: schema), [.text(w.string)])
                    pass.families = todo.count
                    pass.lines = todo.reduce(0) { $0 + max(0, $1.checkpoint.seq - (held[$1.name]?.seq ?? 0)) }
                }
                var now = held
                for family in batch.families { now[family.name] = family.checkpoint }
                return (pass, now)
            }
            // Committed: each family's rows in the tables are its rows at its checkpoint.
            if keepingRows { for family in batch.families { cache.keep(family.rows, at: family.checkpoint) } }
            summary.lines += written.0.lines
            summary.families += written.0.families
            summary.rowsWritten += written.0.rowsWritten
            known.merge(written.1) { $1 }
        }
        return summary
    }

    /// Writes the rows of `families` that differ from the rows this projector last wrote of
    /// them (at the checkpoints `held`); returns the rows deleted and inserted.
    private func writeChanges(of families: [RowBatches.Family], held: [String: Checkpoint], into schema: String) throws(StoreError) -> Int {
        var removed: [ProjectionTable: JSONWriter] = [:], added: [ProjectionTable: JSONWriter] = [:]
        for family in families {
            guard let old = cache.rows(of: family.name, at: held[family.name]) else { continue }
            for (table, change) in family.rows.changes(since: old) {
                var keys = removed[table] ?? Self.openArray()
                for key in change.removedKeys {
                    keys.beginArray()
                    keys.string(family.name)
                    keys.string(key)
                    keys.endArray()
                }
                removed[table] = keys
                var rows = added[table] ?? Self.openArray()
                FamilyRows.write(change.added, of: family.name, table, into: &rows)
                added[table] = rows
            }
        }
        var written = 0
        for table in ProjectionTable.allCases {
            if var keys = removed[table] {
                keys.endArray()
                written += try count(ProjectionSchema.deleteKeys(table, in: schema), [.text(keys.string)])
            }
            if var rows = added[table] {
                rows.endArray()
                written += try count(ProjectionSchema.insertMissing(table, in: schema), [.text(rows.string)])
            }
        }
        return written
    }

    /// A statement's one count.
    private func count(_ sql: String, _ values: [PostgresConnection.Value]) throws(StoreError) -> Int {
        Int(try target.run(sql, values)[0, 0] ?? "0") ?? 0
    }

    /// A writer with an array begun.
    private static func openArray() -> JSONWriter {
        var w = JSONWriter()
        w.beginArray()
        return w
    }

    /// Builds every table anew in the `next` schema, then swaps it for the live one in one
    /// transaction. One rebuild at a time (a session lock); appends go on meanwhile, and the
    /// next pass projects what came after the rebuild's read.
    ///
    /// - Parameter unlessCurrent: return nil, building nothing, when the live tables are of
    ///   this version once the lock is held (a rival projector built them while this one waited).
    private func rebuild(_ state: CompassState, _ streams: [FamilyStream], unlessCurrent: Bool) throws(StoreError) -> ProjectionSummary? {
        try target.holding(ProjectionSchema.rebuildLock) { () throws(StoreError) -> ProjectionSummary? in
            let replacing = try schemaVersion(ProjectionSchema.live)
            if unlessCurrent, replacing == ProjectionSchema.version { return nil }
            guard replacing <= ProjectionSchema.version else {  // a newer projector built them while this one waited
                throw .io(path: target.display, message: "the tables at \(target.display) are of projection version \(replacing), newer than this compass's \(ProjectionSchema.version)")
            }
            let next = ProjectionSchema.next
            try target.transaction { () throws(StoreError) in
                try target.run("DROP SCHEMA IF EXISTS \(next) CASCADE")  // a killed rebuild's
                for statement in ProjectionSchema.create(in: next) { try target.run(statement) }
            }
            var built: [String: Checkpoint] = [:]
            cache.removeAll()
            var summary = try write(state, streams, into: next, known: &built, keepingRows: false)
            try target.transaction { () throws(StoreError) in
                try target.run("SELECT pg_advisory_xact_lock($1)", [.int(ProjectionSchema.writeLock)])
                try target.run("DROP SCHEMA IF EXISTS \(ProjectionSchema.live) CASCADE")
                try target.run("ALTER SCHEMA \(next) RENAME TO \(ProjectionSchema.live)")
            }
            known = built
            summary.rebuilt = replacing != 0  // a first build replaces nothing
            return summary
        }
    }

    // MARK: Reading the target

    /// The projection version of `schema` (0: not there).
    private func schemaVersion(_ schema: String) throws(StoreError) -> Int {
        guard try target.run("SELECT to_regclass('\(schema).meta') IS NOT NULL")[0, 0] == "t" else { return 0 }
        return Int(try target.run("SELECT value FROM \(schema).meta WHERE key = 'version'").rows.first?[0] ?? "0") ?? 0
    }

    /// Each family's projected `seq` as the live tables hold it now (benchmarks).
    package func committedSeqs() throws(StoreError) -> [String: Int64] {
        lock.lock()
        defer { lock.unlock() }
        return try checkpoints(in: ProjectionSchema.live).mapValues(\.seq)
    }

    /// Every checkpoint in `schema`.
    private func checkpoints(in schema: String) throws(StoreError) -> [String: Checkpoint] {
        var held: [String: Checkpoint] = [:]
        for row in try target.run("SELECT family, seq, head FROM \(schema).checkpoints").rows {
            if let family = row[0], let seq = row[1].flatMap({ Int64($0) }), let head = row[2] { held[family] = Checkpoint(seq: seq, head: head) }
        }
        return held
    }

    // MARK: JSON

    /// `texts` as a JSON array of strings.
    private static func jsonArray(_ texts: [String]) -> String {
        var w = JSONWriter()
        w.beginArray()
        for text in texts { w.string(text) }
        w.endArray()
        return w.string
    }
}
