/// The families of a state, by id: the families in an array behind an index of positions keyed
/// by the id's hash (``PositionIndex``; replay works the hash out while the line is prepared),
/// so the fold reads and mutates a family in place, never copying it out.
package struct FamilyTable: Equatable, Sendable, Sequence {
    private var byHash = PositionIndex()
    private(set) var list: [Family] = []

    package init() {}

    /// The family with this id.
    package subscript(id: String) -> Family? {
        position(of: id).map { list[$0] }
    }

    /// How many.
    package var count: Int { list.count }
    /// The family ids, in no particular order.
    package var keys: [String] { list.map(\.id) }
    /// The families, in no particular order.
    package var values: [Family] { list }

    /// Where the family with this id is in ``list``.
    @inline(__always) func position(of id: String) -> Int? { position(of: id, hash: id.hashValue) }

    /// Where the family with this id is, its `hashValue` worked out ahead.
    @inline(__always) func position(of id: String, hash: Int) -> Int? {
        list.withUnsafeBufferPointer { families in byHash.position(hash: hash) { (families.baseAddress! + $0).pointee.id == id } }
    }

    /// ``position(of:hash:)`` in a table read where it lies (no copy of its arrays, so no
    /// reference count taken).
    @inline(__always) static func position(in table: UnsafePointer<FamilyTable>, of id: String, hash: Int) -> Int? {
        table.pointer(to: \.list)!.withElements { list in
            guard !list.isEmpty, let families = list.baseAddress else { return nil }
            return PositionIndex.position(in: table.pointer(to: \.byHash)!, hash: hash) { (families + $0).pointee.id == id }
        }
    }

    /// Starts loading what the rules will read of a line's event, in the family a family id
    /// hashing to `keys.family` found (a hint): the index slots of its interaction, school and
    /// coach when `slots`, else (a few lines later, the slots loaded) the school's and coach's
    /// entries. The table is read where it lies (no copy of its arrays, no reference count
    /// taken).
    static func prefetch(in table: UnsafePointer<FamilyTable>, _ keys: LineKeys, slots: Bool) {
        guard let index = table.pointer(to: \.byHash), let list = table.pointer(to: \.list),
              let position = PositionIndex.anyPosition(in: index, hash: keys.family) else { return }
        list.withElements { families in
            guard let base = families.baseAddress, position < families.count else { return }
            let family = base + position
            prefetch(in: family, keys, slots: slots)
        }
    }

    /// ``prefetch(in:_:slots:)`` once the family is found.
    @inline(__always) private static func prefetch(in family: UnsafePointer<Family>, _ keys: LineKeys, slots: Bool) {
        if slots {
            if let interaction = keys.interaction {
                InteractionTable.prefetch(in: family.pointer(to: \.interactions)!, hash: interaction)
                InteractionTable.prefetchAppend(in: family.pointer(to: \.interactions)!, headers: true)
            }
            if let school = keys.school { IdTable.prefetchSlot(in: family.pointer(to: \.schools)!, hash: school) }
            if let coach = keys.coach { IdTable.prefetchSlot(in: family.pointer(to: \.coaches)!, hash: coach) }
        } else {
            if keys.interaction != nil { InteractionTable.prefetchAppend(in: family.pointer(to: \.interactions)!, headers: false) }
            if let school = keys.school { IdTable.prefetchEntry(in: family.pointer(to: \.schools)!, hash: school) }
            if let coach = keys.coach { IdTable.prefetchEntry(in: family.pointer(to: \.coaches)!, hash: coach) }
        }
    }

    /// The position of the family with this id, adding an empty one when there is none.
    mutating func position(adding id: String) -> Int {
        position(adding: id, hash: id.hashValue)
    }

    /// ``position(adding:)`` with the id's `hashValue` worked out ahead.
    mutating func position(adding id: String, hash: Int) -> Int {
        if let position = position(of: id, hash: hash) { return position }
        byHash.insert(hash: hash, position: list.count)
        list.append(Family(id: id))
        return list.count - 1
    }

    /// Mutates the family at `position` in place.
    @inline(__always) mutating func update<R>(at position: Int, _ body: (inout Family) -> R) -> R {
        body(&list[position])
    }

    /// Folds an accepted event into its family (added when it has none yet), in place.
    ///
    /// - Parameter place: where the event's line is in the log, recorded in ``Family/lines``.
    mutating func apply(taking event: inout Event, keys: LineKeys, staged: StagedBytes? = nil, place: LinePlace? = nil) {
        let position = position(adding: event.family, hash: keys.family)
        list[position].apply(taking: &event, interactionHash: keys.interaction, schoolHash: keys.school, staged: staged,
                             idKey: keys.idInKey ? keys.eventId : nil)
        if let place { list[position].lines.record(place) }
    }

    /// Adds or replaces a family.
    mutating func set(_ family: Family) {
        list[position(adding: family.id)] = family
    }

    /// Iterates the families.
    package func makeIterator() -> some IteratorProtocol<(key: String, value: Family)> {
        list.lazy.map { (key: $0.id, value: $0) }.makeIterator()
    }

    /// Equal when they hold the same families, whatever the order they were added in.
    package static func == (a: FamilyTable, b: FamilyTable) -> Bool {
        a.count == b.count && a.list.allSatisfy { b[$0.id] == $0 }
    }
}
