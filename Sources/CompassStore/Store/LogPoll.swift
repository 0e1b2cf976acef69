import CompassCore

/// What a poll of a ``LogCursor`` did.
package enum LogPoll: Equatable {
    /// New committed lines (if any) were folded.
    case read
    /// The log was replaced: nothing was read. Start a fresh replayer and poll again; the
    /// new log is read from its start.
    case replaced
}
