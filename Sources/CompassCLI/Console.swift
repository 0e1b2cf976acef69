import Foundation

/// Where a command's output goes: the process's stdout/stderr, or buffers in tests.
///
/// Unchecked `Sendable`: a command, its output and its deferred work (handed to the store's
/// snapshot policy) all run on the command's one thread.
final class Console: @unchecked Sendable {
    private(set) var capturedOut: [UInt8] = []
    private(set) var capturedErr: [UInt8] = []
    private let captures: Bool
    /// Whether stdout is a terminal (colour, width).
    let isTerminal: Bool
    /// Whether stderr is a terminal (progress of long work).
    let errorIsTerminal: Bool

    init(capturing: Bool, isTerminal: Bool = false, errorIsTerminal: Bool = false) {
        self.captures = capturing
        self.isTerminal = isTerminal
        self.errorIsTerminal = errorIsTerminal
    }

    /// The console of this process.
    static func process() -> Console {
        Console(capturing: false, isTerminal: isatty(1) == 1, errorIsTerminal: isatty(2) == 1)
    }

    /// Values the process keeps until it exits, so their memory is handed back by the exit
    /// rather than freed object by object (a replayed million-event state holds millions).
    nonisolated(unsafe) private static var keptUntilExit: [Any] = []

    /// Keeps `value` alive until the process exits; a capturing (test) console lets it go.
    func keepUntilExit(_ value: Any) {
        if !captures { Self.keptUntilExit.append(value) }
    }

    /// Work to run after the command's output is written (snapshots).
    private(set) var deferred: [() -> Void] = []

    func afterOutput(_ work: @escaping () -> Void) { deferred.append(work) }

    /// Ends the output, then runs the deferred work once: standard output is closed first, so
    /// a reader at the other end of a pipe sees the end of the output at once and does not wait
    /// for the snapshot being written.
    func finish() {
        if !captures, !deferred.isEmpty { closeOutput() }
        let work = deferred
        deferred.removeAll()
        for item in work { item() }
    }

    /// The `errno` of the first write to standard output that failed (nil: all written).
    /// Once one fails nothing more is written there; a command's status says so.
    private(set) var outputFailure: Int32?
    private var outputClosed = false

    /// Closes standard output and checks the close (the last place a write can fail);
    /// `Compass.run` turns a failure into `error: cannot write output: …`, exit 1.
    func closeOutput() {
        guard !captures, !outputClosed else { return }
        outputClosed = true
        var code: Int32 = 0
        #if canImport(Glibc)
        if Glibc.close(1) != 0 { code = errno }
        #else
        if Darwin.close(1) != 0 { code = errno }
        #endif
        if code != 0, code != EINTR, outputFailure == nil { outputFailure = code }
    }

    /// Makes every write to standard output fail with `errno` `code` (a capturing console in
    /// tests: a full disk without one).
    func failOutput(_ code: Int32) { outputFailure = code }

    func out(_ text: String) { emit(Array(text.utf8), fd: 1) }
    func out(bytes: [UInt8]) { emit(bytes, fd: 1) }
    func err(_ text: String) { emit(Array(text.utf8), fd: 2) }

    private func emit(_ bytes: [UInt8], fd: Int32) {
        if captures, fd == 1, outputFailure != nil { return }
        if captures {
            if fd == 1 { capturedOut += bytes } else { capturedErr += bytes }
            return
        }
        if fd == 1, outputFailure != nil || outputClosed { return }
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let n = Glibc.write(fd, base + offset, raw.count - offset)
                #else
                let n = Darwin.write(fd, base + offset, raw.count - offset)
                #endif
                if n > 0 { offset += n; continue }
                if n < 0, errno == EINTR { continue }
                // Standard output's failure is the command's (a closed pipe ends it quietly);
                // a failed write of an error message has nowhere left to be reported.
                if fd == 1 { outputFailure = n < 0 ? errno : ENOSPC }
                return
            }
        }
    }
}
