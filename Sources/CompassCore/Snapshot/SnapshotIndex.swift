/// A snapshot opened without its families: its header, members and directory are read and
/// checked at once; a family's section and the event ids only when asked for.
package struct SnapshotIndex: Sendable {
    /// The snapshot with no families and no event ids; its state holds members and counts.
    package let base: ReplaySnapshot
    /// The ids of the families in the snapshot, in order.
    package let familyIds: [String]
    /// Where each family's section is, by family id.
    package let families: [String: Stored]
    let ids: Stored

    /// Where a section is in the file, and its SHA-256.
    package struct Stored: Sendable {
        package var range: Range<Int>
        package var digest: [UInt8]
    }

    /// Opens a snapshot of `size` bytes that `read` returns ranges of; nil unless it is of this
    /// format and its header and directory check.
    package static func open(size: Int, read: (Range<Int>) -> [UInt8]?) -> SnapshotIndex? {
        let codec = SnapshotCodec.self
        guard size >= codec.preambleLength, let preamble = read(0..<codec.preambleLength),
              preamble.starts(with: codec.magic) else { return nil }
        var offset = codec.magic.count
        func fixed() -> UInt64 {
            defer { offset += 8 }
            return preamble.littleEndian(at: offset)
        }
        guard fixed() == codec.formatVersion, fixed() == UInt64(size) else { return nil }
        var sections: [Stored] = []
        for _ in 0..<3 {
            let start = fixed(), length = fixed()
            guard start <= UInt64(size), length <= UInt64(size) - start else { return nil }
            sections.append(Stored(range: Int(start)..<Int(start + length), digest: Array(preamble[offset..<(offset + 32)])))
            offset += 32
        }
        guard let header = check(sections[0], read), let directory = check(sections[2], read),
              var base = decodeHeader(header) else { return nil }
        var families: [String: Stored] = [:]
        var familyIds: [String] = []
        let valid = directory.withUnsafeBufferPointer { buffer -> Bool in
            var r = ByteReader(buffer)
            guard let count = r.uint(), count <= UInt64(buffer.count) else { return false }
            for _ in 0..<count {
                guard let id = r.string(), let start = r.uint(), let length = r.uint(),
                      start <= UInt64(size), length <= UInt64(size) - start else { return false }
                let digest = r.take(32)
                guard digest.count == 32, families[id] == nil else { return false }
                families[id] = Stored(range: Int(start)..<Int(start + length), digest: Array(digest))
                familyIds.append(id)
            }
            return r.isAtEnd
        }
        guard valid else { return nil }
        base.state.families = FamilyTable()
        return SnapshotIndex(base: base, familyIds: familyIds, families: families, ids: sections[1])
    }

    /// The family's state, or nil when the family is not in the snapshot or its section
    /// does not check (``familyState(_:read:readLog:)`` tells the two apart).
    package func family(_ id: String, read: (Range<Int>) -> [UInt8]?, readLog: LogRead? = nil) -> Family? {
        if case .loaded(let family) = familyState(id, read: read, readLog: readLog) { return family }
        return nil
    }

    /// Reads the log's bytes in a range into the first bytes of a buffer (grown as needed);
    /// false when they cannot be read whole.
    package typealias LogRead = (_ range: Range<Int>, _ buffer: inout [UInt8]) -> Bool

    /// What the snapshot says of a family. A section that keeps its texts as ranges of the log
    /// has them read back through `readLog` when it is given (a read that shows texts; one that
    /// cannot be made makes the section unreadable), else leaves them there.
    package func familyState(_ id: String, read: (Range<Int>) -> [UInt8]?, readLog: LogRead? = nil) -> DeferredFamily {
        guard let section = families[id] else { return .absent }
        guard let bytes = Self.check(section, read), var family = SnapshotCodec.decodeFamily(bytes), family.id == id else {
            return .unreadable
        }
        if let readLog, family.interactions.holdsTextsInLog, !family.interactions.readTextsBack(readLog) { return .unreadable }
        return .loaded(family)
    }

    /// A family's section as stored (checked), with its digest, to copy into a newer snapshot.
    package func storedSection(_ id: String, read: (Range<Int>) -> [UInt8]?) -> SnapshotCodec.Section? {
        guard let family = families[id], let bytes = Self.check(family, read) else { return nil }
        return SnapshotCodec.Section(id: id, bytes: bytes, digest: family.digest)
    }

    /// A family's section as stored (checked), to copy into a newer snapshot unchanged.
    package func familySection(_ id: String, read: (Range<Int>) -> [UInt8]?) -> [UInt8]? {
        families[id].flatMap { Self.check($0, read) }
    }

    /// The ids of the events the snapshot covers, all read and checked, or nil when a part
    /// does not check.
    package func eventIds(read: (Range<Int>) -> [UInt8]?) -> EventIdSet? {
        withoutActuallyEscaping(read) { read in lazyEventIds(read: read)?.materialized() }
    }

    /// The ids with their keys left on disk: the index is read and checked now, a chunk of
    /// keys when a lookup needs it (``StoredKeys``). Nil when the index does not check.
    package func lazyEventIds(read: @escaping (Range<Int>) -> [UInt8]?) -> EventIdSet? {
        let start = ids.range.lowerBound
        guard ids.range.count >= 8, let length = read(start..<(start + 8)), length.count == 8 else { return nil }
        let indexLength = length.littleEndian(at: 0)
        guard indexLength <= UInt64(ids.range.count - 8), let index = read(start..<(start + 8 + Int(indexLength))),
              index.count == 8 + Int(indexLength), SHA256.digest(index) == ids.digest else { return nil }
        return index.withUnsafeBufferPointer { buffer -> EventIdSet? in
            var r = ByteReader(UnsafeBufferPointer(rebasing: buffer[8...]))
            let chunkBytes = StoredKeys.chunkPairs * 16
            guard let pairs = r.uint(), let chunkCount = r.uint(), pairs <= UInt64(ids.range.count / 16),
                  chunkCount == (pairs + UInt64(StoredKeys.chunkPairs) - 1) / UInt64(StoredKeys.chunkPairs),
                  8 + Int(indexLength) + Int(pairs) * 16 == ids.range.count else { return nil }
            var firstKeys: [UInt64] = [], digests: [[UInt8]] = [], ranges: [Range<Int>] = []
            var offset = start + 8 + Int(indexLength)
            for chunk in 0..<Int(chunkCount) {
                let first = r.take(16), digest = r.take(32)
                guard first.count == 16, digest.count == 32 else { return nil }
                firstKeys += StoredKeys.keys(first)
                digests.append(Array(digest))
                let size = min(chunkBytes, Int(pairs) * 16 - chunk * chunkBytes)
                ranges.append(offset..<(offset + size))
                offset += size
            }
            guard let zero = r.uint(), let others = r.strings(), r.isAtEnd else { return nil }
            let stored = StoredKeys(pairCount: Int(pairs), firstKeys: firstKeys, digests: digests, ranges: ranges, read: read)
            return EventIdSet(stored: stored, hasZero: zero == 1, others: Set(others))
        }
    }

    /// The whole snapshot: every family and the event ids.
    /// Texts kept as ranges of the log are read back through `readLog` when it is given, for
    /// every family together in the log's order (``InteractionTable/readTextsBack(_:blockSize:_:)``).
    package func whole(read: (Range<Int>) -> [UInt8]?, readLog: LogRead? = nil) -> ReplaySnapshot? {
        var snapshot = base
        guard let ids = eventIds(read: read) else { return nil }
        snapshot.state.eventIds = ids
        var families: [Family] = []
        for id in familyIds {
            guard let family = family(id, read: read) else { return nil }
            families.append(family)
        }
        if let readLog {
            let holding = families.indices.filter { families[$0].interactions.holdsTextsInLog }
            var tables = holding.map { families[$0].interactions }
            for index in holding { families[index].interactions = InteractionTable() }  // (not shared: no copy when read back)
            guard InteractionTable.readTextsBack(&tables, readLog) else { return nil }
            for (index, table) in zip(holding, tables) { families[index].interactions = table }
        }
        for family in families { snapshot.state.families.set(family) }
        return snapshot
    }

    /// What the next snapshot is made of, after a replay that ended at `snapshot`, resumed from
    /// `index` when it was given: the snapshot with every event id (read from `index` when the
    /// replay never needed them), every family id, and each family's section — encoded again
    /// when the replay has the family, copied from `index` otherwise (nil when that section does
    /// not check: then no snapshot is written). Nil when the ids cannot be had. A family whose
    /// texts the replay left in the log has them read back through `readLog` (a range of the
    /// log's bytes into a buffer; false when it cannot be read: then no snapshot is written).
    package static func successor(of snapshot: ReplaySnapshot, idsDeferred: Bool, resumedFrom index: SnapshotIndex?,
                                  read: @escaping (Range<Int>) -> [UInt8]?,
                                  readLog: (@Sendable (Range<Int>, inout [UInt8]) -> Bool)? = nil)
        -> (snapshot: ReplaySnapshot, familyIds: [String], section: (String) -> SnapshotCodec.Section?)? {
        var snapshot = snapshot
        if idsDeferred {
            guard let index, let ids = index.eventIds(read: read) else { return nil }
            snapshot.state.replaceEventIds(ids)
        } else {
            guard snapshot.state.materializeEventIds() else { return nil }
        }
        let families = snapshot.state.families
        let ids = Set(families.values.map(\.id)).union(index?.familyIds ?? []).sorted()
        return (snapshot, ids, { id in
            if var family = families[id] {
                // Texts a replay left in the log (`readLog` reads its bytes) are read back first,
                // unless the section keeps them as their ranges (no text of it was copied).
                if family.interactions.textsCopied, family.interactions.holdsTextsInLog {
                    guard let readLog, family.interactions.readTextsBack(readLog) else { return nil }
                }
                return SnapshotCodec.Section(family)
            }
            return index?.storedSection(id, read: read)
        })
    }

    static func check(_ section: Stored, _ read: (Range<Int>) -> [UInt8]?) -> [UInt8]? {
        guard let bytes = read(section.range), bytes.count == section.range.count,
              SHA256.digest(bytes) == section.digest else { return nil }
        return bytes
    }

    static func decodeHeader(_ bytes: [UInt8]) -> ReplaySnapshot? {
        bytes.withUnsafeBufferPointer { buffer -> ReplaySnapshot? in
            var r = ByteReader(buffer)
            guard let consumed = r.uint(), let head = r.string(), let lastLength = r.uint(), let lines = r.uint(),
                  lines <= UInt64(Int.max), let sealed = r.uint(), sealed <= lines, let streamCount = r.uint(),
                  streamCount <= UInt64(buffer.count) else { return nil }
            var streams: [FamilyStream] = []
            streams.reserveCapacity(Int(streamCount))
            for _ in 0..<streamCount {
                guard let family = r.string(), let seq = r.int(), let streamHead = r.string(), let line = r.uint(), line <= lines,
                      let count = r.uint(), count <= lines, let isSealed = r.uint(), isSealed <= 1 else { return nil }
                streams.append(FamilyStream(family: family, seq: seq, head: streamHead, line: Int(line), lines: Int(count),
                                            sealed: isSealed == 1))
            }
            guard let problemCount = r.uint(), let familyCount = r.uint(),
                  problemCount <= UInt64(Int.max), familyCount <= UInt64(buffer.count) else { return nil }
            var byFamily: [String?: ProblemSummary.Entry] = [:]
            for _ in 0..<familyCount {
                guard let named = r.uint() else { return nil }
                var family: String?
                if named == 1 { guard let text = r.string() else { return nil }; family = text }
                guard let count = r.uint(), count <= problemCount, let line = r.uint(), line <= UInt64(Int.max),
                      let message = r.string(), let rawKind = r.uint(), let kind = ProblemKind(rawValue: UInt8(truncatingIfNeeded: rawKind))
                else { return nil }
                byFamily[family] = ProblemSummary.Entry(count: Int(count),
                                                        first: Problem(line: Int(line), message: message, kind: kind, family: family))
            }
            let problems = ProblemSummary(count: Int(problemCount), byFamily: byFamily)
            var state = CompassState()
            for type in EventType.allCases {
                guard let count = r.uint() else { return nil }
                state.setCount(type, Int(count))
            }
            guard let live = r.int(), let erased = r.uint(), erased <= UInt64(Int.max), let memberCount = r.uint(),
                  memberCount <= UInt64(buffer.count) else { return nil }
            state.liveInteractionCount = Int(live)
            state.erasedLineCount = Int(erased)
            for _ in 0..<memberCount {
                guard let user = r.string(), let family = r.string(), let name = r.string(), let role = r.uint(), let joined = r.int(),
                      let joinedSeq = r.int() else { return nil }
                state.members[user] = Member(userId: user, family: family, fullName: name, role: role == 0 ? .player : .parent,
                                             joinedAt: Timestamp(millisecondsSinceEpoch: joined), joinedSeq: joinedSeq)
            }
            guard r.isAtEnd else { return nil }
            return ReplaySnapshot(state: state, problems: problems, linesRead: Int(lines), streams: StreamTable(streams), lastLineHash: head,
                                  lastLineLength: Int(lastLength), sealedLines: Int(sealed), consumedBytes: Int(consumed))
        }
    }
}
