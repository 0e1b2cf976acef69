import CompassCore
import Foundation

/// Runs a property over generated inputs, shrinks the first counterexample and reports it
/// with the seed that replays it.
///
/// - `COMPASS_PBT_ITERATIONS` sets the number of cases (default 100).
/// - `COMPASS_PBT_SEED` replays exactly one case (the seed a failure printed).
///
/// Each case's seed carries its size in the low byte, so a printed seed replays the same
/// input; sizes grow from 1 to `maxSize` across the iterations.
package struct Property<Input> {
    package var name: String
    package var masterSeed: UInt64
    package var maxSize: Int
    package var generator: Gen<Input>
    /// Smaller inputs to try, best first, when a case fails.
    package var shrink: (Input) -> [Input]
    /// Shows an input in a failure report (a log as JSON lines, ready to paste).
    package var describe: (Input) -> String

    package init(_ name: String, seed: UInt64, maxSize: Int = 40, _ generator: Gen<Input>,
                shrink: @escaping (Input) -> [Input] = { _ in [] }, describe: @escaping (Input) -> String = { "\($0)" }) {
        self.name = name
        self.masterSeed = seed
        self.maxSize = min(maxSize, 255)
        self.generator = generator
        self.shrink = shrink
        self.describe = describe
    }

    /// Checks `holds` (nil when the property holds, else why not); returns a failure report.
    package func check(iterations: Int? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                      _ holds: (Input) -> String?) -> String? {
        let seeds: [UInt64]
        if let text = environment["COMPASS_PBT_SEED"], let seed = UInt64(text) {
            seeds = [seed]
        } else {
            let count = iterations ?? environment["COMPASS_PBT_ITERATIONS"].flatMap(Int.init) ?? 100
            var master = SplitMix64(seed: masterSeed)
            seeds = (0..<count).map { i in
                let size = 1 + i * (maxSize - 1) / max(1, count - 1)
                return (master.next() & ~0xFF) | UInt64(size)
            }
        }
        for seed in seeds {
            let input = generator.sample(seed: seed, size: max(1, Int(seed & 0xFF)))
            guard let message = holds(input) else { continue }
            let (smallest, why, steps) = minimize(input, message, holds)
            return """
            property '\(name)' failed: \(why)
            seed \(seed) (replay with COMPASS_PBT_SEED=\(seed)); shrunk in \(steps) steps to:
            \(describe(smallest))
            """
        }
        return nil
    }

    /// Greedy shrinking: take the first smaller input that still fails, until none does.
    func minimize(_ input: Input, _ message: String, _ holds: (Input) -> String?) -> (Input, String, Int) {
        var current = input
        var why = message
        var steps = 0
        var budget = 3000
        var improved = true
        while improved, budget > 0 {
            improved = false
            for candidate in shrink(current) {
                budget -= 1
                if budget <= 0 { break }
                if let failure = holds(candidate) {
                    current = candidate
                    why = failure
                    steps += 1
                    improved = true
                    break
                }
            }
        }
        return (current, why, steps)
    }
}

/// Shrinking of event logs that keeps every candidate a valid, sealed log.
package enum LogShrink {
    /// Smaller logs: the empty log, then without chunks of n/2, n/4 … 1 events, then with
    /// fields simplified (shortest strings, first enum cases, earliest times). Events that a
    /// removal makes invalid are dropped too (``Sealed/revalidate(_:)``).
    package static func candidates(_ events: [Event]) -> [[Event]] {
        guard !events.isEmpty else { return [] }
        var out: [[Event]] = [[]]
        var chunk = events.count / 2
        while chunk >= 1 {
            var start = 0
            while start < events.count {
                var smaller = events
                smaller.removeSubrange(start..<min(events.count, start + chunk))
                out.append(Sealed.revalidate(smaller))
                start += chunk
            }
            chunk /= 2
        }
        for index in events.indices {
            let founder = events.first { $0.family == events[index].family }?.actor
            for simpler in simplifications(events[index], founder: founder) {
                var changed = events
                changed[index] = simpler
                out.append(Sealed.revalidate(changed))
            }
        }
        return out.filter { $0.count < events.count || $0 != events }
    }

    /// One-step simpler versions of an event.
    static func simplifications(_ event: Event, founder: String?) -> [Event] {
        var out: [Event] = []
        func with(_ payload: Payload) { var e = event; e.payload = payload; out.append(e) }
        // The family's first actor can do everything: fewer members are needed.
        if let founder, founder != event.actor, event.payload.entityId != event.actor {
            var e = event
            e.actor = founder
            out.append(e)
        }
        switch event.payload {
        case .interactionLogged(let i):
            if i.coachId != nil, i.schoolId != nil { var s = i; s.coachId = nil; with(.interactionLogged(s)) }
            if i.subject != nil { var s = i; s.subject = nil; with(.interactionLogged(s)) }
            if i.content != nil { var s = i; s.content = nil; with(.interactionLogged(s)) }
            if i.interestAnswers != nil { var s = i; s.interestAnswers = nil; with(.interactionLogged(s)) }
            if i.attachments != nil { var s = i; s.attachments = nil; with(.interactionLogged(s)) }
            if i.otherCoachName != nil || i.eventId != nil { var s = i; s.otherCoachName = nil; s.eventId = nil; with(.interactionLogged(s)) }
            if i.occurredAt != nil { var s = i; s.occurredAt = nil; with(.interactionLogged(s)) }
            if i.sentiment != nil, i.interestAnswers == nil { var s = i; s.sentiment = nil; with(.interactionLogged(s)) }
            if i.type != .email { var s = i; s.type = .email; with(.interactionLogged(s)) }
            if i.direction != .outbound, i.interestAnswers == nil { var s = i; s.direction = .outbound; with(.interactionLogged(s)) }
        case .memberJoined(let m) where m.fullName != "A" || m.role != .player:
            if m.role != .player { var s = m; s.role = .player; with(.memberJoined(s)) }
            if m.fullName != "A" { var s = m; s.fullName = "A"; with(.memberJoined(s)) }
        case .coachAdded(let c) where c.firstName != "A" || c.lastName != "A":
            var s = c; s.firstName = "A"; s.lastName = "A"; with(.coachAdded(s))
        case .schoolAdded(let a) where a.name != "A" || a.status != nil:
            var s = a; s.name = "A"; s.status = nil; with(.schoolAdded(s))
        case .schoolStatusChanged(let c) where c.notes != nil:
            var s = c; s.notes = nil; with(.schoolStatusChanged(s))
        case .documentUploaded(let d) where d.title != "A" || d.fileName != nil || d.sizeBytes != nil:
            var s = d; s.title = "A"; s.fileName = nil; s.sizeBytes = nil; with(.documentUploaded(s))
        default:
            break
        }
        if event.at != LogGen.start { var e = event; e.at = LogGen.start; out.append(e) }
        return out
    }

    /// A log as JSON lines, ready to paste into a regression test.
    package static func describe(_ events: [Event]) -> String {
        "\(events.count) events:\n" + Sealed.text(events)
    }
}
