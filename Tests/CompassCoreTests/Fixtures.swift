@testable import CompassCore

/// A tiny event-building DSL for tests: a family `fam` with parent `u-pat` and athletes
/// `u-maya` and `u-leo`, school `s-ucla` with coach `c-ucla`, school `s-asu` with coach `c-asu`.
struct Fixture {
    var state = CompassState()
    var seq: Int64 = 0
    var clock = Timestamp(rfc3339: "2026-02-01T12:00:00Z")!
    /// The events applied so far, in order.
    var events: [Event] = []

    static func family() -> Fixture {
        var f = Fixture()
        f.must("MemberJoined", "u-pat", #"{"userId":"u-pat","fullName":"Pat Lopez","role":"parent"}"#)
        f.must("MemberJoined", "u-pat", #"{"userId":"u-maya","fullName":"Maya Lopez","role":"player"}"#)
        f.must("MemberJoined", "u-pat", #"{"userId":"u-leo","fullName":"Leo Lopez","role":"player"}"#)
        f.must("SchoolAdded", "u-pat", #"{"schoolId":"s-ucla","name":"UCLA"}"#)
        f.must("SchoolAdded", "u-maya", #"{"schoolId":"s-asu","name":"Arizona State","status":"interested"}"#)
        f.must("CoachAdded", "u-pat", #"{"coachId":"c-ucla","schoolId":"s-ucla","firstName":"Jane","lastName":"Doe","role":"head"}"#)
        f.must("CoachAdded", "u-pat", #"{"coachId":"c-asu","schoolId":"s-asu","firstName":"Sam","lastName":"Reed","role":"recruiting"}"#)
        return f
    }

    /// A draft of the next event.
    mutating func draft(_ type: String, _ actor: String, _ data: String, family: String = "fam") -> EventDraft {
        seq += 1
        clock = clock.adding(seconds: 60)
        guard case .object(let object)? = JSONParser.parse(data) else { fatalError("bad fixture JSON: \(data)") }
        return EventDraft(seq: seq, id: "e-\(seq)", type: type, at: clock, actor: actor, family: family, data: object)
    }

    /// Decides and applies an event, returning the rule's message when rejected.
    @discardableResult
    mutating func apply(_ type: String, _ actor: String, _ data: String, family: String = "fam", sanitizing: Bool = false) -> String? {
        let d = draft(type, actor, data, family: family)
        do {
            let event = try Rules.decide(d, in: state, sanitizing: sanitizing)
            state.apply(event)
            events.append(event)
            return nil
        } catch {
            return error.message
        }
    }

    /// Applies an event that must be accepted.
    mutating func must(_ type: String, _ actor: String, _ data: String, family: String = "fam") {
        if let message = apply(type, actor, data, family: family) { fatalError("fixture rejected: \(message)") }
    }
}

extension String {
    /// The text as a JSON string literal (for building payloads in tests).
    var jsonLiteral: String {
        var w = JSONWriter()
        w.string(self)
        return w.string
    }
}

extension EnvelopeReader {
    /// The draft of a whole line as replay reads it, its `data` built (an `invalid JSON`
    /// error when the line is not a JSON object).
    static func draft(_ line: String) throws(EventError) -> EventDraft {
        let bytes = Array(line.utf8)
        var tape = JSONTape()
        return try bytes.withUnsafeBufferPointer { (buffer) throws(EventError) -> EventDraft in
            guard tape.scan(buffer), isObject(tape), let base = buffer.baseAddress else { throw EventError("invalid JSON", kind: .unreadable) }
            let decoded = try decode(tape, base)
            var draft = decoded.draft
            if case .object(let data) = tape.value(at: decoded.data, in: base) { draft.data = data }
            return draft
        }
    }
}
