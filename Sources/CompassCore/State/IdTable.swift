import CompassMachine

/// Records by their text id, in the order they were added: what a `[String: Value]` offers a
/// reader (``subscript(_:)``, ``keys``, ``values``, iteration as `(key, value)` pairs), found
/// through an index keyed by the id's hash (``PositionIndex``).
///
/// Replay works the hashes of the ids a line names (its actor, school and coach) out while the
/// line is prepared on another core, so the rules' lookups on the folding thread hash nothing:
/// with a dictionary they hashed three ids a line, a tenth of that thread's time. An id is kept
/// beside its record, so a lookup reads two places: the slot, then the entry. (Loading their
/// slots a few lines ahead, as the interactions' are, made no difference: A/B 0.999.)
package struct IdTable<Value: Sendable>: Sendable, Sequence {
    /// An id and its record.
    private struct Entry: Sendable {
        let key: String
        var value: Value
    }

    private var index = PositionIndex()
    private var entries: [Entry] = []

    package init() {}

    /// How many.
    package var count: Int { entries.count }
    /// Whether there are none.
    package var isEmpty: Bool { entries.isEmpty }
    /// The ids, in the order they were added.
    package var keys: [String] { entries.map(\.key) }
    /// The records, in the order they were added.
    package var values: [Value] { entries.map(\.value) }

    /// The record with this id; setting one adds or replaces it, setting nil removes it.
    package internal(set) subscript(id: String) -> Value? {
        get { position(of: id, hash: id.hashValue).map { entries[$0].value } }
        set {
            let hash = id.hashValue
            switch (position(of: id, hash: hash), newValue) {
            case (let position?, let value?): entries[position].value = value
            case (nil, let value?): add(id, value, hash: hash)
            case (let position?, nil): remove(at: position)
            case (nil, nil): break
            }
        }
    }

    /// Where the record with this id is in ``values``, its `hashValue` worked out ahead.
    @inline(__always) func position(of id: String, hash: Int) -> Int? {
        entries.withUnsafeBufferPointer { entries in index.position(hash: hash) { entries[$0].key == id } }
    }

    /// Whether a record has this id, its `hashValue` worked out ahead.
    @inline(__always) func contains(_ id: String, hash: Int) -> Bool { position(of: id, hash: hash) != nil }

    /// Reads the record with this id where it lies (no copy of it, so no reference count per
    /// text it holds); nil when there is none.
    @inline(__always) func read<R>(_ id: String, hash: Int, _ body: (UnsafePointer<Value>) -> R) -> R? {
        entries.withUnsafeBufferPointer { entries in
            index.position(hash: hash) { entries[$0].key == id }.map { body((entries.baseAddress! + $0).pointer(to: \.value)!) }
        }
    }

    /// ``read(_:hash:_:)`` in a table read where it lies (no reference count taken), as the
    /// rules read their family's tables.
    @inline(__always) static func read<R>(in table: UnsafePointer<IdTable>, _ id: String, hash: Int, _ body: (UnsafePointer<Value>) -> R) -> R? {
        table.pointer(to: \.entries)!.withElements { stored in
            guard !stored.isEmpty, let entries = stored.baseAddress else { return nil }
            return PositionIndex.position(in: table.pointer(to: \.index)!, hash: hash) { (entries + $0).pointee.key == id }
                .map { body((entries + $0).pointer(to: \.value)!) }
        }
    }

    /// ``contains(_:hash:)`` in a table read where it lies.
    @inline(__always) static func contains(in table: UnsafePointer<IdTable>, _ id: String, hash: Int) -> Bool {
        read(in: table, id, hash: hash) { _ in () } != nil
    }

    /// Starts loading the index slot where `hash` would be, in a table read where it lies (a
    /// hint; never faults).
    static func prefetchSlot(in table: UnsafePointer<IdTable>, hash: Int) {
        guard let index = table.pointer(to: \.index) else { return }
        PositionIndex.prefetch(in: index, hash: hash)
    }

    /// Starts loading the entry of the first record stored under `hash` (unconfirmed: a hint),
    /// once its slot is loaded.
    static func prefetchEntry(in table: UnsafePointer<IdTable>, hash: Int) {
        guard let position = PositionIndex.anyPosition(in: table.pointer(to: \.index)!, hash: hash) else { return }
        table.pointer(to: \.entries)!.withElements { entries in
            guard let base = entries.baseAddress, position < entries.count else { return }
            compass_prefetch(base + position)
        }
    }

    /// Mutates the record with this id in place, if there is one.
    mutating func update(_ id: String, hash: Int, _ body: (inout Value) -> Void) {
        guard let position = position(of: id, hash: hash) else { return }
        body(&entries[position].value)
    }

    /// Adds a record under an id that is not there yet.
    mutating func add(_ id: String, _ value: Value, hash: Int) {
        index.insert(hash: hash, position: entries.count)
        entries.append(Entry(key: id, value: value))
    }

    /// Removes a record (never on the fold's path: only an app editing a state by hand): the
    /// last one takes its place and the index is built again.
    private mutating func remove(at position: Int) {
        entries.swapAt(position, entries.count - 1)
        entries.removeLast()
        index = PositionIndex()
        for (position, entry) in entries.enumerated() { index.insert(hash: entry.key.hashValue, position: position) }
    }

    /// Iterates the records as `(key, value)` pairs, in the order they were added.
    package func makeIterator() -> some IteratorProtocol<(key: String, value: Value)> {
        entries.lazy.map { (key: $0.key, value: $0.value) }.makeIterator()
    }
}

extension IdTable: Equatable where Value: Equatable {
    /// Equal when they hold the same records under the same ids, whatever the order they
    /// were added in (as two dictionaries are).
    package static func == (a: IdTable, b: IdTable) -> Bool {
        a.count == b.count && a.allSatisfy { b[$0.key] == $0.value }
    }
}

extension IdTable: CustomStringConvertible {
    package var description: String {
        "[" + map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
