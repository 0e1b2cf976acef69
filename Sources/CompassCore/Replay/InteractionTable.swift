/// Every interaction a family logged, deleted ones included (their ids stay used): the
/// records in logging order, found by id through a small id → position index.
///
/// Records are kept in an array, not as dictionary values: a record is a few hundred bytes,
/// so an index of positions stays compact, growing it moves only ids, and reading the list
/// in logging order walks memory in order.
public struct InteractionTable: Equatable, Sendable {
    private var positions: [String: Int] = [:]
    /// The records in logging order.
    public private(set) var records: [InteractionRecord] = []

    public init() {}

    /// The interaction with this id, live or deleted.
    public subscript(id: String) -> InteractionRecord? {
        positions[id].map { records[$0] }
    }

    /// Whether an interaction with this id was ever logged.
    public func contains(_ id: String) -> Bool { positions[id] != nil }

    /// How many.
    public var count: Int { records.count }

    /// The ids in logging order.
    public var ids: [String] { records.map(\.logged.interactionId) }

    mutating func reserveCapacity(_ count: Int) {
        positions.reserveCapacity(count)
        records.reserveCapacity(count)
    }

    /// Adds a newly logged interaction (its id must be new).
    mutating func append(_ record: consuming InteractionRecord) {
        positions[record.logged.interactionId] = records.count
        records.append(record)
    }

    /// Whether the interaction is logged, not deleted, and was logged by `actor` (read in
    /// place: the record is not copied out).
    func isLive(_ id: String, loggedBy actor: String) -> Bool {
        guard let position = positions[id] else { return false }
        return records.withUnsafeBufferPointer { $0[position].deletion == nil && $0[position].loggedBy == actor }
    }

    /// Marks an interaction deleted.
    mutating func delete(_ id: String, _ deletion: Deletion) {
        guard let position = positions[id] else { return }
        records[position].deletion = deletion
    }

    /// Equal when they hold the same records in the same order (the index follows from them).
    public static func == (a: InteractionTable, b: InteractionTable) -> Bool { a.records == b.records }
}
