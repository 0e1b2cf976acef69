/// Every interaction a family logged, deleted ones included (their ids stay used): the
/// records in logging order, found by id through a small id → position index.
///
/// Records are kept in an array, not as dictionary values: a record is a few hundred bytes,
/// so an index of positions stays compact, growing it moves only positions, and reading the
/// list in logging order walks memory in order. The index is keyed by the id's hash, which
/// replay works out while the line is prepared (``PositionIndex``).
public struct InteractionTable: Equatable, Sendable {
    private var index = PositionIndex()
    /// The records in logging order.
    public private(set) var records: [InteractionRecord] = []

    public init() {}

    /// The interaction with this id, live or deleted.
    public subscript(id: String) -> InteractionRecord? {
        position(of: id, hash: id.hashValue).map { records[$0] }
    }

    /// Whether an interaction with this id was ever logged.
    public func contains(_ id: String) -> Bool { contains(id, hash: id.hashValue) }

    /// ``contains(_:)`` with the id's `hashValue` worked out ahead.
    func contains(_ id: String, hash: Int) -> Bool { position(of: id, hash: hash) != nil }

    /// How many.
    public var count: Int { records.count }

    /// The ids in logging order.
    public var ids: [String] { records.map(\.logged.interactionId) }

    mutating func reserveCapacity(_ count: Int) {
        index.reserveCapacity(count)
        records.reserveCapacity(count)
    }

    /// Adds a newly logged interaction (its id must be new).
    mutating func append(_ record: consuming InteractionRecord) {
        append(record, hash: record.logged.interactionId.hashValue)
    }

    /// ``append(_:)`` with the id's `hashValue` worked out ahead.
    mutating func append(_ record: consuming InteractionRecord, hash: Int) {
        index.insert(hash: hash, position: records.count)
        records.append(record)
    }

    /// Whether the interaction is logged, not deleted, and was logged by `actor` (read in
    /// place: the record is not copied out).
    func isLive(_ id: String, loggedBy actor: String, hash: Int) -> Bool {
        guard let position = position(of: id, hash: hash) else { return false }
        return records.withUnsafeBufferPointer { $0[position].deletion == nil && $0[position].loggedBy == actor }
    }

    /// Marks an interaction deleted.
    mutating func delete(_ id: String, _ deletion: Deletion, hash: Int) {
        guard let position = position(of: id, hash: hash) else { return }
        records[position].deletion = deletion
    }

    /// Starts loading the index slot of an id's hash (the fold calls it a few lines ahead).
    func prefetch(hash: Int) { index.prefetch(hash: hash) }

    /// Where the record with this id is; a hash match is confirmed against the record's id
    /// (read in place).
    private func position(of id: String, hash: Int) -> Int? {
        records.withUnsafeBufferPointer { stored in
            index.position(hash: hash) { (stored.baseAddress! + $0).pointee.logged.interactionId == id }
        }
    }

    /// Equal when they hold the same records in the same order (the index follows from them).
    public static func == (a: InteractionTable, b: InteractionTable) -> Bool { a.records == b.records }
}
