/// Snapshots as bytes (format 9): everything but the families in a header, the event ids,
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
    package static let formatVersion: UInt64 = 9
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
        f.lines.encode(into: &w)
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
            guard let lines = FamilyLines.decode(from: &r) else { return nil }
            f.lines = lines
            return r.isAtEnd ? f : nil
        }
    }
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
