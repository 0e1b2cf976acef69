import CompassCore

/// What every backend does to a batch of drafts before storing it: decide them in order with
/// the one rule set, numbering each in its family's stream (SPEC §1.1), then seal each line
/// with its family's previous line's hash.
enum StreamSealing {
    /// Decides each draft against the state in order, folding each accepted one so the next
    /// is decided against it. A batch (`lineNumbers`) reports every rejected draft.
    static func decide(_ drafts: [EventDraft], against replayer: inout Replayer, sanitizing: Bool,
                        lineNumbers: [Int]?, prebuilt given: [Result<Payload, EventError>]?) throws(StoreError) -> [Event] {
        var seqs: [String: Int64] = [:]
        return try decide(drafts, against: &replayer, seqs: &seqs, sanitizing: sanitizing, lineNumbers: lineNumbers, prebuilt: given)
    }

    /// ``decide(_:against:sanitizing:lineNumbers:prebuilt:)`` numbering on from `seqs`, each
    /// family's last `seq` decided before (a block's lines not yet folded into the replay's
    /// streams); each accepted event's `seq` is kept there, as its event is in the state.
    static func decide(_ drafts: [EventDraft], against replayer: inout Replayer, seqs: inout [String: Int64], sanitizing: Bool,
                       lineNumbers: [Int]?, prebuilt given: [Result<Payload, EventError>]?) throws(StoreError) -> [Event] {
        // Payloads are built without the state on every core (unless the caller built them).
        precondition(given == nil || given?.count == drafts.count, "one prebuilt payload per draft")
        var prebuilt = given ?? Parallel.map(drafts) { draft in
            Result { () throws(EventError) in try Rules.payloadIgnoringState(draft, sanitizing: sanitizing) }
        }
        var drafts = drafts
        return try decide(taking: &drafts, against: &replayer, seqs: &seqs, sanitizing: sanitizing, lineNumbers: lineNumbers,
                          prebuilt: &prebuilt)
    }

    /// ``decide(_:against:seqs:sanitizing:lineNumbers:prebuilt:)`` moving each draft's texts
    /// and built payload into its event: a draft whose payload built is left empty.
    static func decide(taking drafts: inout [EventDraft], against replayer: inout Replayer, seqs: inout [String: Int64],
                       sanitizing: Bool, lineNumbers: [Int]?, prebuilt: inout [Result<Payload, EventError>]) throws(StoreError) -> [Event] {
        precondition(prebuilt.count == drafts.count, "one prebuilt payload per draft")
        var events: [Event] = []
        events.reserveCapacity(drafts.count)
        var rejected: [Problem] = []
        for index in drafts.indices {
            var event: Event
            do throws(EventError) {
                // Only `erase` writes erasure records (it does not append through here).
                if drafts[index].type == EventType.erasureRecorded.rawValue {
                    throw EventError("ErasureRecorded lines are written only by compass erase", kind: .erased)
                }
                // The envelope as replay will read it: a draft built in memory has skipped the decoder.
                try Rules.checkEnvelope(drafts[index])
                // Deciding reads neither `seq` nor `prev`: they are assigned here, `prev` when sealed.
                event = try Rules.decide(taking: &drafts[index], prebuilt: &prebuilt[index], in: replayer.state, sanitizing: sanitizing)
                event.seq = try Envelope.seq(after: seqs[event.family] ?? replayer.streams.version(of: event.family))
            } catch {
                guard let lineNumbers else { throw .rejected(error) }
                rejected.append(Problem(line: lineNumbers[index], message: error.message, kind: error.kind))
                continue
            }
            seqs[event.family] = event.seq  // each family's next `seq` counts on from here (SPEC §1.1)
            event.prev = nil
            replayer.applyWritten(event)
            events.append(event)
        }
        if !rejected.isEmpty { throw .rejectedLines(rejected) }
        return events
    }

    /// An idempotent retry (SPEC §4): the drafts must be one event with the original's type,
    /// actor, family and payload; anything else under a used id is a conflict.
    static func checkRetry(_ drafts: [EventDraft], of original: Event, eventId: String, sanitizing: Bool) throws(StoreError) {
        // (A draft whose payload does not build is not the original: `try?` compares a rule
        // result here, no I/O.)
        guard let draft = drafts.first, drafts.count == 1,
              draft.type == original.type.rawValue, draft.actor == original.actor, draft.family == original.family,
              (try? Rules.payloadIgnoringState(draft, sanitizing: sanitizing)) == original.payload
        else { throw .keyReused(eventId: eventId) }
    }

    /// The lines of decided events, each sealed with its family's head (`heads`: each family's
    /// head before the batch) and hashed.
    static func seal(_ events: [Event], heads: [String: String]) -> [(event: Event, text: String, hash: String)] {
        var heads = heads
        return events.map { event in
            var sealed = event
            sealed.prev = heads[event.family] ?? SHA256.emptyHex
            let line = EventEncoder.line(for: sealed)
            let hash = SHA256.hex(line)
            heads[event.family] = hash
            return (sealed, String(decoding: line, as: UTF8.self), hash)
        }
    }
}
