/// Snapshots as bytes (format 8): everything but the families in a header, the event ids,
/// a directory, then one section per family. Each section carries its own SHA-256, so a
/// reader loads and checks only what it needs: a query reads the header and its own family.
///
/// A family section says first whether it keeps the subjects and contents its replay left in
/// the log (plain JSON strings, ``Replayer/textsStayInLog``) as their ranges there, or holds
/// every text's bytes (a replay that copied them). The `prev` chain a replay checks already
/// proves the log's texts; a section that points at them needs no second proof, is a third of
/// the size, and is written without reading them back. A read that shows texts reads them back
/// from the log (``SnapshotIndex/familyState(_:read:readLog:)``).
///
/// Layout (fixed-width integers little-endian, the rest base-128 and length-prefixed):
///
///     "compass-snapshot\n"  format version (8)  total length (8)
///     header, ids, directory: offset (8), length (8), SHA-256 (32) each
///     header section | ids section | family sections, in id order | directory section
///
/// The directory comes last so a writer can stream the family sections, one at a time, and
/// write the preamble (which holds the directory's digest) at the end.
///
/// Dictionaries are written in sorted order, so the same state always encodes to the same
/// bytes. A snapshot of another format version, or one whose bytes do not check, is not
/// used: it is rebuilt, never trusted.
package enum SnapshotCodec {
    static let magic = Array("compass-snapshot\n".utf8)
    package static let formatVersion: UInt64 = 8
    static let preambleLength = magic.count + 8 + 8 + 3 * (8 + 8 + 32)

    /// One family's encoded section, with its SHA-256 (sections are independent: a writer may
    /// encode them on several cores).
    package struct Section: Sendable {
        package var id: String
        package var bytes: [UInt8]
        package var digest: [UInt8]

        package init(id: String, bytes: [UInt8]) {
            self.id = id
            self.bytes = bytes
            self.digest = SHA256.digest(bytes)
        }

        /// The section of a family.
        package init(_ family: Family) { self.init(id: family.id, bytes: SnapshotCodec.familySection(family)) }

        /// A section whose digest is already known (copied from a snapshot that checked it).
        package init(id: String, bytes: [UInt8], digest: [UInt8]) {
            self.id = id
            self.bytes = bytes
            self.digest = digest
        }
    }

    /// The bytes of a whole snapshot.
    package static func encode(_ snapshot: ReplaySnapshot) -> [UInt8] {
        parts(snapshot, families: snapshot.state.families.values.map(Section.init)).reduce(into: []) { $0 += $1 }
    }

    /// A snapshot as consecutive pieces, to be written one after another (no copy of the whole):
    /// the preamble, header and ids, the family sections in id order, then the directory. The
    /// family sections are given (encoded again, or copied from an earlier snapshot for
    /// families the replay never loaded); `snapshot.state.families` is not read.
    package static func parts(_ snapshot: ReplaySnapshot, families: [Section]) -> [[UInt8]] {
        var stream = SnapshotStream(snapshot)
        let sorted = families.sorted { $0.id < $1.id }
        for family in sorted { stream.add(family) }
        let (directory, preamble) = stream.closing()
        return [preamble, stream.header, stream.ids] + sorted.map(\.bytes) + [directory]
    }

    /// Everything the state holds outside its families: position, problems, counts, members.
    static func headerSection(_ s: ReplaySnapshot) -> [UInt8] {
        var w = ByteWriter()
        w.uint(UInt64(s.consumedBytes))
        w.string(s.lastLineHash)
        w.uint(UInt64(s.lastLineLength))
        w.uint(UInt64(s.linesRead))
        w.uint(UInt64(s.sealedLines))
        // Every family's stream, sorted by family id: what the next line of each is checked against.
        let streams = s.streams.sorted
        w.uint(UInt64(streams.count))
        for stream in streams {
            w.string(stream.family); w.int(stream.seq); w.string(stream.head.text); w.uint(UInt64(stream.line))
            w.uint(UInt64(stream.lines)); w.uint(stream.sealed ? 1 : 0)
        }
        // Problems in bounded space: the count, then per family (unnamed lines first) how many
        // and the first one.
        w.uint(UInt64(s.problems.count))
        let families = s.problems.byFamily.keys.sorted { ($0 ?? "") < ($1 ?? "") || ($0 == nil && $1 != nil) }
        w.uint(UInt64(families.count))
        for family in families {
            let entry = s.problems.byFamily[family]!
            w.uint(family == nil ? 0 : 1)
            if let family { w.string(family) }
            w.uint(UInt64(entry.count))
            w.uint(UInt64(entry.first.line)); w.string(entry.first.message); w.uint(UInt64(entry.first.kind.rawValue))
        }
        let counts = s.state.countsByType
        for type in EventType.allCases { w.uint(UInt64(counts[type] ?? 0)) }
        w.int(Int64(s.state.liveInteractionCount))
        w.uint(UInt64(s.state.erasedLineCount))
        w.uint(UInt64(s.state.members.count))
        for id in s.state.members.keys.sorted() {
            let m = s.state.members[id]!
            w.string(id); w.string(m.family); w.string(m.fullName); w.uint(m.role == .player ? 0 : 1); w.int(m.joinedAt.millisecondsSinceEpoch); w.int(m.joinedSeq)
        }
        return w.bytes
    }

    /// The event ids: an index (key count, each chunk's first key and SHA-256, the zero key,
    /// the ids not in UUID form) behind its own length, then the sorted keys in chunks of
    /// ``StoredKeys/chunkPairs``. The preamble's digest covers the length and the index; the
    /// index covers each chunk, so a lookup reads and checks the index and one chunk.
    static func idsSection(_ ids: EventIdSet) -> [UInt8] {
        let keys = ids.sortedKeys()
        let pairs = keys.count / 2
        let chunkWords = StoredKeys.chunkPairs * 2
        /// Calls `body` with a chunk's bytes: its keys, little-endian (on a little-endian CPU,
        /// the keys' own memory: a million ids are not spelled a byte at a time).
        func withChunkBytes<R>(_ start: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            let chunk = keys[start..<min(keys.count, start + chunkWords)]
            #if _endian(little)
            return chunk.withUnsafeBytes { body($0.assumingMemoryBound(to: UInt8.self)) }
            #else
            return chunk.map(\.littleEndian).withUnsafeBytes { body($0.assumingMemoryBound(to: UInt8.self)) }
            #endif
        }
        // Each chunk's SHA-256, two chunks hashed together (a million ids are 245 chunks).
        let starts = Array(stride(from: 0, to: keys.count, by: chunkWords))
        var digests: [[UInt8]] = []
        digests.reserveCapacity(starts.count)
        for pair in stride(from: 0, to: starts.count, by: 2) {
            guard pair + 1 < starts.count else {
                digests.append(withChunkBytes(starts[pair]) { SHA256.digest($0) })
                break
            }
            var (a, b) = (SHA256(), SHA256())
            withChunkBytes(starts[pair]) { first in withChunkBytes(starts[pair + 1]) { second in SHA256.update(&a, first, &b, second) } }
            digests += [a.finalize(), b.finalize()]
        }
        var index = ByteWriter()
        index.uint(UInt64(pairs))
        index.uint(UInt64((pairs + StoredKeys.chunkPairs - 1) / StoredKeys.chunkPairs))
        for (start, digest) in zip(starts, digests) {
            index.bytes.appendLittleEndian(keys[start])
            index.bytes.appendLittleEndian(keys[start + 1])
            index.bytes += digest
        }
        index.uint(ids.containsZeroKey ? 1 : 0)
        index.strings(ids.otherIds.sorted())
        // The index goes first, so the chunks are spelled again after it (a chunk at a time)
        // rather than kept whole twice: a million ids are 16 MB a copy.
        var section: [UInt8] = []
        section.reserveCapacity(8 + index.bytes.count + keys.count * 8)
        section.appendLittleEndian(UInt64(index.bytes.count))
        section += index.bytes
        for start in stride(from: 0, to: keys.count, by: chunkWords) { withChunkBytes(start) { section.append(contentsOf: $0) } }
        return section
    }

    /// How many leading bytes of an id section its digest covers: the length and the index.
    static func idsIndexLength(_ section: [UInt8]) -> Int {
        8 + Int(section.littleEndian(at: 0))
    }

    /// One family's section.
    package static func familySection(_ f: Family) -> [UInt8] {
        var w = ByteWriter()
        // Most of a section is its interactions: their texts plus a few bytes a field (grown by
        // doubling, the buffer was copied and faulted in again about twice over).
        w.bytes.reserveCapacity(f.interactions.textBytes + f.interactions.count * 40 + (f.statusChanges.count + f.documents.count) * 160 + 4_096)
        writeSectionHead(f, ranges: !f.interactions.textsCopied, into: &w)
        f.interactions.encode(into: &w)
        writeSectionTail(f, into: &w)
        return w.bytes
    }

    /// What a family's section holds before its interactions, first whether it keeps the
    /// subjects and contents left in the log as their `ranges` there (1) or holds their bytes (0).
    static func writeSectionHead(_ f: Family, ranges: Bool, into w: inout ByteWriter) {
        w.uint(ranges ? 1 : 0)
        w.string(f.id)
        w.uint(UInt64(f.version))
        w.uint(UInt64(f.erasedLines))
        w.strings(f.memberIds)
        w.uint(UInt64(f.schools.count))
        for id in f.schools.keys.sorted() {
            let s = f.schools[id]!
            w.string(s.id); w.string(s.name); w.optional(s.status); w.int(s.addedAt.millisecondsSinceEpoch)
        }
        w.uint(UInt64(f.coaches.count))
        for id in f.coaches.keys.sorted() {
            let c = f.coaches[id]!
            w.string(c.id); w.string(c.schoolId); w.string(c.firstName); w.string(c.lastName); w.choice(c.role)
        }
    }

    /// What a family's section holds after its interactions.
    static func writeSectionTail(_ f: Family, into w: inout ByteWriter) {
        w.uint(UInt64(f.statusChanges.count))
        for c in f.statusChanges {
            w.string(c.eventId); w.int(c.seq); w.int(c.at.millisecondsSinceEpoch); w.string(c.actor)
            w.string(c.change.schoolId); w.string(c.change.newStatus); w.optional(c.change.notes)
        }
        w.uint(UInt64(f.documentOrder.count))
        for id in f.documentOrder {
            let d = f.documents[id]!
            w.string(d.eventId); w.int(d.seq); w.int(d.at.millisecondsSinceEpoch); w.string(d.actor)
            w.string(d.document.documentId); w.string(d.document.title); w.string(d.document.docType)
            w.optional(d.document.fileName); w.optionalInt(d.document.sizeBytes); w.optional(d.document.sha256)
        }
        w.uint(UInt64(f.alertSettings.count))
        for user in f.alertSettings.keys.sorted() {
            let settings = f.alertSettings[user]!
            w.string(user)
            w.uint(UInt64(settings.count))
            for setting in settings { w.int(setting.seq); w.uint(setting.inboundAlerts ? 1 : 0) }
        }
        w.uint(UInt64(f.readUpTo.count))
        for user in f.readUpTo.keys.sorted() { w.string(user); w.int(f.readUpTo[user]!) }
    }

    /// A whole snapshot held in memory, or nil when it is not a complete snapshot of this format.
    /// With no log beside it, a section that points into one for its texts is not complete.
    package static func decode(_ bytes: [UInt8]) -> ReplaySnapshot? {
        let read = { (range: Range<Int>) -> [UInt8]? in range.upperBound <= bytes.count ? Array(bytes[range]) : nil }
        return SnapshotIndex.open(size: bytes.count, read: read)?.whole(read: read, readLog: { _, _ in false })
    }

    static func decodeFamily(_ section: [UInt8]) -> Family? {
        section.withUnsafeBufferPointer { buffer -> Family? in
            var r = ByteReader(buffer)
            guard let texts = r.uint(), texts <= 1,
                  let id = r.string(), let version = r.uint(), version <= UInt64(Int.max), let erased = r.uint(), erased <= version,
                  let memberIds = r.strings() else { return nil }
            var f = Family(id: id)
            f.version = Int(version)
            f.erasedLines = Int(erased)
            f.memberIds = memberIds
            let coachRoles = CoachRole.allCases
        guard let schoolCount = r.uint() else { return nil }
        for _ in 0..<schoolCount {
            guard let sid = r.string(), let name = r.string(), let status = r.optional(), let added = r.int() else { return nil }
            f.schools[sid] = School(id: sid, name: name, status: status, addedAt: Timestamp(millisecondsSinceEpoch: added))
        }
        guard let coachCount = r.uint() else { return nil }
        for _ in 0..<coachCount {
            guard let cid = r.string(), let school = r.string(), let first = r.string(), let last = r.string(),
                  let role = r.choice(coachRoles) else { return nil }
            f.coaches[cid] = Coach(id: cid, schoolId: school, firstName: first, lastName: last, role: role)
        }
        guard let interactionCount = r.uint(), f.interactions.decode(interactionCount, from: &r, ranges: texts == 1) else { return nil }
        guard let changeCount = r.uint() else { return nil }
        for _ in 0..<changeCount {
            guard let eventId = r.string(), let seq = r.int(), let at = r.int(), let actor = r.string(), let school = r.string(),
                  let status = r.string(), let notes = r.optional() else { return nil }
            f.statusChanges.append(StatusChangeRecord(eventId: eventId, seq: seq, at: Timestamp(millisecondsSinceEpoch: at), actor: actor,
                                                      change: SchoolStatusChanged(schoolId: school, newStatus: status, notes: notes)))
        }
        guard let documentCount = r.uint() else { return nil }
        for _ in 0..<documentCount {
            guard let eventId = r.string(), let seq = r.int(), let at = r.int(), let actor = r.string(), let did = r.string(),
                  let title = r.string(), let type = r.string(), let file = r.optional(), let size = r.optionalInt(),
                  let hash = r.optional() else { return nil }
            f.documents[did] = DocumentRecord(eventId: eventId, seq: seq, at: Timestamp(millisecondsSinceEpoch: at), actor: actor,
                                              document: DocumentUploaded(documentId: did, title: title, docType: type, fileName: file,
                                                                         sizeBytes: size, sha256: hash))
            f.documentOrder.append(did)
        }
        guard let settingsCount = r.uint(), settingsCount <= UInt64(buffer.count) else { return nil }
        for _ in 0..<settingsCount {
            guard let user = r.string(), let count = r.uint(), count <= UInt64(buffer.count) else { return nil }
            var settings: [AlertSetting] = []
            for _ in 0..<count {
                guard let seq = r.int(), let on = r.uint() else { return nil }
                settings.append(AlertSetting(seq: seq, inboundAlerts: on == 1))
            }
            f.alertSettings[user] = settings
        }
        guard let readCount = r.uint(), readCount <= UInt64(buffer.count) else { return nil }
        for _ in 0..<readCount {
            guard let user = r.string(), let upTo = r.int() else { return nil }
            f.readUpTo[user] = upTo
        }
            return r.isAtEnd ? f : nil
        }
    }
}

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

/// What a snapshot says of one family.
package enum DeferredFamily: Sendable {
    /// The snapshot has no such family (its first event is still to come).
    case absent
    case loaded(Family)
    /// The family's section cannot be read or does not check: the snapshot cannot be used.
    case unreadable
}

extension Array where Element == UInt8 {
    mutating func appendLittleEndian(_ value: UInt64) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    func littleEndian(at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for k in 0..<8 { value |= UInt64(self[offset + k]) << UInt64(8 * k) }
        return value
    }
}

/// A snapshot written piece by piece (see ``SnapshotCodec``): first ``opening`` (a placeholder
/// for the preamble, the header and the ids), then each family section as it is encoded, in id
/// order, then the directory; the preamble, known only then, goes over the placeholder. Only
/// one family's bytes need be in memory at a time.
package struct SnapshotStream {
    package let header: [UInt8]
    package let ids: [UInt8]
    private var entries: [(id: String, length: Int, digest: [UInt8])] = []

    package init(_ snapshot: ReplaySnapshot) {
        header = SnapshotCodec.headerSection(snapshot)
        ids = SnapshotCodec.idsSection(snapshot.state.eventIds)
    }

    /// What to write first: zeros where the preamble goes, the header, the ids.
    package var opening: [[UInt8]] { [[UInt8](repeating: 0, count: SnapshotCodec.preambleLength), header, ids] }

    /// Records a family section just written (sections come in id order).
    package mutating func add(_ section: SnapshotCodec.Section) {
        add(id: section.id, length: section.bytes.count, digest: section.digest)
    }

    /// Records a family section by its id, length and SHA-256 (its bytes already compared).
    package mutating func add(id: String, length: Int, digest: [UInt8]) {
        entries.append((id, length, digest))
    }

    /// The directory, to write after the last family section, and the preamble for offset 0.
    package func closing() -> (directory: [UInt8], preamble: [UInt8]) {
        let codec = SnapshotCodec.self
        var w = ByteWriter()
        w.uint(UInt64(entries.count))
        var offset = codec.preambleLength + header.count + ids.count
        for entry in entries {
            w.string(entry.id)
            w.uint(UInt64(offset))
            w.uint(UInt64(entry.length))
            w.bytes += entry.digest
            offset += entry.length
        }
        let directory = w.bytes
        var preamble = codec.magic
        preamble.appendLittleEndian(codec.formatVersion)
        preamble.appendLittleEndian(UInt64(offset + directory.count))
        let starts = [codec.preambleLength, codec.preambleLength + header.count, offset]
        for (number, section) in [header, ids, directory].enumerated() {
            preamble.appendLittleEndian(UInt64(starts[number]))
            preamble.appendLittleEndian(UInt64(section.count))
            preamble += SHA256.digest(number == 1 ? Array(section[..<SnapshotCodec.idsIndexLength(section)]) : section)
        }
        return (directory, preamble)
    }
}
