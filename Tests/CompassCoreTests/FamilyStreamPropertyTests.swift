import CompassCore
import CompassTestSupport
import Foundation
import Testing

/// SPEC v3 §1.1 as properties over random logs of interleaved families: each family's stream
/// stands alone, and `migrate` turns a v2 log into exactly the v3 log of the same events.
@Suite struct FamilyStreamPropertyTests {
    static func property(_ name: String, seed: UInt64) -> Property<[Event]> {
        Property(name, seed: seed, maxSize: 40, LogGen.history(maxFamilies: 4), shrink: LogShrink.candidates, describe: LogShrink.describe)
    }

    /// The lines of `family`, in order (what `export --stream` writes).
    static func stream(_ bytes: [UInt8], of family: String) -> [UInt8] {
        var out: [UInt8] = []
        for line in bytes.split(separator: 0x0A) where String(decoding: line, as: UTF8.self).contains(#""family":"\#(family)""#) {
            out += line
            out.append(0x0A)
        }
        return out
    }

    /// The same events as SPEC v2 wrote them: one `seq` count and one `prev` chain for the log.
    static func v2(_ events: [Event]) -> [UInt8] {
        var previous = SHA256.emptyHex
        var out: [UInt8] = []
        for (index, event) in events.enumerated() {
            var e = event
            e.seq = Int64(index + 1)
            e.prev = previous
            let line = EventEncoder.line(for: e)
            previous = SHA256.hex(line)
            out += line
            out.append(0x0A)
        }
        return out
    }

    @Test func eachFamilysViewsEqualThoseOfItsStreamAlone() {
        let failure = Self.property("a family's stream alone", seed: 71).check { events in
            let bytes = Sealed.bytes(events)
            let whole = Sealed.replay(bytes)
            for family in whole.state.families.keys.sorted() {
                let alone = Sealed.replay(Self.stream(bytes, of: family))
                if !alone.problems.isEmpty { return "\(family)'s stream alone has problems: \(alone.problems)" }
                if alone.streams[family: family]?.head != whole.streams[family: family]?.head { return "\(family)'s head differs alone" }
                if alone.streams.version(of: family) != whole.streams.version(of: family) { return "\(family)'s version differs alone" }
                for viewer in whole.state.families[family]!.memberIds
                where AllViews.json(alone.state, viewer: viewer) != AllViews.json(whole.state, viewer: viewer) {
                    return "views of \(viewer) differ between the whole log and \(family)'s stream"
                }
            }
            return nil
        }
        #expect(failure == nil, Comment(rawValue: failure ?? ""))
    }

    @Test func migrateTurnsAV2LogIntoTheV3LogOfTheSameEvents() {
        let failure = Self.property("migrate v2 → v3", seed: 72).check { events in
            let v3 = Sealed.bytes(events)
            let outcome: LogMigration.Outcome
            do throws(LogMigration.Refusal) { outcome = try LogMigration.migrate(Self.v2(events)) } catch { return "refused: \(error.problems)" }
            if outcome.newLog != v3 { return "the migrated log differs from the v3 log of the same events" }
            let replayed = Sealed.replay(v3)
            if outcome.root != replayed.streams.root { return "the root printed is not the new log's" }
            for viewer in replayed.state.members.keys.sorted()
            where AllViews.json(outcome.replayed.state, viewer: viewer) != AllViews.json(replayed.state, viewer: viewer) {
                return "views of \(viewer) differ after migrating"
            }
            return nil
        }
        #expect(failure == nil, Comment(rawValue: failure ?? ""))
    }

    @Test func migrateRefusesAV2LogThatDoesNotVerify() throws {
        var fixture = Fixture.family()
        fixture.must("InteractionLogged", "u-maya", #"{"interactionId":"i-1","schoolId":"s-asu","type":"email","direction":"outbound"}"#)
        var v2 = Self.v2(fixture.events)
        // One byte of line 2 changed: line 3's link no longer holds.
        let second = v2.firstIndex(of: 0x0A)! + 30
        v2[second] = v2[second] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
        #expect(throws: LogMigration.Refusal.self) { try LogMigration.migrate(v2) }
        do throws(LogMigration.Refusal) {
            _ = try LogMigration.migrate(v2)
        } catch {
            #expect(error.problems.contains(Problem(line: 3, message: "prev does not match line 2", kind: .chain)))
        }
        // A torn last line is not a log that verifies either.
        let torn = Self.v2(fixture.events) + Array(#"{"seq":99"#.utf8)
        #expect(throws: LogMigration.Refusal.self) { try LogMigration.migrate(torn) }
    }

    /// A root names every family's head at once; `verify --expect-head ROOT` finds a root the
    /// log had after any line, and nothing else.
    @Test func aRootKeptAtAnyLineIsFoundAndNoOtherIs() {
        let failure = Self.property("kept roots", seed: 73).check { events in
            let bytes = Sealed.bytes(events)
            let lines = bytes.split(separator: 0x0A)
            guard !lines.isEmpty else { return nil }
            let cut = lines.count / 2 + 1
            let kept = Sealed.replay(lines.prefix(cut).flatMap { $0 + [0x0A] }).streams.root
            var proof = ErasureProof(seeking: kept)
            proof.consume(bytes: bytes)
            if !proof.found { return "the root after line \(cut) is not found" }
            var other = ErasureProof(seeking: SHA256.hex(Array("not a root".utf8)))
            other.consume(bytes: bytes)
            return other.found ? "a value no root had is found" : nil
        }
        #expect(failure == nil, Comment(rawValue: failure ?? ""))
    }
}
