// A client of the public API only, as the family's iOS app uses it: no `@testable`.
import CompassCore
import CompassStore
import Foundation
import Testing

/// What the app does, start to finish, through `CompassStore`.
@Suite(.serialized) struct FamilyAppTests {
    let folder = NSTemporaryDirectory() + "compass-app-" + UUID().uuidString.lowercased()
    var logPath: String { folder + "/family/events.jsonl" }

    /// A store with a fixed clock and numbered ids, as a test of the app would make.
    func openStore(now: String = "2026-03-01T12:00:00Z") throws -> CompassStore {
        let counter = Counter()
        let time = Timestamp(rfc3339: now)!
        return try CompassStore(path: logPath, configuration: .init(clock: { time }, makeId: { "app-\(counter.next())" }))
    }

    /// Issue 57 §4: a family's history (its audit, time travel by `seq`) on a store that keeps
    /// snapshots, as two families' phones use one log, equals a store's that keeps none, for
    /// each family's parent and athlete, also after lines past the snapshot.
    @Test func aFamilysHistoryFromTheSnapshotIsTheWholeLogs() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = Timestamp(rfc3339: "2026-03-01T12:00:00Z")!
        let path = folder + "/events.jsonl"
        let keeping = { try CompassStore(path: path, configuration: .init(clock: { clock }, snapshots: SnapshotPolicy(minimumNewBytes: 0))) }
        let writer = try keeping()
        for family in ["a", "b"] {
            try writer.append(.addMember(AddMember(userId: "u-\(family)-pat", fullName: "Pat", role: .parent, newFamily: "f-\(family)")),
                              as: "u-\(family)-pat")
            try writer.append(.addMember(AddMember(userId: "u-\(family)-kid", fullName: "Kid", role: .player)), as: "u-\(family)-pat")
        }
        func history(_ store: CompassStore, _ viewer: String) throws -> [String] {
            var answers = try store.audit(as: viewer).map { "\($0.line) \($0.seq ?? 0) \($0.summary)" }
            for seq: Int64 in [0, 3, 9, 1_000] { answers.append("\(try store.interactions(as: viewer, atSeq: seq).items.map { "\($0.id) \($0.subject ?? "")" })") }
            return answers
        }
        for round in 0..<3 {
            for family in ["a", "b"] {
                try writer.append(.addSchool(AddSchool(name: "School \(round)\(family)")), as: "u-\(family)-pat")
                try writer.append(.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-school-\(round)\(family)",
                                                                 subject: "Round \(round)")), as: "u-\(family)-kid")
            }
            _ = try keeping().state()  // a snapshot of the log so far; the next round's lines come after it
            let whole = try CompassStore(path: path, configuration: .init(clock: { clock }, snapshots: nil))
            for viewer in ["u-a-pat", "u-a-kid", "u-b-pat", "u-b-kid"] {
                #expect(try history(keeping(), viewer) == history(whole, viewer), "round \(round), \(viewer)")
            }
        }
        #expect(FileManager.default.fileExists(atPath: path + ".snapshot"))
    }

    @Test func aFamilyUsesTheAppFromFirstJoinToTheLiveFeed() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: StoreError.noLog(path: logPath)) { try CompassStore(path: logPath, createIfMissing: false) }
        let store = try openStore()

        // Members join: the parent starts the family, then adds the athlete.
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat Lopez", role: .parent, newFamily: "f-lopez")), as: "u-pat")
        try store.append(.addMember(AddMember(userId: "u-maya", fullName: "Maya Lopez", role: .player)), as: "u-pat")
        let school = try store.append(.addSchool(AddSchool(name: "UCLA", status: "interested")), as: "u-pat")
        #expect(school.entityId == "s-ucla")
        let coach = try store.append(.addCoach(AddCoach(schoolId: "s-ucla", firstName: "Jane", lastName: "Doe", role: .head)), as: "u-pat")
        #expect(coach.entityId == "c-jane-doe" && coach.version == 4)

        // The athlete logs an inbound positive email with calibration and an attachment.
        let email = LogInteraction(type: .email, direction: .inbound, schoolId: "s-ucla", coachId: "c-jane-doe",
                                   subject: "Camp invite", content: "We'd love to see you at camp.", sentiment: .positive,
                                   interestAnswers: [true, true, true, true, false, true])
        let logged = try store.append(.logInteraction(email), as: "u-maya",
                                      files: [.bytes(name: "schedule.txt", Array("Day 1: drills\n".utf8))])
        #expect(logged.entityId == "i-1")
        // One more, deleted by the athlete who logged it.
        let extra = try store.append(.logInteraction(LogInteraction(type: .text, direction: .outbound, schoolId: "s-ucla")), as: "u-maya")
        try store.append(.deleteInteraction(DeleteInteraction(interactionId: extra.entityId)), as: "u-maya")
        try store.append(.changeStatus(ChangeStatus(schoolId: "s-ucla", newStatus: "offer_received", notes: "Full ride")), as: "u-pat")
        try store.append(.uploadDocument(UploadDocument(title: "Transcript", docType: "transcript")), as: "u-maya")

        // Errors are matched by kind, never by text. (A typed `catch .rejected(let e)` in an
        // async function crashes the 6.3.1 compiler, so the kind is switched on here.)
        switch Self.failure(of: { () throws(StoreError) in try store.append(.logInteraction(email), as: "u-pat") }) {
        case .rejected(let error)?: #expect(error.kind == .forbidden && error.message == "Only players can create interactions")
        default: Issue.record("a parent logged an interaction")
        }
        switch Self.failure(of: { () throws(StoreError) in try store.append(.addSchool(AddSchool(name: "Duke")), as: "u-pat", expectVersion: 3) }) {
        case .staleVersion(let family, let expected, let current)?:  // another device wrote first: reload and retry
            #expect(expected == 3 && current != 3 && !family.isEmpty)
        default: Issue.record("a stale version was accepted")
        }
        // A retry with the same idempotency key is the same event.
        let first = try store.append(.addSchool(AddSchool(name: "Stanford")), as: "u-pat", idempotencyKey: "tap-1")
        let retry = try store.append(.addSchool(AddSchool(name: "Stanford")), as: "u-pat", idempotencyKey: "tap-1")
        #expect(first == retry)

        // Reads: the list for a parent and for the athlete, filtered; the detail; activity.
        let parentList = try store.interactions(as: "u-pat", query: InteractionQuery(direction: .inbound))
        #expect(parentList.items.map(\.id) == ["i-1"])
        #expect(parentList.items[0].interestLevel == .high && parentList.items[0].loggedByName == "Maya Lopez")
        let athleteList = try store.interactions(as: "u-maya")
        #expect(athleteList.privacyNotice && athleteList.items.count == 1 && athleteList.items[0].canDelete)
        let detail = try store.interaction("i-1", as: "u-maya")
        #expect(detail.canExport && detail.attachments.first?.name == "schedule.txt")
        #expect(try store.attachmentBytes(detail.attachments[0]) == Array("Day 1: drills\n".utf8))
        let activity = try store.activity(as: "u-pat", query: ActivityQuery(page: 1))
        #expect(activity.items.map(\.type).contains(.schoolStatusChange) && activity.items.map(\.type).contains(.documentUpload))
        #expect(try store.read { $0.family(of: "u-pat")?.version } == 10)  // the refused and conflicting appends wrote nothing; the retry is the same event

        // The live feed: another process appends; the app receives it.
        let feed = store.activityChanges(as: "u-pat", every: .milliseconds(20))
        let waiter = Task { () -> ActivityItem? in
            for await item in feed { return item }
            return nil
        }
        try await Task.sleep(for: .milliseconds(200))
        try Self.appendFromAnotherProcess(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "dm",
                                           "--direction", "inbound", "--subject", "From the phone", "--log", logPath])
        let item = try #require(await Self.withTimeout(seconds: 10) { await waiter.value })
        #expect(item?.title == "Direct Message with UCLA")

        // And the log proves itself.
        let report = try store.verify()
        #expect(report.ok && report.snapshot == .none)
        #expect(report.applied == 11)
    }

    @Test func anAthleteLeavesAndTheAppForgetsThemProvably() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try openStore()
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat Lopez", role: .parent, newFamily: "f-lopez")), as: "u-pat")
        try store.append(.addMember(AddMember(userId: "u-maya", fullName: "Maya Lopez", role: .player)), as: "u-pat")
        try store.append(.addMember(AddMember(userId: "u-leo", fullName: "Leo Lopez", role: .player)), as: "u-pat")
        try store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
        try store.append(.logInteraction(LogInteraction(type: .email, direction: .outbound, schoolId: "s-ucla", subject: "Maya's reel")),
                         as: "u-maya", files: [.bytes(name: "reel.txt", Array("Maya's highlights".utf8))])
        try store.append(.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-ucla", subject: "Leo's camp")), as: "u-leo")
        let kept = try store.verify().families[0].head
        #expect(try store.state().member("u-maya") != nil)

        // Who may ask is checked by kind; a dry run changes nothing.
        switch Self.failure(of: { () throws(StoreError) in try store.erase(member: "u-maya", as: "u-leo") }) {
        case .rejected(let error)?: #expect(error.kind == .forbidden)
        default: Issue.record("a sibling erased an athlete")
        }
        let preview = try store.erase(member: "u-maya", as: "u-pat", dryRun: true)
        #expect(preview.dryRun && preview.erasedLines == 2 && preview.attachments == 1)
        #expect(try store.verify().families[0].head == kept)

        let report = try store.erase(member: "u-maya", as: "u-pat")
        #expect(!report.dryRun && report.erasedLines == 2 && report.erasedByType == ["MemberJoined": 1, "InteractionLogged": 1])
        #expect(report.oldHead == kept && report.oldLines == 6 && report.seq == 7)
        // The store's own reads follow the replaced log at once.
        let state = try store.state()
        #expect(state.member("u-maya") == nil && state.erasedLineCount == 2)
        #expect(try store.interactions(as: "u-pat").items.map(\.subject) == ["Leo's camp"])
        let proof = try store.verify(expectHead: kept)
        #expect(proof.ok && proof.expectedHeadProvenBy?.line == 7 && proof.erasures.count == 1)
        #expect(try store.verify().families[0].head == report.newHead)
        // Appends go on after it.
        try store.append(.addSchool(AddSchool(name: "Duke")), as: "u-leo")
        #expect(try store.verify(expectHead: kept).ok)
    }

    /// The store error `body` throws, if any.
    static func failure(of body: () throws(StoreError) -> Void) -> StoreError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    /// Runs the `compass` executable built beside this test bundle.
    static func appendFromAnotherProcess(_ arguments: [String]) throws {
        let process = Process()
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("compass").path) {
            folder = Bundle.main.bundleURL.deletingLastPathComponent()
        }
        process.executableURL = folder.appendingPathComponent("compass")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    static func withTimeout<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async -> T) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await body() }
            group.addTask { try? await Task.sleep(for: .seconds(seconds)); return nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// Numbered ids for the test's store.
final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

/// The values an app passes are checked, with typed errors.
@Suite struct PublicAPIContractTests {
    @Test func invalidQueriesAreRefusedByKind() throws {
        let folder = NSTemporaryDirectory() + "compass-api-" + UUID().uuidString.lowercased()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CompassStore(path: folder + "/events.jsonl")
        try store.append(.addMember(AddMember(userId: "u-1", fullName: "One", role: .parent, newFamily: "f-1")), as: "u-1")
        for query in [ActivityQuery(page: 0), ActivityQuery(pageSize: 0)] {
            #expect(throws: StoreError.self) { try store.activity(as: "u-1", query: query) }
            #expect(throws: EventError.self) { try query.validate() }
        }
        #expect(throws: EventError.self) { try InteractionQuery(periodDays: 3).validate() }
        #expect(throws: StoreError.self) { try store.interactions(as: "u-1", query: InteractionQuery(periodDays: 3)) }
        #expect(try store.interactions(as: "u-1", query: InteractionQuery(periodDays: 30)).items.isEmpty)
    }

    @Test func timestampsBridgeToDate() {
        let time = Timestamp(rfc3339: "2026-02-03T14:15:00.250Z")!
        #expect(Timestamp(time.date) == time)
        #expect(time.date.timeIntervalSince1970 == 1_770_128_100.25)
    }

    @Test func resultsAreIdentifiable() throws {
        let receipt = Receipt(seq: 1, eventId: "e-1", entityId: "s-1")
        #expect(receipt.id == "e-1")
        #expect(Set([receipt, receipt]).count == 1)
    }

    /// Errors say what happened (issue 26): a reused key and a stale version are separate
    /// cases, the message is the localized description, and a log that is not there is
    /// `noLog`, not an unknown user.
    @Test func errorsSayWhatHappened() throws {
        let folder = NSTemporaryDirectory() + "client-errors-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CompassStore(path: folder + "/events.jsonl")
        switch FamilyAppTests.failure(of: { () throws(StoreError) in _ = try store.interactions(as: "u-pat") }) {
        case .noLog?: break
        default: Issue.record("a missing log read as something else")
        }
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "f")), as: "u-pat")
        try store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat", idempotencyKey: "k-1")
        switch FamilyAppTests.failure(of: { () throws(StoreError) in try store.append(.addSchool(AddSchool(name: "Duke")), as: "u-pat", idempotencyKey: "k-1") }) {
        case .keyReused(let eventId)?: #expect(eventId == "k-1")
        default: Issue.record("a reused key was not reported as such")
        }
        // A refused command inside a batch says which one, and an unknown id which field and id.
        let batch: [Command] = [.addSchool(AddSchool(name: "Rice")), .changeStatus(ChangeStatus(schoolId: "s-nowhere", newStatus: "contacted"))]
        switch FamilyAppTests.failure(of: { () throws(StoreError) in _ = try store.append(batch: batch, as: "u-pat") }) {
        case .rejectedLines(let problems)?: #expect(problems.map(\.line) == [2] && problems[0].message == "Please select a school")
        default: Issue.record("a refused command in a batch was not named")
        }
        #expect(try store.state().family(id: "f")?.school("s-rice") == nil)  // all or nothing
        switch FamilyAppTests.failure(of: { () throws(StoreError) in try store.append(.changeStatus(ChangeStatus(schoolId: "s-nowhere", newStatus: "contacted")), as: "u-pat") }) {
        case .rejected(let rule)?: #expect(rule.field == "schoolId" && rule.value == "s-nowhere")
        default: Issue.record("an unknown school was not named")
        }
        let error: Error = StoreError.staleVersion(family: "f", expected: 1, current: 2)
        #expect(error.localizedDescription == "Conflict: expected version 1 of family f, but it is 2")
    }

    /// Every read model of SPEC §3 is a store method taking the viewer (issue 26 item 2), on
    /// the configured clock, with one error type.
    @Test func everyReadModelIsAStoreMethod() throws {
        let folder = NSTemporaryDirectory() + "client-views-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = Timestamp(rfc3339: "2026-03-01T12:00:00Z")!
        let store = try CompassStore(path: folder + "/events.jsonl", configuration: .init(clock: { clock }))
        try store.append(.addMember(AddMember(userId: "u-pat", fullName: "Pat", role: .parent, newFamily: "f")), as: "u-pat")
        try store.append(.addMember(AddMember(userId: "u-kid", fullName: "Kid", role: .player)), as: "u-pat")
        try store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
        try store.append(.addCoach(AddCoach(schoolId: "s-ucla", firstName: "Jane", lastName: "Doe", role: .head)), as: "u-pat")
        try store.append(.logInteraction(LogInteraction(type: .email, direction: .inbound, schoolId: "s-ucla", subject: "Hi")), as: "u-kid")
        try store.append(.uploadDocument(UploadDocument(title: "Transcript", docType: "transcript")), as: "u-kid")
        #expect(try store.schools(as: "u-pat").map(\.schoolId) == ["s-ucla"])
        #expect(try store.schools(as: "u-pat").first?.daysSinceContact == 0)  // the configured clock
        #expect(try store.coaches(as: "u-kid", school: "s-ucla").count == 1)
        #expect(try store.members(as: "u-kid").count == 2)
        #expect(try store.documents(as: "u-pat").map(\.title) == ["Transcript"])
        #expect(try store.notifications(as: "u-pat").unread == 1)
        #expect(try store.report(as: "u-pat").contains("Recruiting report"))
        #expect(try store.read { state throws(StoreError) in state.familyIds.count } == 1)
        // Audit and time travel, from the app too.
        let history = try store.audit(as: "u-pat")
        #expect(history.count == 6 && history.first?.summary.contains("started the family") == true)
        #expect(try store.audit(as: "u-kid").allSatisfy { $0.actor == "u-kid" })
        #expect(try store.interactions(as: "u-pat", atSeq: 4).items.isEmpty)
        #expect(try store.interactions(as: "u-pat", atSeq: 5).items.count == 1)
        // Values an app can keep: every result encodes and decodes back equal.
        func roundTrips<T: Codable & Equatable>(_ value: T) throws -> Bool {
            try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value)) == value
        }
        #expect(try roundTrips(store.interactions(as: "u-pat")))
        #expect(try roundTrips(store.interaction("i-1", as: "u-kid")))
        #expect(try roundTrips(store.activity(as: "u-pat")))
        #expect(try roundTrips(store.schools(as: "u-pat")))
        #expect(try roundTrips(store.coaches(as: "u-pat")))
        #expect(try roundTrips(store.members(as: "u-pat")))
        #expect(try roundTrips(store.documents(as: "u-pat")))
        #expect(try roundTrips(store.notifications(as: "u-pat")))
        #expect(try roundTrips(store.audit(as: "u-pat")))
        switch FamilyAppTests.failure(of: { () throws(StoreError) in _ = try store.schools(as: "u-ghost") }) {
        case .rejected(let error)?: #expect(error.kind == .notFound)
        default: Issue.record("an unknown viewer was not refused")
        }
    }
}
