import CompassCore

/// What a change feed has folded and not handed on yet, so that each event committed after
/// the feed's start is delivered once, whatever fails in between.
///
/// The feed's replayer reports what it applies to ``sink``, and only a read that finishes takes
/// them out (``deliver(in:)``). A read that fails halfway (a read of the log's next block, a
/// statement) leaves the lines it folded folded, and the cursor goes on after them: their
/// events wait in the sink and the next read hands them on first. While a replaced log is read
/// again from its start, the ids the old one had are kept, so its events are not handed on
/// twice, even when that read fails and is taken up again; and of the old log's events still
/// waiting, only those the new log has are handed on (an erasure replaced it: an erased
/// member's events are not delivered after it).
struct FeedDelivery {
    /// Collects the events the feed's replayer applies (its observer).
    let sink = AppliedEvents()
    /// Deliver only events of this family whose `seq` is above this (a position an app kept).
    private let after: (family: String, seq: Int64)?
    private var replacedIds: EventIdSet?
    /// The old log's events still waiting when it was replaced.
    private var beforeReplacement: [Event] = []

    init(after: (family: String, seq: Int64)?) {
        self.after = after
    }

    /// Takes out what the replayer applied so far, but for events a replaced log already had
    /// and those before the feed's start.
    private mutating func taken() -> [Event] {
        let (replaced, after) = (replacedIds, after)
        defer { sink.events.removeAll() }
        return sink.events.filter { event in
            !(replaced?.contains(event.id) ?? false) && (after.map { event.family == $0.family && event.seq > $0.seq } ?? true)
        }
    }

    /// The log was replaced: what the old one gained and was not handed on waits for the new
    /// one to be read, and the events with `ids` (all the old one had) are not handed on again.
    mutating func replaced(having ids: EventIdSet) {
        beforeReplacement += taken()
        replacedIds = ids
    }

    /// A read finished, its log's events being `ids`: the events to hand on, in log order.
    mutating func deliver(in ids: EventIdSet) -> [Event] {
        let new = taken()
        let kept = beforeReplacement.filter { ids.contains($0.id) }
        beforeReplacement.removeAll()
        replacedIds = nil
        return kept + new
    }
}

/// Collects the events a replayer applies.
final class AppliedEvents: @unchecked Sendable {
    var events: [Event] = []

    func observe(_ outcome: LineOutcome, _ state: CompassState) {
        if case .applied(_, let event) = outcome { events.append(event) }
    }
}
