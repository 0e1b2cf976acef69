/// Everything the read models need, folded from the applied events of a log.
///
/// Build it with ``apply(_:)`` only after ``Rules/decide(_:in:sanitizing:)`` accepted the event.
public struct CompassState: Equatable, Sendable {
    /// Members of every family, by user id (user ids are global), in the order they joined.
    package internal(set) var members = IdTable<Member>()
    /// Families by family id.
    package internal(set) var families = FamilyTable()
    /// Ids of applied events (for duplicate detection and idempotent appends).
    package internal(set) var eventIds = EventIdSet()
    /// Applied events per type, in the order of `EventType.allCases`.
    private var typeCounts = [Int](repeating: 0, count: EventType.allCases.count)
    /// Live interactions over all families.
    public internal(set) var liveInteractionCount = 0
    /// `Erased` records read (SPEC §5): lines an erasure replaced, skipped by replay.
    public internal(set) var erasedLineCount = 0

    public init() {}

    /// Reads every event id still left in a snapshot's chunks into memory (to write them
    /// again); false when a chunk does not check.
    package mutating func materializeEventIds() -> Bool {
        guard let ids = eventIds.materialized() else { return false }
        eventIds = ids
        return true
    }

    /// Reads back, through `read`, the subjects and contents a replay left in the log
    /// (``Replayer/textsStayInLog``) of every family that holds some: `inBlocks` (every family
    /// of the log, as a replay of the whole log holds), the log is read once, in blocks, in its
    /// order; else each family's rows are read one by one (a viewer's family read from a
    /// snapshot). False, with some tables read back in part, when a range cannot be read whole.
    package mutating func readTextsBack(inBlocks: Bool, _ read: (_ range: Range<Int>, _ buffer: inout [UInt8]) -> Bool) -> Bool {
        let positions = families.list.indices.filter { families.list[$0].interactions.holdsTextsInLog }
        guard !positions.isEmpty else { return true }
        if !inBlocks {
            return positions.allSatisfy { position in families.update(at: position) { $0.interactions.readTextsBack(read) } }
        }
        // The tables are taken out of their families while they are read back (no copy of them).
        var tables = positions.map { position in families.update(at: position) { family in
            var table = InteractionTable()
            swap(&table, &family.interactions)
            return table
        } }
        let read = InteractionTable.readTextsBack(&tables, read)
        for (k, position) in positions.enumerated() { families.update(at: position) { swap(&$0.interactions, &tables[k]) } }
        return read
    }

    /// Takes a snapshot's event ids (read after a replay that never needed them).
    package mutating func replaceEventIds(_ ids: EventIdSet) { eventIds = ids }

    /// Makes room for about `events` events without growing the id table again.
    public mutating func reserveCapacity(events: Int) {
        eventIds.reserveCapacity(events)
    }

    /// Applied events per type (types with none are left out).
    public var countsByType: [EventType: Int] {
        var counts: [EventType: Int] = [:]
        for (type, count) in zip(EventType.allCases, typeCounts) where count > 0 { counts[type] = count }
        return counts
    }

    /// Sets the count of applied events of a type (a snapshot's header).
    mutating func setCount(_ type: EventType, _ count: Int) {
        typeCounts[type.ordinal] = count
    }

    /// Counts one more applied event of a type.
    mutating func count(_ type: EventType) {
        typeCounts[type.ordinal] += 1
    }

    /// The family a user belongs to, if they are a member.
    public func family(of userId: String) -> Family? {
        guard let member = members[userId] else { return nil }
        return families[member.family]
    }

    /// Applied events over all types.
    public var appliedCount: Int { typeCounts.reduce(0, +) }

    /// A member by user id (user ids are global), if they are one.
    public func member(_ userId: String) -> Member? { members[userId] }

    /// A family by id, if it has a line.
    public func family(id: String) -> Family? { families[id] }

    /// The ids of every family, in the order their first lines came.
    public var familyIds: [String] { families.keys }

    /// Counts an `Erased` record of `family`: not applied, but it keeps its place in the
    /// family's history, so the family's version never goes back after an erasure. (Nil: the
    /// record of a line that was in no stream, counted only in the log's total.)
    mutating func noteErased(family: String?, place: LinePlace? = nil) {
        erasedLineCount += 1
        if let family, let position = families.position(of: family) {
            families.update(at: position) {
                $0.version += 1
                $0.erasedLines += 1
                if let place { $0.lines.record(place) }
            }
        }
    }

    /// Folds one accepted event into the state.
    ///
    /// - Complexity: O(1) amortized: the family is mutated in place, never copied.
    public mutating func apply(_ event: consuming Event) {
        let keys = LineKeys(id: event.id, actor: event.actor, family: event.family, payload: event.payload)
        apply(event, keys: keys)
    }

    /// ``apply(_:)`` with the keys of its lookups worked out ahead (by the line's preparation).
    ///
    /// - Parameter staged: texts of the event staged outside it (``TextStaging``).
    mutating func apply(_ event: consuming Event, keys: LineKeys, staged: StagedBytes? = nil, place: LinePlace? = nil) {
        var event = event
        apply(taking: &event, keys: keys, staged: staged, place: place)
    }

    /// ``apply(_:)`` of an event read from the log at `place`.
    mutating func apply(_ event: consuming Event, place: LinePlace) {
        let keys = LineKeys(id: event.id, actor: event.actor, family: event.family, payload: event.payload)
        apply(event, keys: keys, place: place)
    }

    /// Records where a line of `family` this state already folded is in the log (a line a
    /// writer appended).
    mutating func recordLine(of family: String, at place: LinePlace) {
        guard let position = families.position(of: family) else { return }
        families.update(at: position) { $0.lines.record(place) }
    }

    /// ``apply(_:keys:staged:)`` of an event where it lies (a prepared line's), its parts moved
    /// out of it: the event is left empty. (Moving the event out of the line first copied its
    /// 240 bytes; reading its parts in place without taking them copied each text, a reference
    /// count, and freed the copies.)
    mutating func apply(taking event: inout Event, keys: LineKeys, staged: StagedBytes? = nil, place: LinePlace? = nil) {
        eventIds.insert(event.id, key: keys.eventId)
        let type = event.type
        count(type)
        // Switched on the type, not matched against the payload: each `if case` on the payload
        // copied it (a reference count per text) for every line.
        switch type {
        case .memberJoined:
            if case .memberJoined(let joined) = event.payload {
                members[joined.userId] = Member(userId: joined.userId, family: event.family, fullName: joined.fullName, role: joined.role,
                                                joinedAt: event.at, joinedSeq: event.seq)
            }
        case .interactionLogged: liveInteractionCount += 1
        case .interactionDeleted: liveInteractionCount -= 1
        default: break
        }
        families.apply(taking: &event, keys: keys, staged: staged, place: place)
    }
}
