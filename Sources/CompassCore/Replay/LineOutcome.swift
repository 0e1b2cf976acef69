/// What happened to one line during replay.
package enum LineOutcome {
    case applied(line: Int, event: Event)
    /// Not applied: the draft when its envelope could be read, and the reason.
    case rejected(line: Int, draft: EventDraft?, message: String)
    /// An `Erased` record (SPEC §5): skipped without a problem. Its envelope, or nil for the
    /// record of a line that was in no stream (``PreparedLine/Content/erasedOutsideStreams``).
    case erased(line: Int, draft: EventDraft?)
}
