import CompassCore
import Dispatch

/// One decided block of an import encoded, sealed and written on other threads while the
/// thread that decided it decides the next block.
///
/// The block's events are handed over whole and freed where they were encoded. The writer
/// waits (``finish()``) before it folds the lines into its replay, starts the next block's
/// write, rolls back or commits: writes stay in block order, and nothing is written after
/// the caller has stopped waiting.
final class BlockWrite: @unchecked Sendable {
    /// What a written block tells the writer: each line's length and hash, each family's
    /// new head, and the last line's bytes.
    struct Written {
        let lengths: [Int]
        let hashes: [LineHash]
        let heads: [(family: String, hash: String)]
        let lastLine: [UInt8]
    }

    private let done = DispatchGroup()
    // Set by the writing thread before `done` is left, read only after waiting on it.
    private var result: Result<Written, StoreError>?

    /// Starts writing `events` at `fd`'s end, each line chained to its family's head in
    /// `heads` (which must name every family of the block).
    init(events: consuming [Event], heads: [String: String], fd: Int32, path: String, fs: FileSystem) {
        done.enter()
        let job = Job(events: events, heads: heads, fd: fd, path: path, fs: fs)
        DispatchQueue.global().async { [self] in
            result = job.run()
            done.leave()
        }
    }

    /// Waits for the write to end, whatever its outcome (a writer rolling back).
    func wait() {
        done.wait()
    }

    /// Waits for the write; throws what stopped it.
    func finish() throws(StoreError) -> Written {
        done.wait()
        return try result!.get()
    }

    /// The write's inputs, owned by the writing thread once it starts.
    private struct Job: @unchecked Sendable {
        let events: [Event]
        let heads: [String: String]
        let fd: Int32
        let path: String
        let fs: FileSystem

        func run() -> Result<Written, StoreError> {
            Result { () throws(StoreError) in
                let sealed = try BatchSealer.lines(of: events) { heads[$0]! }
                try fs.writeAll(fd, sealed.output, path: path)
                let last = sealed.lines.last.map { Array(sealed.output[$0]) } ?? []
                // (A closure, not a key path: a key path is applied at run time, about 300 instructions a line.)
                return Written(lengths: sealed.lines.map { $0.count }, hashes: sealed.hashes, heads: sealed.heads, lastLine: last)
            }
        }
    }
}
