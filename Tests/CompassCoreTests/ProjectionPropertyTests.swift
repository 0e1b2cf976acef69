import CompassCore
import CompassTestSupport
import Foundation
import Testing

/// Property-based tests on the projections (issue: property-based tests). Each property runs
/// `COMPASS_PBT_ITERATIONS` cases (default 100) from a fixed master seed; a failure prints
/// the seed and a shrunk log.
@Suite struct ProjectionPropertyTests {
    static func logProperty(_ name: String, seed: UInt64, maxSize: Int = 40, maxFamilies: Int = 3) -> Property<[Event]> {
        Property(name, seed: seed, maxSize: maxSize, LogGen.history(maxFamilies: maxFamilies),
                 shrink: LogShrink.candidates, describe: LogShrink.describe)
    }

    static func expectHolds(_ failure: String?) {
        #expect(failure == nil, Comment(rawValue: failure ?? ""))
    }

    static func state(_ events: [Event]) -> CompassState { Sealed.replay(Sealed.bytes(events)).state }

    @Test func replayIsDeterministic() {
        Self.expectHolds(Self.logProperty("replay is deterministic", seed: 1, maxSize: 30).check { events in
            let bytes = Sealed.bytes(events)
            var trailA = AuditTrail(zone: AllViews.utc), trailB = AuditTrail(zone: AllViews.utc)
            var a = Replayer(observer: { trailA.record($0, state: $1) })
            var b = Replayer(observer: { trailB.record($0, state: $1) })
            a.consume(bytes: bytes)
            b.consume(bytes: bytes)
            for viewer in a.state.members.keys.sorted() {
                let x = AllViews.json(a.state, viewer: viewer, includeAudit: trailA)
                let y = AllViews.json(b.state, viewer: viewer, includeAudit: trailB)
                if x != y { return "views of \(viewer) differ between two replays" }
            }
            return a.problems.isEmpty ? nil : "a generated log has problems: \(a.problems)"
        })
    }

    @Test func incrementalFoldEqualsBatchReplay() {
        Self.expectHolds(Self.logProperty("incremental equals batch", seed: 2, maxSize: 24).check { events in
            // The state after each line, as one replay of the log folds it.
            var prefixes = [CompassState()]
            var replayer = Replayer(observer: { _, state in prefixes.append(state) })
            replayer.consume(bytes: Sealed.bytes(events))
            let whole = replayer.state
            for split in 0...events.count {
                var state = prefixes[split]
                for event in events.dropFirst(split) {
                    guard let accepted = try? Rules.decide(Self.draft(event), in: state) else { return "event \(event.seq) rejected after split \(split)" }
                    state.apply(accepted)
                }
                if state != whole { return "folding the tail after \(split) differs from the whole replay" }
            }
            return nil
        })
    }

    @Test func snapshotPlusTailEqualsFullReplay() {
        Self.expectHolds(Self.splitLogProperty("snapshot plus tail equals full replay", seed: 14).check { log, splitChoice in
            let (bytes, whole, split) = Self.split(log, splitChoice)
            let prefix = Sealed.replay(Array(bytes[..<split]))
            let encoded = SnapshotCodec.encode(prefix.snapshot)
            guard let decoded = SnapshotCodec.decode(encoded) else { return "snapshot does not decode" }
            if decoded != prefix.snapshot { return "snapshot round-trip changed it" }
            if SnapshotCodec.encode(decoded) != encoded { return "snapshot bytes are not stable" }
            var resumed = Replayer(resuming: decoded)
            resumed.consume(bytes: Array(bytes[split...]))
            if resumed.state != whole.state { return "state after snapshot + tail differs" }
            // A snapshot keeps the problems' summary (count and the first of each family's lines).
            if resumed.problemSummary != whole.problemSummary || resumed.tornLine != whole.tornLine {
                return "problems differ: \(resumed.problemSummary) vs \(whole.problemSummary)"
            }
            if resumed.lastLineHash != whole.lastLineHash || resumed.streams != whole.streams || resumed.linesRead != whole.linesRead {
                return "replay position differs"
            }
            if AllViews.json(resumed.state) != AllViews.json(whole.state) { return "views differ" }
            return nil
        })
    }

    /// A query resumes from a snapshot reading only the families it needs: for every viewer the
    /// views equal a full replay's, problems and position too, and the snapshot written back
    /// (loaded families encoded again, the rest copied) equals one of the full replay.
    @Test func aSnapshotReadInPartGivesEveryViewerTheSameViews() {
        Self.expectHolds(Self.splitLogProperty("snapshot read in part == full replay", seed: 16).check { log, splitChoice in
            let (bytes, whole, split) = Self.split(log, splitChoice)
            let encoded = SnapshotCodec.encode(Sealed.replay(Array(bytes[..<split])).snapshot)
            let read = { (range: Range<Int>) -> [UInt8]? in range.upperBound <= encoded.count ? Array(encoded[range]) : nil }
            guard let index = SnapshotIndex.open(size: encoded.count, read: read) else { return "snapshot does not open" }
            var resumed = Replayer(resuming: index.base, deferring: DeferredParts(
                family: { index.familyState($0, read: read) }, eventIds: { index.eventIds(read: read) }))
            resumed.consume(bytes: Array(bytes[split...]))
            if resumed.deferredFailed { return "a deferred part did not read" }
            // A snapshot keeps the problems' summary (count and the first of each family's lines).
            if resumed.problemSummary != whole.problemSummary || resumed.tornLine != whole.tornLine {
                return "problems differ: \(resumed.problemSummary) vs \(whole.problemSummary)"
            }
            if resumed.lastLineHash != whole.lastLineHash || resumed.streams != whole.streams || resumed.linesRead != whole.linesRead {
                return "replay position differs"
            }
            if resumed.state.countsByType != whole.state.countsByType || resumed.state.members != whole.state.members
                || resumed.state.liveInteractionCount != whole.state.liveInteractionCount { return "summary differs" }
            for (user, member) in whole.state.members {
                var viewer = resumed
                viewer.load(families: [member.family])
                if AllViews.json(viewer.state, viewer: user) != AllViews.json(whole.state, viewer: user) { return "views of \(user) differ" }
            }
            // The next snapshot as a reader writes it: families it loaded encoded again, the
            // others copied from the snapshot it resumed from.
            guard let next = SnapshotIndex.successor(of: resumed.snapshot, idsDeferred: resumed.eventIdsDeferred, resumedFrom: index, read: read)
            else { return "snapshot cannot be written back" }
            let sections = next.familyIds.compactMap(next.section)
            guard sections.count == next.familyIds.count else { return "a family section cannot be copied" }
            if SnapshotCodec.parts(next.snapshot, families: sections).reduce([], +) != SnapshotCodec.encode(whole.snapshot) {
                return "snapshot written back differs from a full replay's"
            }
            return nil
        })
    }

    @Test func aCorruptFamilySectionIsNeverTrusted() {
        let events = LogGen.history().sample(seed: 5, size: 30)
        var encoded = SnapshotCodec.encode(Sealed.replay(Sealed.bytes(events)).snapshot)
        let read = { (bytes: [UInt8]) in { (range: Range<Int>) -> [UInt8]? in range.upperBound <= bytes.count ? Array(bytes[range]) : nil } }
        guard let index = SnapshotIndex.open(size: encoded.count, read: read(encoded)), let family = index.familyIds.last else {
            Issue.record("snapshot does not open")
            return
        }
        #expect(index.family(family, read: read(encoded)) != nil)
        // A byte of the last family's section, just before the directory (the third section).
        let field = "compass-snapshot\n".utf8.count + 16 + 2 * 48  // the directory's offset in the preamble
        let directoryStart = (0..<8).reduce(0) { $0 | Int(encoded[field + $1]) << (8 * $1) }
        encoded[directoryStart - 3] ^= 0x01
        let damaged = read(encoded)
        #expect(SnapshotIndex.open(size: encoded.count, read: damaged) != nil)  // the header still checks
        guard case .unreadable = index.familyState(family, read: damaged) else {
            Issue.record("a damaged family section was read")
            return
        }
        #expect(SnapshotCodec.decode(encoded) == nil)
    }

    @Test func aTruncatedOrForeignSnapshotDoesNotDecode() {
        let events = LogGen.history().sample(seed: 4, size: 20)
        let encoded = SnapshotCodec.encode(Sealed.replay(Sealed.bytes(events)).snapshot)
        #expect(SnapshotCodec.decode(encoded) != nil)
        #expect(SnapshotCodec.decode(Array(encoded.dropLast())) == nil)
        #expect(SnapshotCodec.decode(encoded + [0]) == nil)
        var otherVersion = encoded
        otherVersion[17] = 1  // the format version follows the 17-byte magic
        #expect(SnapshotCodec.decode(otherVersion) == nil)
        #expect(SnapshotCodec.decode(Array("not a snapshot".utf8)) == nil)
    }

    @Test func modelBasedViewsEqualTheNaiveReference() {
        let queries = [InteractionQuery(), InteractionQuery(type: .email), InteractionQuery(direction: .inbound, periodDays: 30),
                       InteractionQuery(search: "coach"), InteractionQuery(search: "🔥"), InteractionQuery(sentiment: .positive),
                       InteractionQuery(search: "E\u{301}"), InteractionQuery(periodDays: 7)]
        Self.expectHolds(Self.logProperty("views equal the reference model", seed: 3).check { events in
            let state = Self.state(events)
            for viewerId in ReferenceModel.members(events) {
                guard let viewer = try? Viewer(viewerId, in: state) else { return "viewer \(viewerId) unknown" }
                for query in queries {
                    guard let list = try? InteractionViews.list(state, viewer: viewer, query: query, now: AllViews.now) else { return "list failed" }
                    let (rows, analytics) = ReferenceModel.list(events, viewer: viewerId, query: query, now: AllViews.now)
                    let actual = list.items.map {
                        ReferenceModel.Row(id: $0.id, displaySubject: $0.displaySubject, content: $0.content, schoolName: $0.schoolName,
                                           coachName: $0.coachName, loggedByName: $0.loggedByName, occurredAt: $0.occurredAt)
                    }
                    if actual != rows { return "list for \(viewerId) \(query): \(actual) ≠ \(rows)" }
                    let a = list.analytics
                    if [a.total, a.outbound, a.inbound, a.thisWeek] != analytics { return "analytics for \(viewerId) \(query)" }
                    // `analytics` counts without building the list: the same numbers.
                    if (try? InteractionViews.analytics(state, viewer: viewer, query: query, now: AllViews.now)) != a {
                        return "analytics without the list for \(viewerId) \(query)"
                    }
                }
                let timeline = ActivityViews.items(state, viewer: viewer, now: AllViews.now, zone: AllViews.utc).map { "\($0.id) \($0.title)" }
                if timeline != ReferenceModel.timeline(events, viewer: viewerId) { return "timeline for \(viewerId)" }
                let alerts = NotificationViews.list(state, viewer: viewer).items.map { "\($0.id) \($0.read)" }
                if alerts != ReferenceModel.notifications(events, viewer: viewerId) {
                    return "notifications for \(viewerId): \(alerts) ≠ \(ReferenceModel.notifications(events, viewer: viewerId))"
                }
                let schools = LookupViews.schools(state, viewer: viewer, now: AllViews.now).map {
                    "\($0.schoolId) \($0.interactionCount) \($0.lastContactAt?.rfc3339 ?? "-") \($0.contactGap?.rawValue ?? "-")"
                }
                if schools != ReferenceModel.schools(events, viewer: viewerId, now: AllViews.now) { return "schools for \(viewerId): \(schools)" }
            }
            return nil
        })
    }

    /// `analytics` without a text search counts from the rows, building no record: for every
    /// viewer and every mix of filters (who logged it too), the same numbers as the list's;
    /// an athlete filtering by who logged is refused by both.
    @Test func analyticsCountedFromTheRowsEqualTheList() {
        Self.expectHolds(Self.logProperty("analytics from the rows equal the list's", seed: 17).check { events in
            let state = Self.state(events)
            for (viewerId, member) in state.members.sorted(by: { $0.key < $1.key }) {
                guard let viewer = try? Viewer(viewerId, in: state) else { return "viewer \(viewerId) unknown" }
                let family = state.members.filter { $0.value.family == member.family }.map(\.key).sorted()
                var queries = [InteractionQuery(), InteractionQuery(search: ""), InteractionQuery(loggedBy: "me"),
                               InteractionQuery(type: .phoneCall, direction: .outbound, periodDays: 30, loggedBy: "me")]
                for type in InteractionType.allCases { queries.append(InteractionQuery(type: type, periodDays: 90)) }
                for sentiment in Sentiment.allCases { queries.append(InteractionQuery(direction: .inbound, sentiment: sentiment)) }
                for other in family + ["u-nobody"] { queries.append(InteractionQuery(periodDays: 7, loggedBy: other)) }
                for query in queries {
                    let list = Result { () throws(EventError) in try InteractionViews.list(state, viewer: viewer, query: query, now: AllViews.now) }
                    let counted = Result { () throws(EventError) in try InteractionViews.analytics(state, viewer: viewer, query: query, now: AllViews.now) }
                    switch (list, counted) {
                    case (.success(let list), .success(let analytics)):
                        if list.analytics != analytics { return "\(viewerId) \(query): \(analytics) ≠ \(list.analytics)" }
                    case (.failure(let a), .failure(let b)):
                        if a != b || a.kind != .forbidden { return "\(viewerId) \(query): \(a) / \(b)" }
                    default:
                        return "\(viewerId) \(query): the list gave \(list), analytics \(counted)"
                    }
                }
            }
            return nil
        })
    }

    @Test func analyticsConserveTheItems() {
        Self.expectHolds(Self.logProperty("analytics conservation", seed: 4).check { events in
            let state = Self.state(events)
            for viewerId in state.members.keys {
                let viewer = try! Viewer(viewerId, in: state)
                for direction in [nil, Direction.inbound] {
                    let list = try! InteractionViews.list(state, viewer: viewer, query: InteractionQuery(direction: direction), now: AllViews.now)
                    let a = list.analytics
                    if a.total != a.outbound + a.inbound || a.total != list.items.count || a.thisWeek > a.total {
                        return "analytics \(a) for \(list.items.count) items"
                    }
                }
            }
            return nil
        })
    }

    @Test func filtersSelectSubsetsAndCombineAsIntersections() {
        let filters: [(String, InteractionQuery, (InteractionItem) -> Bool)] = [
            ("type", InteractionQuery(type: .email), { $0.type == .email }),
            ("direction", InteractionQuery(direction: .outbound), { $0.direction == .outbound }),
            ("sentiment", InteractionQuery(sentiment: .neutral), { $0.sentiment == .neutral }),
            ("period", InteractionQuery(periodDays: 14), { $0.occurredAt >= AllViews.now.adding(seconds: -14 * 86_400) }),
            ("search", InteractionQuery(search: "CAMP"), { ($0.subject ?? "").lowercased().contains("camp") || ($0.content ?? "").lowercased().contains("camp") }),
        ]
        Self.expectHolds(Self.logProperty("filters", seed: 5).check { events in
            let state = Self.state(events)
            for viewerId in state.members.keys {
                let viewer = try! Viewer(viewerId, in: state)
                let all = try! InteractionViews.list(state, viewer: viewer, query: InteractionQuery(), now: AllViews.now).items
                for (name, query, satisfies) in filters {
                    let some = try! InteractionViews.list(state, viewer: viewer, query: query, now: AllViews.now).items
                    if !some.allSatisfy(satisfies) { return "\(name): an item does not satisfy the filter" }
                    if some != all.filter(satisfies) { return "\(name): not the matching part of the unfiltered list" }
                }
                for (nameA, a, _) in filters {
                    for (nameB, b, _) in filters where nameA < nameB {
                        let both = Self.merge(a, b)
                        let combined = try! InteractionViews.list(state, viewer: viewer, query: both, now: AllViews.now).items
                        let left = Set(try! InteractionViews.list(state, viewer: viewer, query: a, now: AllViews.now).items.map(\.id))
                        let right = Set(try! InteractionViews.list(state, viewer: viewer, query: b, now: AllViews.now).items.map(\.id))
                        if Set(combined.map(\.id)) != left.intersection(right) { return "\(nameA) AND \(nameB) is not the intersection" }
                        if combined != (try! InteractionViews.list(state, viewer: viewer, query: Self.merge(b, a), now: AllViews.now).items) {
                            return "\(nameA) AND \(nameB) depends on the order"
                        }
                    }
                }
            }
            return nil
        })
    }

    @Test func anAthletesViewIsTheParentsViewNarrowedAndNoViewLeaksAnotherFamily() {
        Self.expectHolds(Self.logProperty("roles and isolation", seed: 6, maxSize: 22, maxFamilies: 3).check { events in
            let state = Self.state(events)
            for (familyId, family) in state.families {
                let parents = family.memberIds.filter { state.members[$0]?.role == .parent }
                let players = family.memberIds.filter { state.members[$0]?.role == .player }
                for parentId in parents {
                    let parent = try! Viewer(parentId, in: state)
                    for playerId in players {
                        let player = try! Viewer(playerId, in: state)
                        let mine = try! InteractionViews.list(state, viewer: player, query: InteractionQuery(), now: AllViews.now).items
                        let narrowed = try! InteractionViews.list(state, viewer: parent, query: InteractionQuery(loggedBy: playerId), now: AllViews.now).items
                        let strip: (InteractionItem) -> InteractionItem = { var i = $0; i.loggedByName = ""; i.canDelete = false; return i }
                        if mine.map(strip) != narrowed.map(strip) { return "\(playerId)'s view is not \(parentId)'s narrowed to them" }
                    }
                }
                // This family's views are the same with every other family's events removed,
                // and no free text or event id that exists only in another family appears in them.
                let ownEvents = events.filter { $0.family == familyId }
                let alone = Self.state(ownEvents)
                let own = Self.corpus(ownEvents)
                let foreign = FamilyText.freeText(events.filter { $0.family != familyId }).filter { $0.count >= 4 && !own.contains($0) }
                for viewerId in family.memberIds {
                    let bytes = AllViews.json(state, viewer: viewerId)
                    if bytes != AllViews.json(alone, viewer: viewerId) { return "\(viewerId)'s views change with other families' events" }
                    let json = String(decoding: bytes, as: UTF8.self)
                    let ownJSON = String(decoding: AllViews.json(alone, viewer: viewerId), as: UTF8.self)
                    if let leak = foreign.first(where: { json.contains(Self.jsonEscaped($0)) && !ownJSON.contains(Self.jsonEscaped($0)) }) {
                        return "\(viewerId) sees \"\(leak)\" of another family"
                    }
                }
            }
            return nil
        })
    }

    @Test func deletingEqualsNeverLogging() {
        Self.expectHolds(Self.logProperty("delete equals never logged", seed: 7).check { events in
            let deleted = events.compactMap { e -> (String, String)? in
                if case .interactionDeleted(let d) = e.payload { return (e.family, d.interactionId) } else { return nil }
            }
            guard !deleted.isEmpty else { return nil }
            let never = events.filter { e in
                switch e.payload {
                case .interactionLogged(let i): return !deleted.contains { $0 == (e.family, i.interactionId) }
                case .interactionDeleted: return false
                default: return true
                }
            }
            let a = Self.state(events), b = Self.state(never)
            for viewer in a.members.keys.sorted() where AllViews.json(a, viewer: viewer) != AllViews.json(b, viewer: viewer) {
                return "views of \(viewer) differ"
            }
            for (family, id) in deleted {
                for viewer in a.families[family]!.memberIds {
                    if (try? InteractionViews.detail(a, viewer: Viewer(viewer, in: a), interactionId: id)) != nil { return "deleted \(id) has a detail" }
                }
            }
            return nil
        })
    }

    @Test func pagesConcatenateToTheUnpagedTimeline() {
        let gen = Gen.zip(LogGen.history(), Gen.int(in: 1...7))
        let property = Property("pagination", seed: 8, gen, shrink: { input in LogShrink.candidates(input.0).map { ($0, input.1) } },
                                describe: { "page size \($0.1); " + LogShrink.describe($0.0) })
        Self.expectHolds(property.check { events, size in
            let state = Self.state(events)
            for viewerId in state.members.keys {
                let viewer = try! Viewer(viewerId, in: state)
                let whole = ActivityViews.page(state, viewer: viewer, query: ActivityQuery(pageSize: 10_000), now: AllViews.now, zone: AllViews.utc).items
                var joined: [ActivityItem] = []
                let first = ActivityViews.page(state, viewer: viewer, query: ActivityQuery(pageSize: size), now: AllViews.now, zone: AllViews.utc)
                for page in 1...first.totalPages {
                    let items = ActivityViews.page(state, viewer: viewer, query: ActivityQuery(page: page, pageSize: size), now: AllViews.now, zone: AllViews.utc).items
                    if items.count > size { return "page \(page) has \(items.count) > \(size) items" }
                    joined += items
                }
                if joined != whole { return "pages of \(size) do not concatenate to the whole timeline for \(viewerId)" }
                if Set(joined.map(\.id)).count != joined.count { return "duplicate items across pages" }
            }
            return nil
        })
    }

    @Test func codecRoundTripIsByteIdentical() {
        Self.expectHolds(Self.logProperty("codec round-trip", seed: 9).check { events in
            for line in Sealed.lines(events) {
                guard let draft = try? EnvelopeReader.draft(String(decoding: line, as: UTF8.self)),
                      let payload = try? Rules.payloadIgnoringState(draft, sanitizing: false) else { return "line does not decode" }
                let again = Event(seq: draft.seq, id: draft.id, at: draft.at, actor: draft.actor, family: draft.family, payload: payload, prev: draft.prev)
                if EventEncoder.line(for: again) != line { return "re-encoded line differs:\n\(String(decoding: line, as: UTF8.self))" }
                var sealed = EventEncoder.unsealedLine(for: again)
                EventEncoder.seal(&sealed, prev: again.prev)
                if sealed != line { return "unsealed + seal differs from the line" }
            }
            return nil
        })
    }

    /// Every prefix of a log of interleaved families replays without a problem, and `--at-seq N`
    /// is the log with each family's lines after its `seq` N left out (SPEC §1.1): the same
    /// state and the same family heads.
    @Test func everyPrefixReplaysCleanlyAndAtSeqCutsEachFamily() {
        Self.expectHolds(Self.logProperty("prefixes", seed: 10, maxSize: 12).check { events in
            let bytes = Sealed.bytes(events)
            let sealed = Sealed.reseal(events)
            let lines = Sealed.lines(events)
            for n in 0...lines.count {
                let prefix: [UInt8] = lines.prefix(n).flatMap { $0 + [UInt8(0x0A)] }
                let replayed = Sealed.replay(prefix)
                if !replayed.problems.isEmpty { return "prefix of \(n) lines has problems \(replayed.problems)" }
                let kept: [UInt8] = lines.indices.filter { sealed[$0].seq <= Int64(n) }.flatMap { lines[$0] + [UInt8(0x0A)] }
                let filtered = Sealed.replay(kept)
                let cut = Sealed.replay(bytes, cut: ReplayCut(atSeq: Int64(n)))
                if cut.state != filtered.state { return "--at-seq \(n) differs from each family's lines up to seq \(n)" }
                // (Line numbers are the file's, so they differ from the filtered log's.)
                let ends = { (r: Replayer) in r.streams.sorted.filter { $0.lines > 0 }.map { "\($0.family) \($0.seq) \($0.head.text) \($0.lines)" } }
                if ends(cut) != ends(filtered) {
                    return "--at-seq \(n) ends the families at other heads"
                }
                if cut.linesInCut != kept.filter({ $0 == 0x0A }).count { return "--at-seq \(n) counts \(cut.linesInCut) lines" }
            }
            return nil
        })
    }

    @Test func aLogCutAtAnyByteAppliesEveryCompleteLineAndReportsTheTail() {
        Self.expectHolds(Self.logProperty("torn tail", seed: 11, maxSize: 8).check { events in
            let bytes = Sealed.bytes(events)
            let ends = bytes.indices.filter { bytes[$0] == 0x0A }
            // Every byte around each line boundary, the ends, and a spread of cuts inside lines.
            var cuts = Set([0, bytes.count])
            for end in ends { cuts.formUnion([end - 1, end, end + 1, end + 2].filter { (0...bytes.count).contains($0) }) }
            var rng = SplitMix64(seed: UInt64(bytes.count))
            for _ in 0..<24 where !bytes.isEmpty { cuts.insert(rng.below(bytes.count + 1)) }
            for cut in cuts.sorted() {
                let replayed = Sealed.replay(Array(bytes.prefix(cut)))
                let complete = ends.filter { $0 < cut }.count
                if replayed.state.appliedCount != complete { return "cut at \(cut): applied \(replayed.state.appliedCount), expected \(complete)" }
                let torn = cut > 0 && bytes[cut - 1] != 0x0A
                let expected = torn ? [Problem(line: complete + 1, message: "torn last line", kind: .torn)] : []
                if replayed.problems != expected { return "cut at \(cut): problems \(replayed.problems)" }
            }
            return nil
        })
    }

    @Test func interleavingFamiliesDifferentlyLeavesEachFamilysViewsUnchanged() {
        let gen = Gen.zip(LogGen.history(maxFamilies: 3), Gen<UInt64> { rng, _ in rng.next() })
        let property = Property("family independence", seed: 12, gen, shrink: { input in LogShrink.candidates(input.0).map { ($0, input.1) } },
                                describe: { "shuffle seed \($0.1); " + LogShrink.describe($0.0) })
        Self.expectHolds(property.check { events, shuffleSeed in
            // Another interleaving: each family's events keep their order, families are merged differently.
            var queues = Dictionary(grouping: events, by: \.family).mapValues { ArraySlice($0) }
            var rng = SplitMix64(seed: shuffleSeed)
            var other: [Event] = []
            while !queues.isEmpty {
                let keys = queues.keys.sorted()
                let key = keys[rng.below(keys.count)]
                other.append(queues[key]!.removeFirst())
                if queues[key]!.isEmpty { queues[key] = nil }
            }
            let a = Self.state(events), b = Self.state(other)
            for viewer in a.members.keys.sorted() where AllViews.json(a, viewer: viewer) != AllViews.json(b, viewer: viewer) {
                return "views of \(viewer) depend on how families interleave"
            }
            return nil
        })
    }

    @Test func forgedLinesNeverReachAView() {
        let property = Property("rules hold on replay", seed: 13, LogGen.adversarial(), describe: { "\($0)" })
        Self.expectHolds(property.check { log in
            var applied: [Event] = []
            var replayer = Replayer(observer: { outcome, _ in if case .applied(_, let e) = outcome { applied.append(e) } })
            replayer.consume(bytes: log.bytes)
            let state = replayer.state
            let json = String(decoding: AllViews.json(state), as: UTF8.self)
            if json.contains("forged by a parent") || json.contains("i-forged") { return "a parent's interaction is visible" }
            for e in applied {
                switch e.payload {
                case .interactionLogged where state.members[e.actor]?.role != .player:
                    return "an interaction logged by a non-player was applied"
                case .interactionDeleted(let d):
                    let logger = state.families[e.family]?.interactions[d.interactionId]?.loggedBy
                    if logger != e.actor { return "\(d.interactionId) deleted by \(e.actor), logged by \(logger ?? "nobody")" }
                default:
                    break
                }
            }
            if log.tornTail != nil, replayer.problems.last?.message != "torn last line" { return "torn tail not reported" }
            return nil
        })
    }

    /// Replay decides lines whose payload was built on another core with ``Rules/check(_:in:)``;
    /// appends use the step-by-step path. On adversarial logs both must give the same event or
    /// the same first message, line by line.
    @Test func stateChecksOfPrebuiltPayloadsEqualTheStepByStepRules() {
        let property = Property("prebuilt decide == step-by-step decide", seed: 15, LogGen.adversarial(), describe: { "\($0)" })
        var decided = 0
        Self.expectHolds(property.check { log in
            var state = CompassState()
            for (number, line) in log.lines.enumerated() {
                guard let draft = try? EnvelopeReader.draft(String(decoding: line, as: UTF8.self)) else { continue }
                for sanitizing in [false, true] {  // replay decides without sanitizing, import with
                    let prebuilt = Result { () throws(EventError) in try Rules.payloadIgnoringState(draft, sanitizing: sanitizing) }
                    let stepByStep = Result { () throws(EventError) in try Rules.decide(draft, in: state, sanitizing: sanitizing) }
                    let fast = Result { () throws(EventError) in try Rules.decide(draft, prebuilt: prebuilt, in: state, sanitizing: sanitizing) }
                    if stepByStep != fast { return "line \(number + 1) (sanitizing: \(sanitizing)): step-by-step \(stepByStep), prebuilt \(fast)" }
                }
                let stepByStep = Result { () throws(EventError) in try Rules.decide(draft, in: state) }
                if case .success(let event) = stepByStep { state.apply(event) }
                decided += 1
            }
            return nil
        })
        #expect(decided > 1_000)
    }

    // MARK: helpers

    /// Adversarial logs with a choice of line boundary to split them at (a snapshot's offset).
    static func splitLogProperty(_ name: String, seed: UInt64) -> Property<(AdversarialLog, Int)> {
        let gen = Gen.zip(LogGen.adversarial(), Gen<Int> { rng, _ in rng.below(1000) })
        return Property(name, seed: seed, maxSize: 30, gen, describe: { "split \($0.1) of\n\($0.0)" })
    }

    /// The log's bytes, its full replay, and the line boundary `choice` picks.
    static func split(_ log: AdversarialLog, _ choice: Int) -> (bytes: [UInt8], whole: Replayer, split: Int) {
        let bytes = log.bytes
        let boundaries = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
        return (bytes, Sealed.replay(bytes), boundaries[choice % boundaries.count])
    }

    static func draft(_ event: Event) -> EventDraft {
        guard case .object(let data)? = JSONParser.parse(EventEncoder.data(for: event.payload)) else { fatalError() }
        return EventDraft(seq: event.seq, id: event.id, type: event.type.rawValue, at: event.at, actor: event.actor, family: event.family, data: data, prev: event.prev)
    }

    static func merge(_ a: InteractionQuery, _ b: InteractionQuery) -> InteractionQuery {
        InteractionQuery(search: a.search ?? b.search, type: a.type ?? b.type, direction: a.direction ?? b.direction,
                         sentiment: a.sentiment ?? b.sentiment, periodDays: a.periodDays ?? b.periodDays, loggedBy: a.loggedBy ?? b.loggedBy)
    }

    /// Every string value in the events' lines.
    static func strings(_ events: [Event]) -> Set<String> {
        var out: Set<String> = []
        func walk(_ value: JSONValue) {
            switch value {
            case .string(let s): out.insert(s)
            case .array(let a): a.forEach(walk)
            case .object(let o): o.members.forEach { walk($0.value) }
            default: break
            }
        }
        for line in Sealed.lines(events) { if let value = JSONParser.parse(line) { walk(value) } }
        return out
    }

    static func corpus(_ events: [Event]) -> String { strings(events).sorted().joined(separator: "\u{0}") }

    static func jsonEscaped(_ s: String) -> String {
        var w = JSONWriter()
        w.string(s)
        return String(w.string.dropFirst().dropLast())
    }
}

/// The harness itself: generators, seeds and shrinking.
@Suite struct PropertyHarnessTests {
    @Test func aFalsePropertyShrinksToAMinimalCounterexample() throws {
        let property = Property("no camps", seed: 99, maxSize: 40, LogGen.history(), shrink: LogShrink.candidates, describe: LogShrink.describe)
        var smallest: [Event] = []
        let report = property.check(iterations: 100, environment: [:]) { events in
            let camp = events.contains { if case .interactionLogged(let i) = $0.payload { i.type == .camp } else { false } }
            if camp { smallest = events }
            return camp ? "found a camp" : nil
        }
        let text = try #require(report)
        #expect(text.contains("property 'no camps' failed: found a camp"))
        #expect(text.contains("COMPASS_PBT_SEED="))
        // The last failing input seen is the shrunk one: a member, a school, the camp.
        #expect(smallest.count <= 3, "\(text)")
        #expect(smallest.count >= 3)
        #expect(text.contains(#""type":"camp""#))
        #expect(text.contains("3 events:"))
    }

    @Test func aPrintedSeedReplaysTheSameInput() throws {
        let property = Property("size", seed: 5, maxSize: 30, LogGen.history())
        var first: [Event] = []
        let report = try #require(property.check(iterations: 50, environment: [:]) { events in
            if events.count >= 20 { first = events; return "big" }
            return nil
        })
        let seed = try #require(report.split(separator: " ").first { $0.hasPrefix("COMPASS_PBT_SEED=") }?.dropFirst(17).prefix { $0.isNumber })
        var replayed: [Event] = []
        _ = property.check(environment: ["COMPASS_PBT_SEED": String(seed)]) { events in replayed = events; return nil }
        #expect(replayed == first)
    }

    @Test func sizesGrowAcrossIterations() {
        var sizes: [Int] = []
        let property = Property("sizes", seed: 1, maxSize: 40, Gen<Int> { _, size in size })
        _ = property.check(iterations: 10, environment: [:]) { size in sizes.append(size); return nil }
        #expect(sizes == sizes.sorted() && sizes.first == 1 && sizes.last == 40)
    }

    @Test func iterationsComeFromTheEnvironment() {
        var count = 0
        _ = Property("count", seed: 1, Gen<Int>.constant(0)).check(environment: ["COMPASS_PBT_ITERATIONS": "7"]) { _ in count += 1; return nil }
        #expect(count == 7)
    }

    @Test func combinatorsStayInTheirRanges() {
        var rng = SplitMix64(seed: 3)
        let weighted = Gen<String>.frequency([(1, .constant("a")), (0, .constant("never")), (3, .constant("b"))])
        let pairs = Gen.zip(Gen.int(in: 2...4), Gen<Bool>.bool.optional)
        for _ in 0..<500 {
            #expect(weighted.run(&rng, 5) != "never")
            let (n, _) = pairs.run(&rng, 5)
            #expect((2...4).contains(n))
            #expect(Gen<Int>.int(in: 0...3).array.run(&rng, 6).count <= 6)
            #expect(Gen.oneOf([.constant(1), .constant(2)]).map { $0 * 10 }.run(&rng, 1) % 10 == 0)
        }
    }

    @Test func textIncludesEmojiAndCombiningMarks() {
        var rng = SplitMix64(seed: 4)
        let texts = (0..<300).map { _ in Gen<String>.text.run(&rng, 8) }
        #expect(texts.contains { $0.unicodeScalars.contains { $0.properties.isEmojiPresentation } })
        #expect(texts.contains { $0.unicodeScalars.contains { $0.properties.generalCategory == .nonspacingMark } })
        #expect(texts.contains(""))
    }

    @Test func shrunkLogsStayValid() {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<5 {
            let log = LogGen.history().run(&rng, 25)
            for candidate in LogShrink.candidates(log).prefix(60) {
                #expect(Sealed.replay(Sealed.bytes(candidate)).problems.isEmpty)
            }
        }
    }
}
