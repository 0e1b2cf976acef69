import CompassCore

/// Generators of event logs: valid family histories built command by command against the
/// state so far, and adversarial logs mixing them with every kind of bad line.
package enum LogGen {
    /// The `at` of the first generated event.
    package static let start = Timestamp(rfc3339: "2026-01-05T09:00:00Z")!

    /// A valid history of about `size` events over 1…`maxFamilies` interleaved families.
    /// Every event is accepted by ``Rules/decide(_:in:sanitizing:)`` in order.
    package static func history(maxFamilies: Int = 3) -> Gen<[Event]> {
        Gen { rng, size in
            let families = 1 + rng.below(maxFamilies)
            var state = CompassState()
            var events: [Event] = []
            var clock = start.millisecondsSinceEpoch
            var attempts = 0
            while events.count < size, attempts < size * 6 + 20 {
                attempts += 1
                let family = "fam-\(1 + rng.below(families))"
                // Same timestamps happen (ties); otherwise minutes to days apart.
                if rng.below(5) != 0 { clock += Int64(rng.below(3 * 86_400)) * 1000 + Int64(rng.below(1000)) }
                let at = Timestamp(millisecondsSinceEpoch: clock)
                guard let (actor, type, data) = command(&rng, family: family, state: state, at: at, size: size) else { continue }
                let draft = EventDraft(seq: Int64(events.count + 1), id: "ev-\(events.count + 1)-\(rng.below(1 << 20))",
                                       type: type.rawValue, at: at, actor: actor, family: family, data: data)
                guard let event = try? Rules.decide(draft, in: state) else { continue }
                state.apply(event)
                events.append(event)
            }
            return Sealed.reseal(events)
        }
    }

    /// The next command for a family: (actor, type, data), or nil when none fits.
    static func command(_ rng: inout SplitMix64, family id: String, state: CompassState, at: Timestamp, size: Int) -> (String, EventType, JSONObject)? {
        let family = state.families[id]
        let members = family?.memberIds ?? []
        let n = id.dropFirst(4)
        func data(_ pairs: [(String, JSONValue?)]) -> JSONObject {
            JSONObject(pairs.compactMap { key, value in value.map { JSONObject.Member(key, $0) } })
        }
        func text(_ gen: Gen<String>) -> String { gen.run(&rng, 4) }
        guard let family, !members.isEmpty else {
            let user = "u\(n)-1"
            let role: MemberRole = rng.below(3) == 0 ? .player : .parent
            return (user, .memberJoined, data([("userId", .string(user)), ("fullName", .string(text(.nonBlankText))), ("role", .string(role.rawValue))]))
        }
        let players = members.filter { state.members[$0]?.role == .player }
        let schools = family.schools.keys.sorted()
        let coaches = family.coaches.values.sorted { $0.id < $1.id }
        let live = family.interactions.ids.compactMap { family.liveInteraction($0) }
        let anyone = members[rng.below(members.count)]
        var choices: [(Int, Int)] = [(0, members.count < 5 ? (players.isEmpty ? 30 : 4) : 0), (1, schools.count < 6 ? (schools.isEmpty ? 30 : 6) : 1)]
        choices += [(2, schools.isEmpty ? 0 : 5), (3, players.isEmpty || schools.isEmpty ? 0 : 40), (4, live.isEmpty ? 0 : 8)]
        choices += [(5, schools.isEmpty ? 0 : 7), (6, 5), (7, 3), (8, 3)]
        let total = choices.reduce(0) { $0 + $1.1 }
        var pick = rng.below(total)
        var choice = 0
        for (c, weight) in choices {
            if pick < weight { choice = c; break }
            pick -= weight
        }
        switch choice {
        case 0:
            let user = "u\(n)-\(members.count + 1)"
            let role: MemberRole = rng.below(2) == 0 ? .player : .parent
            return (anyone, .memberJoined, data([("userId", .string(user)), ("fullName", .string(text(.nonBlankText))), ("role", .string(role.rawValue))]))
        case 1:
            let status: JSONValue? = rng.below(2) == 0 ? .string(statuses[rng.below(statuses.count)]) : nil
            return (anyone, .schoolAdded, data([("schoolId", .string("s-\(schools.count + 1)")), ("name", .string(String(text(.nonBlankText).prefix(200)))), ("status", status)]))
        case 2:
            return (anyone, .coachAdded, data([
                ("coachId", .string("c-\(coaches.count + 1)")), ("schoolId", .string(schools[rng.below(schools.count)])),
                ("firstName", .string(text(.nonBlankText))), ("lastName", .string(text(.nonBlankText))),
                ("role", .string(CoachRole.allCases[rng.below(3)].rawValue)),
            ]))
        case 3:
            return (players[rng.below(players.count)], .interactionLogged, interaction(&rng, family: family, at: at, schools: schools, coaches: coaches))
        case 4:
            let victim = live[rng.below(live.count)]
            return (victim.loggedBy, .interactionDeleted, data([("interactionId", .string(victim.logged.interactionId))]))
        case 5:
            let notes: JSONValue? = rng.below(2) == 0 ? .string(text(.text)) : nil
            return (anyone, .schoolStatusChanged, data([("schoolId", .string(schools[rng.below(schools.count)])), ("newStatus", .string(statuses[rng.below(statuses.count)])), ("notes", notes)]))
        case 7:
            return (anyone, .notificationSettingsChanged, data([("inboundAlerts", .bool(rng.below(2) == 0))]))
        case 8:
            return (anyone, .notificationsRead, data([("upToSeq", .int(Int64(rng.below(state.appliedCount + 2))))]))
        default:
            let size: JSONValue? = rng.below(2) == 0 ? .int(Int64(rng.below(5_000_000))) : nil
            return (anyone, .documentUploaded, data([
                ("documentId", .string("d-\(family.documents.count + 1)")), ("title", .string(String(text(.nonBlankText).prefix(200)))),
                ("docType", .string(docTypes[rng.below(docTypes.count)])), ("fileName", rng.below(2) == 0 ? .string("f.pdf") : nil), ("sizeBytes", size),
            ]))
        }
    }

    static let statuses = ["interested", "contacted", "visit_scheduled", "offer_received", "committed", "a", "x9_"]
    static let docTypes = ["transcript", "highlight_reel", "resume", "z"]

    static func interaction(_ rng: inout SplitMix64, family: Family, at: Timestamp, schools: [String], coaches: [Coach]) -> JSONObject {
        var d = JSONObject()
        d.append("interactionId", .string("i-\(family.interactions.count + 1)"))
        let coach = coaches.isEmpty || rng.below(3) == 0 ? nil : coaches[rng.below(coaches.count)]
        if coach == nil || rng.below(3) != 0 { d.append("schoolId", .string(coach?.schoolId ?? schools[rng.below(schools.count)])) }
        if let coach { d.append("coachId", .string(coach.id)) }
        if rng.below(6) == 0 { d.append("eventId", .string("ev-camp-\(rng.below(3))")) }
        if rng.below(5) == 0 { d.append("otherCoachName", .string(Gen.nonBlankText.run(&rng, 3))) }
        d.append("type", .string(InteractionType.allCases[rng.below(9)].rawValue))
        let direction = Direction.allCases[rng.below(2)]
        d.append("direction", .string(direction.rawValue))
        if rng.below(4) != 0 {
            let shift = Int64(rng.below(40 * 86_400)) - 30 * 86_400
            d.append("occurredAt", .string(at.adding(seconds: shift).rfc3339))
        }
        if rng.below(4) != 0 { d.append("subject", .string(String(Gen.text.run(&rng, 6).utf16.prefix(500)) ?? "s")) }
        if rng.below(3) != 0 { d.append("content", .string(Gen.text.run(&rng, 30))) }
        let sentiment = rng.below(5) == 0 ? nil : Sentiment.allCases[rng.below(4)]
        if let sentiment { d.append("sentiment", .string(sentiment.rawValue)) }
        if direction == .inbound, sentiment == .positive || sentiment == .veryPositive, rng.below(2) == 0 {
            d.append("interestAnswers", .array((0..<6).map { _ in .bool(rng.below(2) == 0) }))
        }
        if rng.below(8) == 0 {
            d.append("attachments", .array([.object(JSONObject([
                .init("name", .string("a.pdf")), .init("sizeBytes", .int(Int64(rng.below(10_485_761)))),
                .init("mimeType", .string("application/pdf")),
            ]))]))
        }
        return d
    }

    /// A log mixing a valid history with bad lines of every kind, as raw lines; sometimes
    /// ending in a torn tail.
    package static func adversarial() -> Gen<AdversarialLog> {
        history(maxFamilies: 2).flatMap { events in
            Gen { rng, _ in
                var lines = Sealed.lines(events)
                var bad: [[UInt8]] = []
                let count = 1 + rng.below(max(1, events.count / 3))
                for _ in 0..<count { bad.append(Array(badLine(&rng, events: events).utf8)) }
                for line in bad { lines.insert(line, at: rng.below(lines.count + 1)) }
                let torn: [UInt8]? = rng.below(3) == 0 && !events.isEmpty ? Array(Sealed.lines([events[0]])[0].prefix(1 + rng.below(30))) : nil
                return AdversarialLog(lines: lines, tornTail: torn)
            }
        }
    }

    /// One line that must not be applied, or that forges what the rules forbid.
    static func badLine(_ rng: inout SplitMix64, events: [Event]) -> String {
        let members = events.compactMap { e -> (String, String, MemberRole)? in
            if case .memberJoined(let m) = e.payload { return (m.userId, e.family, m.role) } else { return nil }
        }
        let parent = members.first { $0.2 == .parent }
        let player = members.first { $0.2 == .player }
        let interactions = events.compactMap { e -> (String, String, String)? in
            if case .interactionLogged(let i) = e.payload { return (i.interactionId, e.actor, e.family) } else { return nil }
        }
        func line(_ actor: String, _ family: String, _ type: String, _ data: String, extra: String = "") -> String {
            #"{"seq":\#(events.count + 1),"id":"bad-\#(rng.below(1 << 30))","type":"\#(type)","at":"2026-06-01T00:00:00Z","actor":"\#(actor)","family":"\#(family)","data":\#(data)\#(extra)}"#
        }
        switch rng.below(13) {
        case 0: return "{not json"
        case 1: return ""
        case 2: return line("u-x", "fam-1", "TeamFormed", "{}")
        case 3: return line(parent?.0 ?? "u-x", parent?.1 ?? "fam-1", "SchoolAdded", #"{"schoolId":"s-v2","name":"V2"}"#, extra: #","v":2"#)
        case 4:  // a parent logs an interaction
            guard let parent else { return "[]" }
            return line(parent.0, parent.1, "InteractionLogged", #"{"interactionId":"i-forged","schoolId":"s-1","type":"email","direction":"inbound","subject":"forged by a parent"}"#)
        case 5:  // someone other than the logger deletes
            guard let target = interactions.first, let other = members.first(where: { $0.0 != target.1 && $0.1 == target.2 }) else { return "null" }
            return line(other.0, target.2, "InteractionDeleted", #"{"interactionId":"\#(target.0)"}"#)
        case 6:  // a member of another family
            guard let player else { return "1" }
            return line(player.0, player.1 == "fam-1" ? "fam-2" : "fam-1", "InteractionLogged", #"{"interactionId":"i-x","schoolId":"s-1","type":"email","direction":"inbound"}"#)
        case 7: return line("u-ghost", "fam-1", "SchoolAdded", #"{"schoolId":"s-g","name":"Ghost"}"#)
        case 8: return events.isEmpty ? "{}" : String(decoding: Sealed.lines([events[rng.below(events.count)]])[0], as: UTF8.self)  // duplicate id
        case 9: return #"{"seq":"1","id":"e","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{}}"#
        case 10:
            guard let player else { return "\u{FEFF}{}" }
            return line(player.0, player.1, "InteractionLogged", #"{"interactionId":"i-long","schoolId":"s-1","type":"email","direction":"inbound","subject":"\#(String(repeating: "🔥", count: 251))"}"#)
        case 11: return #"{"seq":1,"id":"dup","id":"dup2","type":"SchoolAdded"}"#
        default:
            guard let player else { return "   " }
            return line(player.0, player.1, "InteractionLogged", #"{"interactionId":"i-bad","schoolId":"s-1","type":"fax","direction":"inbound"}"#)
        }
    }
}

/// A log with bad lines in it, and maybe a torn last line.
package struct AdversarialLog: CustomStringConvertible {
    package var lines: [[UInt8]]
    package var tornTail: [UInt8]?

    package var bytes: [UInt8] {
        var out: [UInt8] = []
        for line in lines { out += line; out.append(0x0A) }
        if let tornTail { out += tornTail }
        return out
    }

    package var description: String { String(decoding: bytes, as: UTF8.self) }
}

/// Turning events into sealed log lines.
package enum Sealed {
    /// The events renumbered and chained per family (SPEC §1.1), as they would be written:
    /// each family's lines `seq` 1…n with their own `prev` chain.
    package static func reseal(_ events: [Event]) -> [Event] {
        var heads: [String: (seq: Int64, head: String)] = [:]
        return events.map { event in
            var e = event
            let before = heads[e.family] ?? (0, SHA256.emptyHex)
            e.seq = before.seq + 1
            e.prev = before.head
            heads[e.family] = (e.seq, SHA256.hex(EventEncoder.line(for: e)))
            return e
        }
    }

    /// Each event's line (resealed), without `\n`.
    package static func lines(_ events: [Event]) -> [[UInt8]] {
        reseal(events).map(EventEncoder.line(for:))
    }

    /// The whole log.
    package static func bytes(_ events: [Event]) -> [UInt8] {
        var out: [UInt8] = []
        for line in lines(events) { out += line; out.append(0x0A) }
        return out
    }

    /// The log as text (for failure reports and regression tests).
    package static func text(_ events: [Event]) -> String { String(decoding: bytes(events), as: UTF8.self) }

    /// Replays a log held in memory.
    package static func replay(_ bytes: [UInt8], cut: ReplayCut = ReplayCut()) -> Replayer {
        var replayer = Replayer(cut: cut)
        replayer.consume(bytes: bytes)
        return replayer
    }

    /// Keeps the events the rules accept in order (after shrinking removed some), resealed.
    package static func revalidate(_ events: [Event]) -> [Event] {
        var state = CompassState()
        var kept: [Event] = []
        for event in events {
            let draft = EventDraft(seq: 1, id: event.id, type: event.type.rawValue, at: event.at, actor: event.actor, family: event.family,
                                   data: (JSONParser.parse(EventEncoder.data(for: event.payload)).flatMap { if case .object(let o) = $0 { o } else { nil } }) ?? JSONObject())
            guard let accepted = try? Rules.decide(draft, in: state) else { continue }
            state.apply(accepted)
            kept.append(accepted)
        }
        return reseal(kept)
    }
}
