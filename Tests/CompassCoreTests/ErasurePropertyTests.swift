import CompassCore
import CompassTestSupport
import Foundation
import Testing

/// SPEC §5 as properties over random family histories: an erasure leaves exactly the views of
/// a log that never had the erased lines, proves the old head, and no tampering survives it.
@Suite struct ErasurePropertyTests {
    static let at = Timestamp(rfc3339: "2027-01-01T00:00:00Z")!

    /// A random history and a member to erase (by themselves or a parent), or nil when every
    /// member added others still in the family.
    static func erasable(_ events: [Event], pick: Int) -> (target: ErasureTarget, requester: String)? {
        let state = Sealed.replay(Sealed.bytes(events)).state
        let adders = Set(events.compactMap { event -> String? in
            if case .memberJoined(let joined) = event.payload, joined.userId != event.actor { return event.actor }
            return nil
        })
        let candidates = state.members.keys.sorted().filter { !adders.contains($0) }
        guard !candidates.isEmpty else { return nil }
        let user = candidates[pick % candidates.count]
        let family = state.members[user]!.family
        let parent = state.families[family]!.memberIds.first { state.members[$0]?.role == .parent && $0 != user }
        return (.member(user), pick % 2 == 0 ? user : (parent ?? user))
    }

    static func plan(_ bytes: [UInt8], _ target: ErasureTarget, _ requester: String, id: String = "erasure-1") throws -> ErasurePlan {
        try ErasurePlanner.plan(log: bytes, target: target, requester: requester, at: at, eventId: id)
    }

    /// The log without the given 1-based lines: what a log that never had them holds.
    static func without(_ bytes: [UInt8], lines: [Int]) -> [UInt8] {
        let drop = Set(lines)
        var out: [UInt8] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().enumerated()
        where !drop.contains(index + 1) {
            out += line
            out.append(0x0A)
        }
        return out
    }

    @Test func viewsAfterAnErasureAreThoseOfALogThatNeverHadTheLines() {
        let property = Property("views after erase = views without the erased lines", seed: 51, maxSize: 40,
                                LogGen.history(maxFamilies: 3), shrink: LogShrink.candidates, describe: LogShrink.describe)
        let failure = property.check { events in
            let bytes = Sealed.bytes(events)
            for pick in 0..<3 {
                guard let (target, requester) = Self.erasable(events, pick: pick) else { return nil }
                let plan: ErasurePlan
                do { plan = try Self.plan(bytes, target, requester) } catch { return "refused: \(error)" }
                let erased = Sealed.replay(plan.newLog)
                let never = Sealed.replay(Self.without(bytes, lines: plan.erasedLines))
                guard case .member(let user) = target, erased.state.members[user] == nil else { return "the member is still there" }
                guard erased.state.erasedLineCount == plan.erasedLines.count else { return "Erased records not counted" }
                guard erased.problems.isEmpty else { return "the erased log has problems: \(erased.problems)" }
                guard Set(erased.state.members.keys) == Set(never.state.members.keys) else { return "members differ" }
                for viewer in erased.state.members.keys.sorted()
                where AllViews.json(erased.state, viewer: viewer) != AllViews.json(never.state, viewer: viewer) {
                    return "views of \(viewer) differ after erasing \(user)"
                }
            }
            return nil
        }
        #expect(failure == nil, Comment(rawValue: failure ?? ""))
    }

    @Test func aFamilyErasureLeavesOtherFamiliesUntouchedAndNothingOfTheFamily() {
        let property = Property("family erasure", seed: 52, maxSize: 40, LogGen.history(maxFamilies: 3),
                                shrink: LogShrink.candidates, describe: LogShrink.describe)
        let failure = property.check { events in
            let bytes = Sealed.bytes(events)
            let before = Sealed.replay(bytes).state
            guard let parent = before.members.values.sorted(by: { $0.userId < $1.userId }).first(where: { $0.role == .parent }) else { return nil }
            let plan: ErasurePlan
            do { plan = try Self.plan(bytes, .family, parent.userId) } catch { return "refused: \(error)" }
            let after = Sealed.replay(plan.newLog).state
            guard !after.members.values.contains(where: { $0.family == parent.family }) else { return "a member of the family is left" }
            guard after.families[parent.family].map({ $0.schools.isEmpty && $0.interactions.records.isEmpty }) ?? true else {
                return "the family's data is left"
            }
            for viewer in before.members.keys.sorted() where before.members[viewer]!.family != parent.family {
                if AllViews.json(after, viewer: viewer) != AllViews.json(before, viewer: viewer) {
                    return "views of \(viewer) in another family changed"
                }
            }
            return nil
        }
        #expect(failure == nil, Comment(rawValue: failure ?? ""))
    }

    /// `verify --expect-head OLD` in core terms: the log has no problem and an erasure proves OLD.
    static func verifies(_ bytes: [UInt8], head: String) -> Bool {
        let replay = Sealed.replay(bytes)
        guard replay.problems.isEmpty, replay.tornLine == nil else { return false }
        var proof = ErasureProof()
        proof.consume(bytes: bytes)
        return proof.proof(of: head) != nil
    }

    @Test func theOldHeadIsProvenThroughLaterErasuresAndNoTamperingSurvives() {
        let property = Property("old head proven, any tamper breaks it", seed: 53, maxSize: 30, LogGen.history(maxFamilies: 2),
                                shrink: LogShrink.candidates, describe: LogShrink.describe)
        let failure = property.check(iterations: 60) { events in
            let bytes = Sealed.bytes(events)
            guard let (target, requester) = Self.erasable(events, pick: 0) else { return nil }
            guard case .member(let erasedUser) = target, let family = Sealed.replay(bytes).state.members[erasedUser]?.family,
                  let oldHead = Sealed.replay(bytes).streams[family: family]?.head.text else { return "no family" }
            guard let first = try? Self.plan(bytes, target, requester) else { return "refused" }
            var log = first.newLog
            let recordLine = log.split(separator: 0x0A).count
            // A second erasure of someone else, when there is one: the first head still holds.
            let state = Sealed.replay(log).state
            if let other = state.members.keys.sorted().first(where: { user in
                !log.isEmpty && (try? Self.plan(log, .member(user), user, id: "erasure-2")) != nil
            }) {
                log = try! Self.plan(log, .member(other), other, id: "erasure-2").newLog
            }
            // Life goes on in the family, when a member is left: a later line seals the records
            // (the last line of a stream is covered by the new head `erase` prints, not the old one).
            let replayed = Sealed.replay(log)
            let remaining = replayed.state.families[family]?.memberIds.sorted().first
            if let remaining, let stream = replayed.streams[family: family] {
                let later = Event(seq: stream.seq + 1, id: "ev-later", at: Self.at, actor: remaining, family: family,
                                  payload: .notificationSettingsChanged(NotificationSettingsChanged(inboundAlerts: true)), prev: stream.head.text)
                log += EventEncoder.line(for: later) + [0x0A]
            }
            guard Self.verifies(log, head: oldHead) else { return "the old head is not proven" }
            guard !Self.verifies(log, head: String(repeating: "0", count: 64)) else { return "an unknown head is proven" }
            // Tamper with one byte of any line of the family the old head covers, or of the
            // first record when a later line seals it.
            var offsets: [Int] = []
            var start = 0
            for (index, line) in log.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().enumerated() {
                let coveredLine = index + 1 < recordLine || (index + 1 == recordLine && remaining != nil)
                if coveredLine, String(decoding: line, as: UTF8.self).contains("\"family\":\"\(family)\"") {
                    offsets += start..<(start + line.count)
                }
                start += line.count + 1
            }
            var rng = SplitMix64(seed: UInt64(log.count))
            for _ in 0..<40 where !offsets.isEmpty {
                var tampered = log
                let offset = offsets[rng.below(offsets.count)]
                tampered[offset] = tampered[offset] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
                // What follows the old head's lines stays sealed to the tampered ones, as a
                // forger would leave it or rewrite it: both must fail.
                if Self.verifies(tampered, head: oldHead) { return "a tamper at byte \(offset) still proves the old head" }
            }
            return nil
        }
        #expect(failure == nil, Comment(rawValue: failure ?? ""))
    }

    @Test func onlyTheMemberOrAParentMayEraseAndOtherFamiliesAreNotFound() throws {
        var fixture = Fixture.family()
        fixture.must("InteractionLogged", "u-maya", #"{"interactionId":"i-1","schoolId":"s-asu","type":"email","direction":"outbound"}"#)
        let bytes = Sealed.bytes(fixture.events)
        #expect(throws: EventError("Cannot erase u-pat: they added u-maya, u-leo to the family; erase those members first, or the whole family with --family")) {
            try Self.plan(bytes, .member("u-pat"), "u-pat")
        }
        #expect(throws: EventError("Unknown user u-nobody", kind: .notFound)) { try Self.plan(bytes, .member("u-nobody"), "u-pat") }
        #expect(throws: EventError("Only a parent or the member can erase a member's data", kind: .forbidden)) {
            try Self.plan(bytes, .member("u-leo"), "u-maya")
        }
        #expect(throws: EventError("Only a parent can erase the family's data", kind: .forbidden)) { try Self.plan(bytes, .family, "u-maya") }
        let plan = try Self.plan(bytes, .member("u-maya"), "u-maya")
        #expect(plan.erasedLines.count > 0)
    }
}
