/// What to erase (SPEC §5).
public enum ErasureTarget: Hashable, Sendable {
    /// One member of the requester's family: by a parent, or by the member.
    case member(String)
    /// The requester's whole family: by a parent.
    case family

    /// The scope written in `ErasureRecorded`.
    public var scope: ErasureScope {
        switch self {
        case .member: .member
        case .family: .family
        }
    }
}

/// An erasure worked out in memory: the new log and what it forgets. Nothing is written.
package struct ErasurePlan {
    /// The whole new log: every line, the family's erased ones replaced and its later ones
    /// re-sealed, other families' lines as they were, then the `ErasureRecorded` line.
    package var newLog: [UInt8]
    /// The `ErasureRecorded` event the new log ends with.
    package var record: Event
    /// The family's new head: SHA-256 of the `ErasureRecorded` line.
    package var newHead: String
    /// Whether the new log proves the head before this erasure: what ``ErasureProof`` (and so
    /// `verify`) finds for the new record.
    package var oldHeadProvable: Bool
    /// The seqs of the family's lines whose head, kept when each was the last line, this
    /// erasure makes unprovable: their written hash (``WrittenChain``) changes, because it
    /// changed a line from before an earlier erasure's record. Empty when it changed none.
    package var headsLost: [Int64]
    /// The 1-based lines replaced by `Erased` records.
    package var erasedLines: [Int]
    /// Those of them that were in no family's stream (their `family` missing or not an id):
    /// taken by their actor, replaced by records in no stream, not in `ErasureRecorded`'s count.
    package var erasedOutsideStreams: [Int]
    /// Erased lines per event type.
    package var erasedByType: [String: Int]
    /// Attachment hashes only erased lines referred to: their bytes go too.
    package var orphanedBlobs: [String]
    /// Attachment and document hashes the remaining lines refer to: every other blob goes.
    package var keptBlobs: Set<String>
    /// Lines kept as they are because nothing tells whose they are: not a JSON object, or no
    /// readable actor.
    package var unreadableLines: [Int]
    /// The user ids whose data is erased (a torn fragment naming one of them goes too).
    package var erasedUsers: Set<String>
    /// The family the erasure is in.
    package var family: String

    /// Whether a torn fragment (a cut-off line moved to `LOG.torn`) holds data this erasure
    /// forgets: of the family for a family erasure, of an erased user otherwise, or with no
    /// readable family or actor at all (nothing proves it is someone else's).
    package func covers(tornFragment text: String, scope: ErasureScope) -> Bool {
        let family = Self.stringField("family", in: text)
        let actor = Self.stringField("actor", in: text)
        if scope == .family, family == self.family { return true }
        if let actor, erasedUsers.contains(actor) { return true }
        return erasedUsers.contains { text.contains("\"\($0)\"") }
    }

    /// The value of `"key":"value"` in a fragment of a line, without parsing it (it is cut off).
    static func stringField(_ key: String, in text: String) -> String? {
        guard let start = text.range(of: "\"\(key)\":\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}

/// Works out an erasure of SPEC §5 from a log's bytes: who may ask, the closure of lines to
/// erase, the rewritten chain and the `ErasureRecorded` line. Pure: the store writes it.
package enum ErasurePlanner {
    /// The refusal of a log written as SPEC v2 (`compass migrate` makes it v3 first).
    package static let oneChainLog = EventError("this log uses one chain for all families (v2)", kind: .sequence)

    /// Plans erasing `target` at the request of `requester`.
    ///
    /// - Parameters:
    ///   - log: the whole log, complete lines only (a torn tail is moved aside first).
    ///   - at: when the erasure is recorded; `eventId`: the `ErasureRecorded` event's id.
    /// - Throws: ``oneChainLog`` for a log written as SPEC v2 (one chain for all families: it
    ///   has no family streams to erase from; every writer refuses it), else the refusal in the
    ///   rules' words (`Unknown user U`, who may erase).
    package static func plan(log: [UInt8], target: ErasureTarget, requester: String, at: Timestamp,
                             eventId: String) throws(EventError) -> ErasurePlan {
        let lines = log.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            LineSplitter.completeLines(in: buffer, from: 0, to: buffer.count, into: &ranges)
            return ranges
        }
        var outcomes = [LineOutcome?](repeating: nil, count: lines.count)
        var replayer = Replayer(observer: { outcome, _ in
            switch outcome {
            case .applied(let line, _), .rejected(let line, _, _), .erased(let line, _): outcomes[line - 1] = outcome
            }
        }, problems: .summary)
        log.withUnsafeBufferPointer { buffer in
            for range in lines { replayer.consume(line: UnsafeBufferPointer(rebasing: buffer[range]), terminated: true) }
        }
        if replayer.oneChainLine != nil { throw oneChainLog }
        let state = replayer.state
        let (family, users) = try authorize(target, requester: requester, in: state)
        // The record must replay as written: a valid id no event has taken.
        guard Identifier.isValid(eventId) else { throw EventError.mustBe("id", "an id") }
        guard !state.eventIds.contains(eventId) else { throw EventError("duplicate event id \(eventId)", kind: .duplicate) }
        if case .member(let user) = target { try refuseOrphaning(user, outcomes, in: state) }
        // Whose each line is: its decoded envelope, or, for a line whose envelope did not
        // decode, its `actor` and `family` read from its JSON alone — a line whose actor and
        // family can be read is someone's even when its type or data is malformed (SPEC §5).
        // A line whose `family` is missing or not an id is in no stream: whose it is, its
        // actor says.
        var tape = JSONTape()
        var streamOf = [String?](repeating: nil, count: lines.count)
        var owners = [Owner?](repeating: nil, count: lines.count)
        var outside: [Int: WrittenEnvelope] = [:]
        // Lines the JSON parser refuses whose actor or family can still be read.
        var unparsed: [Int: TolerantEnvelope] = [:]
        // The data of lines whose envelope did not decode, for the blobs they name.
        var writtenData: [Int: JSONObject] = [:]
        log.withUnsafeBufferPointer { buffer in
            for index in lines.indices {
                if let outcome = outcomes[index], let envelope = envelope(of: outcome) {
                    streamOf[index] = envelope.family
                    owners[index] = Owner(actor: envelope.actor, family: envelope.family, type: envelope.type)
                    continue
                }
                let line = UnsafeBufferPointer(rebasing: buffer[lines[index]])
                guard let written = WrittenEnvelope(line, tape: &tape) else {
                    // A line the parser refuses (a duplicate key, a lone surrogate, deep nesting)
                    // still names whose it is: read its envelope tolerantly. It is in no stream
                    // (replay never read its family), so it goes as a line of no stream does.
                    if let tolerant = TolerantEnvelope(line), !tolerant.values("actor").isEmpty || !tolerant.values("family").isEmpty {
                        unparsed[index] = tolerant
                    }
                    continue
                }
                writtenData[index] = written.data
                if let family = written.family, Identifier.isValid(family) {
                    streamOf[index] = family
                    owners[index] = Owner(actor: written.actor, family: family, type: written.type)
                } else if written.actor != nil {
                    outside[index] = written
                }
            }
        }
        // Only the family's own stream is erased and re-sealed (SPEC §1.1, §5): a line of
        // another family's stream is that family's, whoever it names as actor.
        let inStream = streamOf.map { $0 == family }
        let erase = closure(outcomes, owners: owners, outside: outside, unparsed: unparsed, family: family, users: users, scope: target.scope,
                            inStream: inStream, familyOf: { state.members[$0]?.family })

        var erasedLines: [Int] = [], erasedOutsideStreams: [Int] = [], unreadableLines: [Int] = []
        var erasedByType: [String: Int] = [:]
        var keptBlobs: Set<String> = [], erasedBlobs: Set<String> = []
        for (index, outcome) in outcomes.enumerated() {
            let type: String?
            if let owner = owners[index], owner.actor != nil || erase[index] {
                type = owner.type
            } else if let line = outside[index] {
                type = line.type
                if erase[index] { erasedOutsideStreams.append(index + 1) }
            } else if let line = unparsed[index], line.first("actor") != nil || erase[index] {
                type = line.first("type")
                if erase[index] { erasedOutsideStreams.append(index + 1) }
            } else {
                unreadableLines.append(index + 1)
                continue
            }
            let blobs = writtenData[index].map(attachmentHashes(in:)) ?? outcome.map(attachmentHashes) ?? []
            if erase[index] {
                erasedLines.append(index + 1)
                erasedByType[type ?? "(unreadable type)", default: 0] += 1
                erasedBlobs.formUnion(blobs)
            } else {
                keptBlobs.formUnion(blobs)
            }
        }

        // The family's chain: erased lines become `Erased` records carrying their original hash;
        // every correct link after the first change is rewritten; a broken link stays broken.
        // Other families' lines are copied byte for byte.
        var output: [UInt8] = []
        output.reserveCapacity(log.count + 512)
        var written = WrittenChain()
        var previousNew = SHA256.emptyHex
        // Whether this erasure changes a line before the last earlier erasure's record: then
        // the chain after that record starts from re-sealed lines, and the head kept now
        // cannot be proven (WrittenChain says why).
        var changedBeforeRecord = false, changedSoFar = false
        // Each stream line's written hash as the log stands now (the head it was when it was
        // the family's last line, as `verify` recomputes it), with its seq.
        var writtenBefore: [(seq: Int64?, hash: String)] = []
        // The `seq`s of the family's lines this erasure replaces, for its record.
        var erasedSeqs: [Int64?] = []
        var streamLines: Int64 = 0
        log.withUnsafeBufferPointer { buffer in
            for (index, range) in lines.enumerated() {
                let line = UnsafeBufferPointer(rebasing: buffer[range])
                guard inStream[index] else {
                    // A line of no stream that is erased leaves its hash alone: no chain covers it.
                    if erase[index] { output += erasedOutsideStreamsRecord(was: SHA256.hex(line)) } else { output += line }
                    output.append(0x0A)
                    continue
                }
                streamLines += 1
                let chain = ChainLine(line, tape: &tape)
                let previous = written.previous
                if chain.recordsErasure, changedSoFar { changedBeforeRecord = true }
                let original = written.consume(line, chain)
                writtenBefore.append((chain.seq, original))
                let start = output.count
                if erase[index], let envelope = WrittenEnvelope(line, tape: &tape) {
                    // A link that was broken stays broken: the record keeps the line's own `prev`.
                    output += erasedRecord(envelope, was: original, prev: chain.prev.map { chain.links(to: previous) ? previousNew : $0 })
                    erasedSeqs.append(envelope.seq.flatMap { (1...CompassCore.Envelope.maxSeq).contains($0) ? $0 : nil })
                } else if let prevRange = chain.prevRange, chain.links(to: previous), previousNew != previous {
                    output += ChainLine.replacingPrev(line, prevRange, with: previousNew)
                } else {
                    output += line
                }
                let rewritten = output.count - start != line.count || !output[start...].elementsEqual(line)
                previousNew = rewritten ? output.withUnsafeBufferPointer { SHA256.hex(UnsafeBufferPointer(rebasing: $0[start...])) } : chain.hash
                if rewritten { changedSoFar = true }
                output.append(0x0A)
            }
        }

        let stream = replayer.streams[family: family]
        // The record lists the seqs it erased when they can be listed (each readable, ascending):
        // which `Erased` records are whose is then exact however erasures interleave.
        let listed = erasedSeqs.compactMap { $0 }
        let exact = listed.count == erasedSeqs.count && zip(listed, listed.dropFirst()).allSatisfy { $0 < $1 }
        let recorded = ErasureRecorded(oldHead: stream?.head.text ?? SHA256.emptyHex, oldLines: streamLines,
                                       erased: Int64(erasedLines.count - erasedOutsideStreams.count), scope: target.scope,
                                       erasedSeqs: exact ? listed : nil)
        let record = Event(seq: try CompassCore.Envelope.seq(after: stream?.seq ?? 0), id: eventId, at: at, actor: "-", family: family,
                           payload: .erasureRecorded(recorded), prev: previousNew)
        let recordLine = EventEncoder.line(for: record)
        output += recordLine
        output.append(0x0A)
        // Whether the old head is provable is what `verify` will say of the new log: one rule
        // (``ErasureProof``) over the family's stream as this erasure leaves it.
        // A head kept before it is lost when its line's written hash is not what it was.
        var proof = ErasureProof()
        var writtenAfter = WrittenChain()
        var lost: [Int64] = []
        output.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            LineSplitter.completeLines(in: buffer, from: 0, to: buffer.count, into: &ranges)
            var position = 0
            for (index, range) in ranges.enumerated() where index >= inStream.count || inStream[index] {
                let line = UnsafeBufferPointer(rebasing: buffer[range])
                proof.consume(line: line)
                // Only an erasure that changed a line from before an earlier record can lose a
                // head: otherwise the chain is not walked a second time.
                guard changedBeforeRecord, position < writtenBefore.count else { continue }
                let now = writtenAfter.consume(line, ChainLine(line, tape: &tape))
                if now != writtenBefore[position].hash { lost.append(writtenBefore[position].seq ?? 0) }
                position += 1
            }
        }
        let provable = proof.erasedCountsAgree && proof.steps.last?.proven == true
        return ErasurePlan(newLog: output, record: record, newHead: SHA256.hex(recordLine), oldHeadProvable: provable,
                           headsLost: lost,
                           erasedLines: erasedLines, erasedOutsideStreams: erasedOutsideStreams,
                           erasedByType: erasedByType, orphanedBlobs: erasedBlobs.subtracting(keptBlobs).sorted(), keptBlobs: keptBlobs,
                           unreadableLines: unreadableLines, erasedUsers: users, family: family)
    }

    /// The family and the users an erasure covers, or why the requester may not ask for it.
    /// A member of another family is "not found", never "forbidden" (no existence leaks).
    static func authorize(_ target: ErasureTarget, requester: String,
                          in state: CompassState) throws(EventError) -> (family: String, users: Set<String>) {
        let viewer = try Viewer(requester, in: state)
        switch target {
        case .member(let user):
            guard let member = state.members[user], member.family == viewer.family else {
                throw EventError("Unknown user \(user)", kind: .notFound)
            }
            guard user == requester || viewer.role == .parent else {
                throw EventError("Only a parent or the member can erase a member's data", kind: .forbidden)
            }
            return (viewer.family, [user])
        case .family:
            guard viewer.role == .parent else { throw EventError("Only a parent can erase the family's data", kind: .forbidden) }
            return (viewer.family, Set(state.families[viewer.family]?.memberIds ?? []))
        }
    }

    /// Refuses to erase a member who added members still in the family. Their `MemberJoined`
    /// lines have the erased member as actor, so §5 erases them too; the members would then
    /// leave the family, their own lines refused and kept, out of reach of any later erasure.
    static func refuseOrphaning(_ user: String, _ outcomes: [LineOutcome?], in state: CompassState) throws(EventError) {
        var added: [String] = []
        for case .applied(_, let event)? in outcomes where event.actor == user {
            if case .memberJoined(let joined) = event.payload, joined.userId != user, state.members[joined.userId] != nil {
                added.append(joined.userId)
            }
        }
        guard added.isEmpty else {
            throw EventError("Cannot erase \(user): they added \(added.joined(separator: ", ")) to the family; erase "
                             + (added.count == 1 ? "that member" : "those members") + " first, or the whole family with --family")
        }
    }

    /// The lines to erase (SPEC §5): of the family for a family erasure; otherwise every line
    /// an erased user did — readable or not: a line whose `actor` and `family` can be read is
    /// theirs even when its type or data is malformed — and their `MemberJoined`, then,
    /// repeatedly, every line (applied or refused) naming an entity (school, coach,
    /// interaction, document) an erased line created. A line in no stream (`outside`) goes
    /// when an erased user is its actor or the member it adds, or when its actor is of the
    /// family and it names an entity an erased line created.
    ///
    /// A line the parser refuses (`unparsed`) goes when any `actor` it names is an erased
    /// user, any `data.userId` is one, it names the family in a family erasure, or an actor
    /// of the family names an entity an erased line created.
    static func closure(_ outcomes: [LineOutcome?], owners: [Owner?], outside: [Int: WrittenEnvelope],
                        unparsed: [Int: TolerantEnvelope] = [:], family: String,
                        users: Set<String>, scope: ErasureScope, inStream: [Bool],
                        familyOf: (String) -> String?) -> [Bool] {
        var erase = [Bool](repeating: false, count: outcomes.count)
        var created: Set<EntityKey> = []
        // Applied lines only name entities created before them: one pass in line order finds
        // every entity the erasure removes; a second catches refused lines naming one.
        for pass in 0..<2 {
            for (index, outcome) in outcomes.enumerated() where !erase[index] {
                if let line = unparsed[index] {
                    if pass == 1 {
                        let actors = line.values("actor")
                        erase[index] = actors.contains(where: users.contains) || (line.data["userId"] ?? []).contains(where: users.contains)
                            || (scope == .family && line.values("family").contains(family))
                            || (actors.contains { familyOf($0) == family } && referenceKeys.contains { key in
                                (line.data[key] ?? []).contains { created.contains(EntityKey(family: family, kind: key, id: $0)) }
                            })
                    }
                    continue
                }
                if let line = outside[index] {
                    if pass == 1, line.type != Rules.erasedType, let actor = line.actor {
                        let data = line.data ?? JSONObject()
                        var joining: String?
                        if line.type == EventType.memberJoined.rawValue, case .string(let user)? = data["userId"] { joining = user }
                        erase[index] = users.contains(actor) || joining.map(users.contains) == true
                            || (familyOf(actor) == family && references(in: .object(data), family: family).contains(where: created.contains))
                    }
                    continue
                }
                guard inStream[index], let owner = owners[index] else { continue }
                if let outcome, case .erased = outcome { continue }
                if owner.type == Rules.erasedType { continue }
                if owner.type == EventType.erasureRecorded.rawValue, owner.actor == "-" { continue }
                var hit = false
                if scope == .family, owner.family == family { hit = true }
                if let actor = owner.actor, users.contains(actor) { hit = true }
                guard let outcome else {
                    if hit { erase[index] = true }
                    continue
                }
                if let joining = joinedUser(outcome), users.contains(joining) { hit = true }
                let references = referencedEntities(outcome, family: owner.family)
                if !hit, references.contains(where: created.contains) { hit = true }
                guard hit else { continue }
                erase[index] = true
                if pass == 0, case .applied(_, let event) = outcome, let made = createdEntity(event) { created.insert(made) }
            }
        }
        return erase
    }

    /// An entity of a family: kind and id (ids are unique per kind within a family).
    struct EntityKey: Hashable {
        var family: String
        var kind: String
        var id: String
    }

    static let referenceKeys = ["schoolId", "coachId", "interactionId", "documentId"]

    static func createdEntity(_ event: Event) -> EntityKey? {
        switch event.payload {
        case .schoolAdded(let e): EntityKey(family: event.family, kind: "schoolId", id: e.schoolId)
        case .coachAdded(let e): EntityKey(family: event.family, kind: "coachId", id: e.coachId)
        case .interactionLogged(let e): EntityKey(family: event.family, kind: "interactionId", id: e.interactionId)
        case .documentUploaded(let e): EntityKey(family: event.family, kind: "documentId", id: e.documentId)
        default: nil
        }
    }

    /// Every entity id a line names in its data, as far as it can be read.
    static func referencedEntities(_ outcome: LineOutcome, family: String) -> [EntityKey] {
        switch outcome {
        case .applied(_, let event):
            let ids: [(String, String?)] = switch event.payload {
            case .coachAdded(let e): [("schoolId", e.schoolId)]
            case .interactionLogged(let e): [("schoolId", e.schoolId), ("coachId", e.coachId)]
            case .interactionDeleted(let e): [("interactionId", e.interactionId)]
            case .schoolStatusChanged(let e): [("schoolId", e.schoolId)]
            default: []
            }
            return ids.compactMap { key, id in id.map { EntityKey(family: family, kind: key, id: $0) } }
        case .rejected(_, let draft, _):
            return draft.map { references(in: .object($0.data), family: family) } ?? []
        case .erased:
            return []
        }
    }

    static func references(in data: JSONValue, family: String) -> [EntityKey] {
        guard case .object(let object) = data else { return [] }
        return referenceKeys.compactMap { key in
            guard case .string(let id)? = object[key] else { return nil }
            return EntityKey(family: family, kind: key, id: id)
        }
    }

    static func joinedUser(_ outcome: LineOutcome) -> String? {
        switch outcome {
        case .applied(_, let event):
            if case .memberJoined(let joined) = event.payload { return joined.userId }
            return nil
        case .rejected(_, let draft, _):
            guard let draft, draft.type == EventType.memberJoined.rawValue, case .string(let user)? = draft.data["userId"] else { return nil }
            return user
        case .erased:
            return nil
        }
    }

    /// The blob hashes a line names: an interaction's attachments, a document's bytes.
    static func attachmentHashes(_ outcome: LineOutcome) -> [String] {
        switch outcome {
        case .applied(_, let event):
            switch event.payload {
            case .interactionLogged(let logged): return (logged.attachments ?? []).compactMap(\.sha256)
            case .documentUploaded(let document): return document.sha256.map { [$0] } ?? []
            default: return []
            }
        case .rejected(_, let draft, _):
            return draft.map { attachmentHashes(in: $0.data) } ?? []
        case .erased:
            return []
        }
    }

    /// The blob hashes a line's data names as far as it can be read: a document's bytes (v3),
    /// or an interaction's attachments.
    static func attachmentHashes(in data: JSONObject) -> [String] {
        if case .string(let hash)? = data["sha256"] { return [hash] }
        guard case .array(let list)? = data["attachments"] else { return [] }
        return list.compactMap { item in
            guard case .object(let attachment) = item, case .string(let hash)? = attachment["sha256"] else { return nil }
            return hash
        }
    }

    /// Whose a line of a stream is: its family, its actor when it is a string (a line of the
    /// family without one goes only with the whole family), its type when it is a string.
    struct Owner {
        var actor: String?
        var family: String
        var type: String?
    }

    /// The envelope of a line as written, read from its JSON alone (no rule, no type check):
    /// what an `Erased` record keeps of it, and whose line it is.
    struct WrittenEnvelope {
        var seq: Int64?
        var id: String?
        var type: String?
        /// The `at` text exactly as written (an `Erased` record keeps it unchanged).
        var at: String?
        var actor: String?
        var family: String?
        /// The `data` object, when it is one.
        var data: JSONObject?

        /// Nil when the line is not a JSON object.
        init?(_ line: UnsafeBufferPointer<UInt8>, tape: inout JSONTape) {
            guard let base = line.baseAddress, tape.scan(line), case .object(let object) = tape.value(at: 0, in: base) else { return nil }
            func text(_ key: String) -> String? {
                if case .string(let value)? = object[key] { return value }
                return nil
            }
            if case .int(let value)? = object["seq"] { seq = value }
            id = text("id")
            type = text("type")
            at = text("at")
            actor = text("actor")
            family = text("family")
            if case .object(let value)? = object["data"] { data = value }
        }
    }

    /// The envelope fields an `Erased` record keeps.
    struct Envelope {
        var seq: Int64
        var id: String
        var type: String
        var at: Timestamp
        var actor: String
        var family: String
    }

    static func envelope(of outcome: LineOutcome) -> Envelope? {
        switch outcome {
        case .applied(_, let e): Envelope(seq: e.seq, id: e.id, type: e.type.rawValue, at: e.at, actor: e.actor, family: e.family)
        case .rejected(_, let d, _), .erased(_, let d):
            d.map { Envelope(seq: $0.seq, id: $0.id, type: $0.type, at: $0.at, actor: $0.actor, family: $0.family) }
        }
    }

    /// `{"type":"Erased","actor":"-","data":{"was":H}}`: the record of an erased line that was in
    /// no stream (its `family` missing or not an id). It keeps nothing of the line but its hash:
    /// no chain covers it, so no `seq` or `prev` is checked, and its `id` and `at` were never
    /// read as an event's.
    static func erasedOutsideStreamsRecord(was: String) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 120)
        w.beginObject()
        w.field("type", Rules.erasedType)
        w.field("actor", "-")
        w.key("data")
        w.beginObject()
        w.field("was", was)
        w.endObject()
        w.endObject()
        return w.bytes
    }

    /// `{"seq":S,"id":ID,"type":"Erased","at":AT,"actor":"-","family":F,"data":{"was":H},"prev":P}`
    /// with the line's own `seq`, `id`, `at` text and `family` (a field the line did not have
    /// readably is left out); without `prev` when the line it replaces had none.
    static func erasedRecord(_ envelope: WrittenEnvelope, was: String, prev: String?) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 300)
        w.beginObject()
        if let seq = envelope.seq { w.field("seq", seq) }
        if let id = envelope.id { w.field("id", id) }
        w.field("type", Rules.erasedType)
        if let at = envelope.at { w.field("at", at) }
        w.field("actor", "-")
        if let family = envelope.family { w.field("family", family) }
        w.key("data")
        w.beginObject()
        w.field("was", was)
        w.endObject()
        var bytes = w.bytes
        EventEncoder.seal(&bytes, prev: prev)
        return bytes
    }
}
