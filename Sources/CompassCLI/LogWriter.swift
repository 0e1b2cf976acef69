#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CompassCore

/// The outcome of an append.
package enum AppendOutcome {
    /// The events were written, durable (fsynced) before this returns.
    case written([Event])
    /// An idempotent retry: the event was already in the log; nothing was written.
    case alreadyPresent(Event)
}

/// Appends events to a log: the only code that writes it.
///
/// Under an exclusive `flock` held across read → decide → write → fsync, it moves a torn
/// tail aside into `LOG.torn`, replays the log, checks `--event-id` and `--expect-seq`,
/// decides every draft with the one rule set, assigns `seq` and `prev`, writes all lines
/// in one `write` call and fsyncs before reporting success. A rejected append writes nothing.
package final class LogWriter {
    package let path: String

    /// The replayed state of the log's first `cachedSize` bytes, kept between appends made
    /// through this writer so an in-process caller does not replay the log again each time.
    /// It is used only while the file still ends with the line it last saw; bytes other
    /// processes appended since are folded in first.
    private var cached: Replayer?
    private var cachedSize = 0
    private var cachedLastLine: [UInt8] = []
    /// The log, kept open between appends while the path still names the same file.
    private var log: (fd: Int32, device: UInt64, inode: UInt64)?

    /// Whether (and when) to start from `LOG.snapshot` and write a newer one.
    private let snapshots: SnapshotPolicy?

    /// - Parameter snapshots: read the log from its snapshot when it matches (the drafts'
    ///   families and the event ids are then read from it as deciding needs them).
    package init(path: String, snapshots: SnapshotPolicy? = nil) {
        self.path = path
        self.snapshots = snapshots
    }

    deinit {
        if let log { close(log.fd) }
    }

    /// What the drafts are built from: the state of the log as it is under the lock.
    /// `original` is the event already logged under `--event-id`, if any (a retry reuses its ids).
    package typealias Builder = (_ state: CompassState, _ original: Event?) throws(CLIError) -> [EventDraft]

    /// - Parameters:
    ///   - eventId: the id of the (single) event, for idempotent retries.
    ///   - expectSeq: fail unless the log's last `seq` is this.
    ///   - actor: who appends: `build` may read their family (read from a snapshot if needed).
    ///   - sanitizing: strip markup from subject and content.
    ///   - lineNumbers: for a batch (`import`), each draft's line in its file: every rejected
    ///     draft is reported and nothing is written.
    ///   - beforeWrite: runs after every draft is accepted and before the log is written
    ///     (stores attachment bytes, so an acknowledged event never points at missing bytes).
    ///   - keepUntilExit: takes large intermediate values the process may hand back at exit
    ///     instead of freeing them one by one (a command passes its console's).
    ///   - build: makes the drafts from the current state.
    package func append(eventId: String?, expectSeq: Int64?, actor: String? = nil, sanitizing: Bool = true, lineNumbers: [Int]? = nil,
                beforeWrite: ([Event]) throws(CLIError) -> Void = { _ throws(CLIError) in },
                keepUntilExit: (Any) -> Void = { _ in },
                build: Builder) throws(CLIError) -> AppendOutcome {
        let fd = try openLog()
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .io("cannot lock \(path): \(POSIX.lastError)") }
        }
        defer { flock(fd, LOCK_UN) }
        var original: Event?
        var replayer: Replayer
        let size = try POSIX.size(fd, path: path)
        let logWasEmpty = size == 0
        // The cached replay is taken out (not copied), so folding the new events mutates it in
        // place; it is put back only after a successful write.
        if eventId == nil, let kept = cached.take(), size >= cachedSize, try endsWithCachedLine(fd) {
            replayer = kept
            if size > cachedSize {
                var fresh = try POSIX.read(fd, from: cachedSize, to: size, path: path)
                try moveTornTailAside(fd: fd, base: cachedSize, bytes: &fresh)
                replayer.consume(bytes: fresh)
            }
        } else {
            cached = nil
            try cutTornTail(fd: fd, size: size)
            // Streamed on both cores like any read, from the snapshot when it matches (not for a
            // retry: finding the original event needs every line).
            replayer = try LogReader.replay(fd: fd, path: path, observer: eventId == nil ? nil : { outcome, _ in
                if case .applied(_, let event) = outcome, event.id == eventId { original = event }
            }, snapshots: eventId == nil ? snapshots : nil, scope: actor.map { .familyOf($0) } ?? .summary)
        }

        let drafts = try build(replayer.state, original)
        // A replay resumed from a snapshot reads the families it decides in, and the event ids.
        // (What `build` read, the actor's family, was read whole before it ran.)
        for draft in drafts { replayer.prepareToDecide(family: draft.family) }
        if replayer.deferredFailed {
            replayer = try LogReader.replay(fd: fd, path: path, snapshots: snapshots, trustingSnapshot: false)
        }
        if let eventId, let original {
            guard let draft = drafts.first, drafts.count == 1,
                  draft.type == original.type.rawValue, draft.actor == original.actor, draft.family == original.family,
                  (try? Rules.payloadIgnoringState(draft, sanitizing: sanitizing)) == original.payload
            else { throw .domain("Conflict: event \(eventId) is already in the log with different content") }
            return .alreadyPresent(original)
        }
        if let expectSeq, expectSeq != replayer.lastSeq {
            throw .domain("Conflict: expected last seq \(expectSeq), but the log's last seq is \(replayer.lastSeq)")
        }

        // Three passes, so a large batch (an import) uses every core where the work is pure:
        // payloads are built without the state in parallel; each draft is decided against the
        // state in order; lines are encoded in parallel, then sealed with `prev` in order
        // (each line's hash is the next line's `prev`).
        let prebuilt = Parallel.map(drafts) { draft in
            Result { () throws(EventError) in try Rules.payloadIgnoringState(draft, sanitizing: sanitizing) }
        }
        var seq = replayer.lastSeq
        var events: [Event] = []
        var rejected: [Problem] = []
        for (index, var draft) in drafts.enumerated() {
            draft.seq = seq + 1
            draft.prev = nil  // sealed below
            let event: Event
            do {
                event = try Rules.decide(draft, prebuilt: prebuilt[index], in: replayer.state, sanitizing: sanitizing)
            } catch {
                // A batch reports every rejected draft (by its line in the input); nothing is written.
                guard let lineNumbers else { throw .domain(error.message) }
                rejected.append(Problem(line: lineNumbers[index], message: error.message))
                continue
            }
            seq += 1
            replayer.applyWritten(event)  // the next draft is decided against it
            events.append(event)
        }
        if !rejected.isEmpty { throw .rejectedLines(rejected) }
        let unsealed = Parallel.map(events, EventEncoder.unsealedLine)
        var prev = replayer.headHash
        var output: [UInt8] = []
        output.reserveCapacity(unsealed.reduce(0) { $0 + $1.count + 80 })
        var lastLine = 0..<0
        for index in events.indices {
            let start = output.count
            output += unsealed[index]
            EventEncoder.seal(&output, prev: prev)  // the line is sealed where it will be written
            let line = start..<output.count
            guard line.count <= Replayer.maxLineBytes else {
                throw .domain("Event too large: \(line.count) bytes (a log line is at most \(Replayer.maxLineBytes) bytes)")
            }
            events[index].prev = prev
            prev = output.withUnsafeBufferPointer { SHA256.hex(UnsafeBufferPointer(rebasing: $0[line])) }
            replayer.advanceWritten(events[index], lineLength: line.count, hash: prev)
            output.append(0x0A)
            lastLine = line
        }
        keepUntilExit(drafts)  // freeing thousands of parsed payloads is left to the exit
        keepUntilExit(unsealed)
        try beforeWrite(events)
        try POSIX.writeAll(fd, output, path: path)
        try POSIX.sync(fd, path: path)
        if logWasEmpty { POSIX.syncDirectory(POSIX.directory(of: path)) }
        // Keep the replay for the next append through this writer.
        if eventId == nil, !lastLine.isEmpty {
            cached = replayer
            cachedSize = replayer.consumedBytes
            cachedLastLine = Array(output[lastLine])
        }
        return .written(events)
    }

    /// The log's descriptor: the one kept from the last append while the path still names the
    /// same file, else a new one (the log, and its folder, are created when missing).
    private func openLog() throws(CLIError) -> Int32 {
        var info = stat()
        if let log {
            if stat(path, &info) == 0, UInt64(info.st_dev) == log.device, UInt64(info.st_ino) == log.inode { return log.fd }
            close(log.fd)
            self.log = nil
            cached = nil
        }
        var fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        if fd < 0, errno == ENOENT {  // the folder is missing: create it, then the log
            try POSIX.makeDirectories(POSIX.directory(of: path))
            fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw .io("cannot open \(path): \(POSIX.lastError)") }
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw .io("cannot open \(path): \(POSIX.lastError)")
        }
        log = (fd, UInt64(info.st_dev), UInt64(info.st_ino))
        return fd
    }

    /// Whether the file still holds, just before `cachedSize`, the last line this writer saw.
    private func endsWithCachedLine(_ fd: Int32) throws(CLIError) -> Bool {
        guard !cachedLastLine.isEmpty else { return cachedSize == 0 }
        let start = cachedSize - cachedLastLine.count - 1
        guard start >= 0 else { return false }
        let tail = try POSIX.read(fd, from: start, to: cachedSize, path: path)
        return tail.count == cachedLastLine.count + 1 && tail.last == 0x0A && tail.starts(with: cachedLastLine)
    }

    /// ``moveTornTailAside(fd:base:bytes:)`` for a log not read into memory: the bytes after
    /// its last `\n` are found by reading backwards from the end.
    private func cutTornTail(fd: Int32, size: Int) throws(CLIError) {
        guard size > 0, try POSIX.read(fd, from: size - 1, to: size, path: path) != [0x0A] else { return }
        var start = size
        let step = 1 << 16
        while start > 0 {
            let from = max(0, start - step)
            let chunk = try POSIX.read(fd, from: from, to: start, path: path)
            if let newline = chunk.lastIndex(of: 0x0A) {
                start = from + newline + 1
                break
            }
            start = from
        }
        var tail = try POSIX.read(fd, from: start, to: size, path: path)
        try moveTornTailAside(fd: fd, base: start, bytes: &tail)
    }

    /// A last line without `\n` is a torn write: copy it to `LOG.torn` (fsynced), then cut it
    /// from the log, so nothing is silently dropped and the next line starts clean.
    private func moveTornTailAside(fd: Int32, base: Int, bytes: inout [UInt8]) throws(CLIError) {
        guard let last = bytes.last, last != 0x0A else { return }
        let keep = (bytes.lastIndex(of: 0x0A) ?? -1) + 1
        let sidePath = path + ".torn"
        let side = open(sidePath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard side >= 0 else { throw .io("cannot open \(sidePath): \(POSIX.lastError)") }
        defer { close(side) }
        try POSIX.writeAll(side, Array(bytes[keep...]) + [0x0A], path: sidePath)
        try POSIX.sync(side, path: sidePath)
        guard ftruncate(fd, off_t(base + keep)) == 0 else { throw .io("cannot truncate \(path): \(POSIX.lastError)") }
        try POSIX.sync(fd, path: path)
        bytes.removeSubrange(keep...)
    }
}
