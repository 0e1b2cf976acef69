import CompassStore
import Foundation

/// A database that went away while a command that runs until interrupted (`follow`,
/// `project`) was using it: the command waits for it to come back, saying so once on stderr,
/// and tries again after 0.1, 0.2, 0.4 … up to 5 s; a file's I/O error still ends it.
struct ConnectionRetry {
    private let console: Console
    private var delay: Int64 = 100
    private var lost = false

    init(_ inv: Invocation) { console = inv.console }

    /// Waits before the next try when `error` is a lost database connection; rethrows it
    /// otherwise.
    mutating func failed(_ error: StoreError) throws {
        guard case .io(let path, let message) = error, CompassStore.isDatabaseAddress(path) else { throw error }
        if !lost {
            console.err("lost \(TerminalText.escape(path)): \(TerminalText.escape(message)); trying again…\n")
            lost = true
        }
        var left = delay
        while left > 0, !Interruption.requested {
            usleep(useconds_t(min(left, 200) * 1000))
            left -= 200
        }
        delay = min(delay * 2, 5_000)
    }

    /// A try went through: says so if the connection had been lost.
    mutating func succeeded() {
        guard lost else { return }
        console.err("connected again\n")
        lost = false
        delay = 100
    }
}
