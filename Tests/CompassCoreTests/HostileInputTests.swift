import CompassCore
import CompassTestSupport
import Foundation
import Testing

/// Replay fed hostile input: random bytes and mutated valid lines. No crash, no hang, every
/// bad line reported with its number, every good line applied.
@Suite struct HostileInputTests {
    /// One hostile line (without `\n`), sometimes derived from a valid line.
    static func hostile(_ rng: inout SplitMix64, from valid: [UInt8]) -> [UInt8] {
        switch rng.below(14) {
        case 0: return (0..<rng.below(200)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }.map { $0 == 0x0A ? 0x20 : $0 }
        case 1, 2:  // flip bits
            var line = valid
            for _ in 0..<(1 + rng.below(4)) where !line.isEmpty {
                let i = rng.below(line.count)
                line[i] ^= UInt8(1 << rng.below(8))
                if line[i] == 0x0A { line[i] = 0x0B }
            }
            return line
        case 3:  // cut or duplicate a slice
            guard valid.count > 4 else { return valid }
            let a = rng.below(valid.count), b = rng.below(valid.count)
            return Array(valid[..<min(a, b)]) + Array(valid[max(a, b)...]) + (rng.below(2) == 0 ? Array(valid[min(a, b)..<max(a, b)]) : [])
        case 4: return Array(#"{"seq":1,"note":"\#u{0}"}"#.utf8) + [0x00, 0x00]                                 // NUL bytes
        case 5: return Array(#"{"seq":1,"id":"x","type":"SchoolAdded","data":{"name":""#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}}"#.utf8)  // invalid UTF-8
        case 6: return Array((String(repeating: "[", count: 65 + rng.below(400)) + String(repeating: "]", count: 65)).utf8)  // deeper than the parser allows
        case 7: return Array(#"{"seq":1e999999,"id":123456789012345678901234567890,"type":-0.0000001,"at":1.5}"#.utf8)
        case 8: return Array(#"{"seq":1,"seq":2,"id":"a","id":"b"}"#.utf8)                                       // duplicate keys
        case 9: return [0xEF, 0xBB, 0xBF] + valid                                                                  // BOM
        case 10: return Array(#"{"s":"\ud800","t":"\udc00x"}"#.utf8)                                               // lone surrogates
        case 11: return Array(#"{"a":"\u12"}"#.utf8)
        case 12: return Array(String(repeating: "{\"a\":", count: 100).utf8)
        default: return []  // a blank line
        }
    }

    @Test func hostileLinesAreReportedAndGoodLinesApplied() throws {
        var rng = SplitMix64(seed: 0xF022)
        var total = 0
        var hostileTotal = 0
        for chunk in 0..<10 {
            let events = LogGen.history(maxFamilies: 3).sample(seed: UInt64(chunk) &* 7919 &+ 1, size: 250)
            let good = Sealed.lines(events)
            var lines: [[UInt8]] = []
            var goodLineNumbers: [Int] = []
            for line in good {
                lines.append(line)
                goodLineNumbers.append(lines.count)
                // Hostile lines come after the valid line they may be derived from, so a still-valid
                // mutation is a duplicate, never the first of its id.
                while rng.below(100) < 97, lines.count < 10_000 {
                    lines.append(Self.hostile(&rng, from: good[rng.below(goodLineNumbers.count)]))
                    if rng.below(40) == 0 { break }
                }
            }
            while lines.count < 10_000 { lines.append(Self.hostile(&rng, from: good[rng.below(good.count)])) }
            if chunk == 0 { lines.append(Array(repeating: UInt8(ascii: "x"), count: Replayer.maxLineBytes + 10)) }
            var bytes: [UInt8] = []
            for line in lines { bytes += line; bytes.append(0x0A) }
            if chunk == 9 { bytes += Array(#"{"seq":"#.utf8) }  // a torn tail

            var applied: [Int: String] = [:]
            var rejected: Set<Int> = []
            var replayer = Replayer(observer: { outcome, _ in
                switch outcome {
                case .applied(let line, let event): applied[line] = event.id
                case .rejected(let line, _, _): rejected.insert(line)
                case .erased(let line, _): rejected.insert(line)
                }
            })
            replayer.consume(bytes: bytes)
            let count = lines.count + (chunk == 9 ? 1 : 0)
            #expect(replayer.linesRead == count)
            // Every line is accounted for exactly once: applied, or rejected with a problem.
            let unaccounted = (1...count).filter { (applied[$0] != nil) == rejected.contains($0) }
            #expect(unaccounted.isEmpty, "lines \(unaccounted.prefix(5)) of chunk \(chunk)")
            let problemLines = Set(replayer.problems.map(\.line))
            #expect(rejected.isSubset(of: problemLines))
            let missed = zip(events, goodLineNumbers).filter { applied[$0.1] != $0.0.id }.map(\.1)
            #expect(missed.isEmpty, "good lines \(missed.prefix(5)) of chunk \(chunk) not applied")
            if chunk == 0 { #expect(replayer.problems.contains(Problem(line: lines.count, message: "line too long", kind: .unreadable))) }
            if chunk == 9 { #expect(replayer.problems.last == Problem(line: count, message: "torn last line", kind: .torn)) }
            total += count
            hostileTotal += count - good.count
        }
        #expect(total >= 100_000)
        print("fuzz: \(total) lines replayed, \(hostileTotal) hostile, all accounted for")
    }

    @Test func crlfLinesParseAndTheirCarriageReturnIsPartOfTheChain() {
        let events = LogGen.history(maxFamilies: 1).sample(seed: 3, size: 6)
        let lines = Sealed.lines(events)
        var bytes: [UInt8] = []
        for line in lines { bytes += line + [0x0D, 0x0A] }
        let replayer = Sealed.replay(bytes)
        #expect(replayer.state.appliedCount == events.count)
        // Each line was sealed without its `\r`, so every link after the first is reported.
        #expect(replayer.problems.count == max(0, events.count - 1))
        #expect(replayer.problems.allSatisfy { $0.message.hasPrefix("prev does not match") })
    }
}
