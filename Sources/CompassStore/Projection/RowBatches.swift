import CompassCore
import Foundation

/// The families a projection pass writes, in batches of about `rowsPerBatch` rows with each
/// table's rows as JSON, prepared one batch ahead on a thread of their own: folding and
/// encoding the next batch overlaps the database writing this one, and only two batches are
/// ever in memory.
final class RowBatches: @unchecked Sendable {
    /// A family to write: its rows and the checkpoint they are as of.
    struct Family {
        var name: String
        var checkpoint: Projector.Checkpoint
        var rows: FamilyRows
    }

    /// Families whose rows together reach about `rowsPerBatch`, and each table's rows as one
    /// JSON array, or (for tables being built, where no row is there yet) as `COPY` text.
    struct Batch {
        var families: [Family]
        var json: [ProjectionTable: String] = [:]
        var copy: [ProjectionTable: [UInt8]] = [:]

        init(_ families: [Family], forCopy: Bool) {
            self.families = families
            for table in ProjectionTable.allCases {
                if forCopy {
                    var text: [UInt8] = []
                    for family in families { family.rows.writeCopyText(table, into: &text) }
                    copy[table] = text
                } else {
                    json[table] = Self.json(families, table)
                }
            }
        }

        /// The rows of `table` of every family in `families`, as one JSON array.
        static func json(_ families: [Family], _ table: ProjectionTable) -> String {
            var w = JSONWriter()
            w.beginArray()
            for family in families { family.rows.write(table, into: &w) }
            w.endArray()
            return w.string
        }
    }

    private let lock = NSLock()
    /// Prepared batches; nil marks the end.
    private var ready: [Batch?] = []
    private var stopped = false
    private let filled = DispatchSemaphore(value: 0)
    private let room = DispatchSemaphore(value: 1)

    /// Starts preparing the batches of `streams`' families from `state` (as `COPY` text when
    /// `forCopy`).
    init(_ streams: [FamilyStream], state: CompassState, rowsPerBatch: Int, forCopy: Bool = false) {
        Thread.detachNewThread { [self] in
            var index = 0
            while index < streams.count {
                room.wait()
                if lock.withLock({ stopped }) { break }
                var families: [Family] = []
                var rows = 0
                while index < streams.count, rows < rowsPerBatch {
                    let stream = streams[index]
                    let family = FamilyRows(family: stream.family, in: state)
                    families.append(Family(name: stream.family, checkpoint: Projector.Checkpoint(seq: stream.seq, head: stream.head.text), rows: family))
                    rows += family.count
                    index += 1
                }
                let batch = Batch(families, forCopy: forCopy)
                lock.withLock { ready.append(batch) }
                filled.signal()
            }
            lock.withLock { ready.append(nil) }
            filled.signal()
        }
    }

    /// The next batch (waiting until it is prepared), or nil after the last.
    func next() -> Batch? {
        filled.wait()
        let batch = lock.withLock { ready.removeFirst() }
        if batch == nil {
            lock.withLock { ready.insert(nil, at: 0) }
            filled.signal()
        }
        room.signal()
        return batch
    }

    /// Stops preparing (a pass that failed): the thread ends after the batch it is on.
    func stop() {
        lock.withLock { stopped = true }
        room.signal()
    }
}
