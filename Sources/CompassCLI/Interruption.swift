import Foundation
import CompassStore

/// Set by SIGINT/SIGTERM; long-running commands (`follow`, `project`) check it between reads.
nonisolated(unsafe) private var stopSignal: sig_atomic_t = 0

/// Ctrl-C and `kill` for commands that run until interrupted: they finish the step they are
/// in, then exit 128 + the signal (130 for Ctrl-C), as shells and other tools do.
enum Interruption {
    /// Catches SIGINT and SIGTERM (unblocking them: a parent may have spawned us with signals
    /// blocked, as Foundation's `Process` does) and ignores SIGPIPE.
    static func install() {
        signal(SIGINT) { _ in stopSignal = SIGINT }
        signal(SIGTERM) { _ in stopSignal = SIGTERM }
        signal(SIGPIPE, SIG_IGN)
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    }

    /// Whether a stop was asked for.
    static var requested: Bool { stopSignal != 0 }

    /// The error that exits with the signal's status.
    static var error: CLIError { CLIError.interrupted(Int32(stopSignal)) }

    /// Waits until `feed` says the log changed or `milliseconds` pass, in steps of at most a
    /// second (a stop request is noticed within a second).
    static func wait(for feed: ChangeFeed, milliseconds: Int64) {
        var left = milliseconds
        while left > 0, !requested {
            let step = min(left, 1000)
            if feed.wait(upTo: .milliseconds(step)) { return }  // woken: something changed
            left -= step
        }
    }
}
