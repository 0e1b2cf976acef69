/// Writes valid synthetic logs: families of parents and athletes adding schools and coaches,
/// logging interactions of every type and field, deleting some, changing statuses and
/// uploading documents. The same seed gives the same bytes.
///
/// Every event goes through ``Rules/decide(_:in:sanitizing:)`` before it is written, so the
/// output always replays without problems.
package struct HistoryGenerator {
    package var families: Int
    package var events: Int
    package var seed: UInt64
    /// The `at` of the first event; later events move forward in time.
    package var start = Timestamp(rfc3339: "2025-01-06T15:00:00Z")!
    /// The span the events are spread over.
    package var spanSeconds: Int64 = 365 * 86_400

    package init(families: Int, events: Int, seed: UInt64) {
        self.families = max(1, families)
        self.events = max(0, events)
        self.seed = seed
    }

    /// Calls `emit` with each line (without `\n`), in order.
    package func generate(_ emit: ([UInt8]) -> Void) {
        var rng = SplitMix64(seed: seed)
        var state = CompassState()
        var clock = start.millisecondsSinceEpoch
        let averageStep = max(1, spanSeconds * 1000 / Int64(max(events, 1)))
        var families: [FamilyPlan] = (0..<self.families).map { FamilyPlan(index: $0) }
        var written = 0
        while written < events {
            let familyIndex = rng.below(families.count)
            clock += Int64(rng.below(Int(2 * averageStep)))
            let at = Timestamp(millisecondsSinceEpoch: clock)
            guard let (actor, type, data) = families[familyIndex].next(&rng, state: state, at: at) else { continue }
            // Each family is its own stream (SPEC §1.1): its own `seq` and `prev` chain.
            let draft = EventDraft(seq: families[familyIndex].seq + 1, id: rng.uuid(), type: type.rawValue, at: at, actor: actor,
                                   family: families[familyIndex].id, data: data, prev: families[familyIndex].head)
            guard let event = try? Rules.decide(draft, in: state, sanitizing: true) else { continue }
            state.apply(event)
            let line = EventEncoder.line(for: event)
            families[familyIndex].head = SHA256.hex(line)
            families[familyIndex].seq += 1
            written += 1
            emit(line)
        }
    }

    /// The whole log as bytes, each line ending in `\n`.
    package func bytes() -> [UInt8] {
        var out: [UInt8] = []
        generate { line in
            out += line
            out.append(0x0A)
        }
        return out
    }
}

/// One synthetic family's plan: who is in it and what it has, to choose valid next events.
struct FamilyPlan {
    let index: Int
    var id: String { "fam-\(index + 1)" }
    var members: [(id: String, role: MemberRole)] = []
    var schools: [String] = []
    var coaches: [(id: String, school: String)] = []
    var interactions: [(id: String, by: String)] = []
    var documents = 0
    /// The family stream's last `seq` and head.
    var seq: Int64 = 0
    var head = SHA256.emptyHex

    init(index: Int) { self.index = index }

    var players: [String] { members.filter { $0.role == .player }.map(\.id) }

    /// The next event for this family: (actor, type, data), or nil to try another family.
    mutating func next(_ rng: inout SplitMix64, state: CompassState, at: Timestamp) -> (String, EventType, JSONObject)? {
        // Founding members first: one parent, then athletes; sometimes a second parent.
        if members.count < 2 || (members.count < 4 && rng.chance(2)) {
            let role: MemberRole = members.isEmpty ? .parent : (members.count == 3 ? .parent : .player)
            let userId = "u-\(index + 1)-\(members.count + 1)"
            let actor = members.first?.id ?? userId
            let name = rng.pick(SampleText.firstNames) + " " + SampleText.lastNames[index % SampleText.lastNames.count]
            members.append((userId, role))
            return (actor, .memberJoined, obj(["userId": .string(userId), "fullName": .string(name), "role": .string(role.rawValue)]))
        }
        let anyone = rng.pick(members).id
        if schools.count < 3 || (schools.count < 25 && rng.chance(3)) {
            let schoolId = "s-\(schools.count + 1)"
            schools.append(schoolId)
            var data = ["schoolId": JSONValue.string(schoolId), "name": .string(SampleText.schools[(index * 7 + schools.count) % SampleText.schools.count])]
            if rng.chance(50) { data["status"] = .string(rng.pick(SampleText.statuses)) }
            return (anyone, .schoolAdded, obj(data))
        }
        if coaches.count < schools.count || rng.chance(3) {
            let school = rng.pick(schools)
            let coachId = "c-\(coaches.count + 1)"
            coaches.append((coachId, school))
            return (anyone, .coachAdded, obj([
                "coachId": .string(coachId), "schoolId": .string(school),
                "firstName": .string(rng.pick(SampleText.firstNames)), "lastName": .string(rng.pick(SampleText.lastNames)),
                "role": .string(rng.pick(CoachRole.allCases).rawValue),
            ]))
        }
        let roll = rng.below(100)
        if roll < 6, !interactions.isEmpty {
            let victim = rng.below(interactions.count)
            let (id, by) = interactions.remove(at: victim)
            return (by, .interactionDeleted, obj(["interactionId": .string(id)]))
        }
        if roll < 13 {
            var data = ["schoolId": JSONValue.string(rng.pick(schools)), "newStatus": .string(rng.pick(SampleText.statuses))]
            if rng.chance(60) { data["notes"] = .string(rng.pick(SampleText.sentences)) }
            return (anyone, .schoolStatusChanged, obj(data))
        }
        if roll < 18 {
            documents += 1
            var data = ["documentId": JSONValue.string("d-\(documents)"), "title": .string(rng.pick(SampleText.documentTitles)),
                        "docType": .string(rng.pick(SampleText.docTypes))]
            if rng.chance(70) {
                data["fileName"] = .string("file-\(documents).pdf")
                data["sizeBytes"] = .int(Int64(rng.int(in: 1_000...5_000_000)))
            }
            return (anyone, .documentUploaded, obj(data))
        }
        if roll < 19 {
            return (anyone, .notificationSettingsChanged, obj(["inboundAlerts": .bool(rng.chance(2))]))
        }
        if roll < 21 {
            return (anyone, .notificationsRead, obj(["upToSeq": .int(Int64(rng.int(in: 0...Int(seq))))]))
        }
        guard let player = players.isEmpty ? nil : rng.pick(players) else { return nil }
        return (player, .interactionLogged, interaction(&rng, at: at, by: player))
    }

    private mutating func interaction(_ rng: inout SplitMix64, at: Timestamp, by player: String) -> JSONObject {
        let interactionId = "i-\(interactions.count + 1)-\(rng.below(1_000_000))"
        var data = JSONObject()
        data.append("interactionId", .string(interactionId))
        let coach = rng.chance(70) ? rng.pick(coaches) : nil
        let withSchool = coach == nil || rng.chance(85)
        if withSchool { data.append("schoolId", .string(coach?.school ?? rng.pick(schools))) }
        if let coach { data.append("coachId", .string(coach.id)) }
        if rng.chance(10) { data.append("eventId", .string("ev-\(rng.below(50))")) }
        if coach == nil, rng.chance(30) { data.append("otherCoachName", .string(rng.pick(SampleText.firstNames) + " " + rng.pick(SampleText.lastNames))) }
        data.append("type", .string(rng.pick(InteractionType.allCases).rawValue))
        let direction = rng.pick(Direction.allCases)
        data.append("direction", .string(direction.rawValue))
        if rng.chance(80) {
            let back = Int64(rng.below(14 * 86_400)) * 1000
            data.append("occurredAt", .string(Timestamp(millisecondsSinceEpoch: at.millisecondsSinceEpoch - back).rfc3339))
        }
        if rng.chance(85) { data.append("subject", .string(rng.pick(SampleText.subjects))) }
        if rng.chance(90) {
            var content = ""
            let target = rng.int(in: 100...400)
            while content.utf16.count < target { content += (content.isEmpty ? "" : " ") + rng.pick(SampleText.sentences) }
            data.append("content", .string(content))
        }
        let sentiment = rng.chance(80) ? rng.pick(Sentiment.allCases) : nil
        if let sentiment { data.append("sentiment", .string(sentiment.rawValue)) }
        if direction == .inbound, sentiment == .positive || sentiment == .veryPositive, rng.chance(50) {
            data.append("interestAnswers", .array((0..<6).map { _ in .bool(rng.chance(50)) }))
        }
        if rng.chance(8) {
            let count = rng.int(in: 1...2)
            data.append("attachments", .array((0..<count).map { n in
                let (name, mime) = rng.pick(SampleText.attachmentKinds)
                return .object(JSONObject([
                    .init("name", .string("\(name)-\(n + 1).\(mime.1)")),
                    .init("sizeBytes", .int(Int64(rng.int(in: 500...9_000_000)))),
                    .init("mimeType", .string(mime.0)),
                ]))
            }))
        }
        interactions.append((interactionId, player))
        return data
    }

    private func obj(_ fields: [String: JSONValue]) -> JSONObject {
        // Dictionary order is not stable: emit keys sorted, which the encoder normalises anyway.
        JSONObject(fields.keys.sorted().map { JSONObject.Member($0, fields[$0]!) })
    }
}
