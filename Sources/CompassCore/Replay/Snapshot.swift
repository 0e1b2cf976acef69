/// The state of a replay after the first `consumedBytes` bytes of a log: everything needed
/// to go on with the rest of the file without reading the prefix again.
public struct ReplaySnapshot: Equatable, Sendable {
    public var state: CompassState
    public var problems: [Problem]
    public var linesRead: Int
    public var lastSeq: Int64
    /// SHA-256 of the last complete line before `consumedBytes`: the log must still end
    /// that prefix with that line for the snapshot to be used.
    public var headHash: String
    /// The length of that line, so a reader can check it without scanning backwards.
    public var lastLineLength: Int
    public var sealedLines: Int
    public var consumedBytes: Int
}

extension Replayer {
    /// A snapshot of the complete lines replayed so far. A torn last line is left out: it
    /// is not part of the prefix and will be read again.
    public var snapshot: ReplaySnapshot {
        var problems = problems
        var lines = linesRead
        if let last = problems.last, last.message == "torn last line", last.line == linesRead {
            problems.removeLast()
            lines -= 1
        }
        return ReplaySnapshot(state: state, problems: problems, linesRead: lines, lastSeq: lastSeq, headHash: headHash,
                              lastLineLength: lastLineLength, sealedLines: sealedLines, consumedBytes: consumedBytes)
    }
}

/// Snapshots as bytes: a compact, versioned binary form with dictionaries written in sorted
/// order, so the same state always encodes to the same bytes. A snapshot of another format
/// version, or one that does not decode completely, is nil: it is rebuilt, never trusted.
public enum SnapshotCodec {
    static let magic = Array("compass-snapshot\n".utf8)
    public static let formatVersion: UInt64 = 1

    public static func encode(_ s: ReplaySnapshot) -> [UInt8] {
        var w = ByteWriter()
        w.bytes += magic
        w.uint(formatVersion)
        w.uint(UInt64(s.consumedBytes))
        w.string(s.headHash)
        w.uint(UInt64(s.lastLineLength))
        w.uint(UInt64(s.linesRead))
        w.int(s.lastSeq)
        w.uint(UInt64(s.sealedLines))
        w.uint(UInt64(s.problems.count))
        for p in s.problems { w.uint(UInt64(p.line)); w.string(p.message) }
        let state = s.state
        w.strings(state.eventIds.sorted())
        w.uint(UInt64(state.families.count))
        for id in state.families.keys.sorted() { encode(state.families[id]!, state: state, into: &w) }
        return w.bytes
    }

    static func encode(_ f: Family, state: CompassState, into w: inout ByteWriter) {
        w.string(f.id)
        w.uint(UInt64(f.memberIds.count))
        for id in f.memberIds {
            let m = state.members[id]!
            w.string(id); w.string(m.fullName); w.uint(m.role == .player ? 0 : 1)
        }
        w.uint(UInt64(f.schools.count))
        for id in f.schools.keys.sorted() { let s = f.schools[id]!; w.string(s.id); w.string(s.name); w.optional(s.status) }
        w.uint(UInt64(f.coaches.count))
        for id in f.coaches.keys.sorted() {
            let c = f.coaches[id]!
            w.string(c.id); w.string(c.schoolId); w.string(c.firstName); w.string(c.lastName); w.string(c.role.rawValue)
        }
        w.uint(UInt64(f.interactionOrder.count))
        for id in f.interactionOrder {
            let r = f.interactions[id]!
            w.string(r.eventId); w.int(r.seq); w.int(r.at.millisecondsSinceEpoch); w.string(r.loggedBy)
            let i = r.logged
            w.string(i.interactionId); w.optional(i.schoolId); w.optional(i.coachId); w.optional(i.eventId); w.optional(i.otherCoachName)
            w.string(i.type.rawValue); w.string(i.direction.rawValue)
            w.optionalInt(i.occurredAt?.millisecondsSinceEpoch)
            w.optional(i.subject); w.optional(i.content); w.optional(i.sentiment?.rawValue)
            if let answers = i.interestAnswers {
                w.uint(1); w.uint(UInt64(answers.enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) }))
            } else { w.uint(0) }
            w.uint(UInt64(i.attachments.map { $0.count + 1 } ?? 0))
            for a in i.attachments ?? [] { w.string(a.name); w.int(a.sizeBytes); w.string(a.mimeType); w.optional(a.sha256) }
            if let d = r.deletion { w.uint(1); w.string(d.eventId); w.int(d.at.millisecondsSinceEpoch); w.string(d.by) } else { w.uint(0) }
        }
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
            w.optional(d.document.fileName); w.optionalInt(d.document.sizeBytes)
        }
    }

    /// The snapshot, or nil when the bytes are not a complete snapshot of this format.
    public static func decode(_ bytes: [UInt8]) -> ReplaySnapshot? {
        bytes.withUnsafeBufferPointer { buffer in
            var r = ByteReader(buffer)
            guard r.take(magic.count).elementsEqual(magic), r.uint() == formatVersion else { return nil }
            guard let consumed = r.uint(), let head = r.string(), let lastLength = r.uint(), let lines = r.uint(),
                  let lastSeq = r.int(), let sealed = r.uint(), let problemCount = r.uint() else { return nil }
            var problems: [Problem] = []
            for _ in 0..<problemCount {
                guard let line = r.uint(), let message = r.string() else { return nil }
                problems.append(Problem(line: Int(line), message: message))
            }
            var state = CompassState()
            guard let ids = r.strings() else { return nil }
            state.eventIds = EventIdSet(ids)
            guard let familyCount = r.uint() else { return nil }
            for _ in 0..<familyCount {
                guard let family = decodeFamily(&r, state: &state) else { return nil }
                state.families.set(family)
            }
            guard r.isAtEnd else { return nil }
            return ReplaySnapshot(state: state, problems: problems, linesRead: Int(lines), lastSeq: lastSeq, headHash: head,
                                  lastLineLength: Int(lastLength), sealedLines: Int(sealed), consumedBytes: Int(consumed))
        }
    }

    static func decodeFamily(_ r: inout ByteReader, state: inout CompassState) -> Family? {
        guard let id = r.string(), let memberCount = r.uint() else { return nil }
        var f = Family(id: id)
        for _ in 0..<memberCount {
            guard let user = r.string(), let name = r.string(), let role = r.uint() else { return nil }
            f.memberIds.append(user)
            state.members[user] = Member(userId: user, family: id, fullName: name, role: role == 0 ? .player : .parent)
            state.count(.memberJoined)
        }
        guard let schoolCount = r.uint() else { return nil }
        for _ in 0..<schoolCount {
            guard let sid = r.string(), let name = r.string(), let status = r.optional() else { return nil }
            f.schools[sid] = School(id: sid, name: name, status: status)
            state.count(.schoolAdded)
        }
        guard let coachCount = r.uint() else { return nil }
        for _ in 0..<coachCount {
            guard let cid = r.string(), let school = r.string(), let first = r.string(), let last = r.string(),
                  let role = r.string().flatMap(CoachRole.init) else { return nil }
            f.coaches[cid] = Coach(id: cid, schoolId: school, firstName: first, lastName: last, role: role)
            state.count(.coachAdded)
        }
        guard let interactionCount = r.uint() else { return nil }
        f.interactions.reserveCapacity(Int(interactionCount))
        for _ in 0..<interactionCount {
            guard let eventId = r.string(), let seq = r.int(), let at = r.int(), let by = r.string(),
                  let iid = r.string(), let school = r.optional(), let coach = r.optional(), let event = r.optional(),
                  let other = r.optional(), let type = r.string().flatMap(InteractionType.init),
                  let direction = r.string().flatMap(Direction.init), let occurred = r.optionalInt(),
                  let subject = r.optional(), let content = r.optional(), let sentimentText = r.optional(),
                  let hasAnswers = r.uint() else { return nil }
            var answers: [Bool]?
            if hasAnswers == 1 {
                guard let bits = r.uint() else { return nil }
                answers = (0..<6).map { bits & (1 << $0) != 0 }
            }
            guard let attachmentTag = r.uint() else { return nil }
            var attachments: [Attachment]?
            if attachmentTag > 0 {
                attachments = []
                for _ in 0..<(attachmentTag - 1) {
                    guard let name = r.string(), let size = r.int(), let mime = r.string(), let sha = r.optional() else { return nil }
                    attachments?.append(Attachment(name: name, sizeBytes: size, mimeType: mime, sha256: sha))
                }
            }
            let logged = InteractionLogged(
                interactionId: iid, schoolId: school, coachId: coach, eventId: event, otherCoachName: other, type: type,
                direction: direction, occurredAt: occurred.map(Timestamp.init(millisecondsSinceEpoch:)), subject: subject,
                content: content, sentiment: sentimentText.flatMap(Sentiment.init), interestAnswers: answers, attachments: attachments)
            var record = InteractionRecord(eventId: eventId, seq: seq, at: Timestamp(millisecondsSinceEpoch: at), loggedBy: by, logged: logged)
            guard let deleted = r.uint() else { return nil }
            if deleted == 1 {
                guard let did = r.string(), let dat = r.int(), let dby = r.string() else { return nil }
                record.deletion = Deletion(eventId: did, at: Timestamp(millisecondsSinceEpoch: dat), by: dby)
                state.count(.interactionDeleted)
            } else {
                state.liveInteractionCount += 1
            }
            f.interactions[iid] = record
            f.interactionOrder.append(iid)
            state.count(.interactionLogged)
        }
        guard let changeCount = r.uint() else { return nil }
        for _ in 0..<changeCount {
            guard let eventId = r.string(), let seq = r.int(), let at = r.int(), let actor = r.string(), let school = r.string(),
                  let status = r.string(), let notes = r.optional() else { return nil }
            f.statusChanges.append(StatusChangeRecord(eventId: eventId, seq: seq, at: Timestamp(millisecondsSinceEpoch: at), actor: actor,
                                                      change: SchoolStatusChanged(schoolId: school, newStatus: status, notes: notes)))
            state.count(.schoolStatusChanged)
        }
        guard let documentCount = r.uint() else { return nil }
        for _ in 0..<documentCount {
            guard let eventId = r.string(), let seq = r.int(), let at = r.int(), let actor = r.string(), let did = r.string(),
                  let title = r.string(), let type = r.string(), let file = r.optional(), let size = r.optionalInt() else { return nil }
            f.documents[did] = DocumentRecord(eventId: eventId, seq: seq, at: Timestamp(millisecondsSinceEpoch: at), actor: actor,
                                              document: DocumentUploaded(documentId: did, title: title, docType: type, fileName: file, sizeBytes: size))
            f.documentOrder.append(did)
            state.count(.documentUploaded)
        }
        return f
    }
}

/// Little-endian base-128 integers and length-prefixed UTF-8 strings.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func uint(_ value: UInt64) {
        var v = value
        while v >= 0x80 { bytes.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    mutating func int(_ value: Int64) { uint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
    mutating func string(_ s: String) { uint(UInt64(s.utf8.count)); bytes += s.utf8 }
    mutating func optional(_ s: String?) { if let s { uint(1); string(s) } else { uint(0) } }
    mutating func optionalInt(_ v: Int64?) { if let v { uint(1); int(v) } else { uint(0) } }
    mutating func strings(_ list: [String]) { uint(UInt64(list.count)); for s in list { string(s) } }
}

/// Reads what ``ByteWriter`` wrote; every read is nil past the end.
struct ByteReader {
    let buffer: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    var isAtEnd: Bool { index == buffer.count }

    mutating func take(_ count: Int) -> UnsafeBufferPointer<UInt8> {
        let end = min(buffer.count, index + count)
        defer { index = end }
        return UnsafeBufferPointer(rebasing: buffer[index..<end])
    }

    mutating func uint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < buffer.count, shift < 64 {
            let byte = buffer[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    mutating func int() -> Int64? {
        guard let u = uint() else { return nil }
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    mutating func string() -> String? {
        guard let count = uint(), count <= UInt64(buffer.count - index) else { return nil }
        return String(decoding: take(Int(count)), as: UTF8.self)
    }

    mutating func optional() -> String?? {
        guard let tag = uint() else { return nil }
        if tag == 0 { return .some(nil) }
        guard let s = string() else { return nil }
        return .some(s)
    }

    mutating func optionalInt() -> Int64?? {
        guard let tag = uint() else { return nil }
        if tag == 0 { return .some(nil) }
        guard let v = int() else { return nil }
        return .some(v)
    }

    mutating func strings() -> [String]? {
        guard let count = uint(), count <= UInt64(buffer.count - index) else { return nil }
        var out: [String] = []
        out.reserveCapacity(Int(count))
        for _ in 0..<count { guard let s = string() else { return nil }; out.append(s) }
        return out
    }
}
