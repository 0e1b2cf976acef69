import CompassCore

/// The outcome of an append.
package enum AppendOutcome {
    /// The events were written, durable (fsynced) before this returns.
    case written([Event])
    /// An idempotent retry: the event was already in the log; nothing was written.
    case alreadyPresent(Event)
}

/// What an append's drafts are built from: the state of the log as it is under the lock.
/// `original` is the event already logged under `--event-id`, if any (a retry reuses its ids).
package typealias DraftBuilder = (_ state: CompassState, _ original: Event?) throws(StoreError) -> [EventDraft]

/// Runs after every draft of an append is accepted and before the log is written; returns
/// what undoes it if the write then fails (attachment bytes stored for the events, say).
package typealias BeforeWriting = (_ events: [Event]) throws(StoreError) -> (() -> Void)

/// Appends events to a log: the only code that writes it.
///
/// Under an exclusive `flock` held across read → decide → write → fsync, it rolls back a
/// batch a dead writer left unfinished (``LogJournal``), moves a torn tail aside into
/// `LOG.torn`, replays the log, checks `--event-id` and `--expect-version`, decides every
/// draft with the one rule set, assigns each line its family's next `seq` and `prev`, writes all lines and fsyncs before
/// reporting success. A batch of more than one line is journaled first, so it is all or
/// nothing across crashes. A rejected or failed append leaves the log byte-identical and
/// creates nothing: a first append is decided before its log and folders are made, and a
/// failure after writing cuts the log back to its old size.
final class LogWriter {
    package let path: String
    let fs: FileSystem

    /// The replayed state of the log's first `cachedSize` bytes, kept between appends made
    /// through this writer so an in-process caller does not replay the log again each time.
    /// It is used only while the file still ends with the line it last saw; bytes other
    /// processes appended since are folded in first.
    private var cached: Replayer?
    private var cachedSize = 0
    private var cachedLastLine: [UInt8] = []
    /// The log, kept open between appends while the path still names the same file.
    var log: (fd: Int32, identity: FileIdentity)?

    /// Whether (and when) to start from `LOG.snapshot` and write a newer one.
    let snapshots: SnapshotPolicy?

    /// - Parameter snapshots: read the log from its snapshot when it matches (the drafts'
    ///   families and the event ids are then read from it as deciding needs them).
    package init(path: String, snapshots: SnapshotPolicy? = nil, fileSystem: FileSystem = POSIXFileSystem()) {
        self.path = path
        self.snapshots = snapshots
        self.fs = fileSystem
    }

    deinit { closeLog() }

    var folder: String { POSIX.directory(of: path) }

    typealias Builder = DraftBuilder
    typealias BeforeWrite = BeforeWriting

    /// - Parameters:
    ///   - eventId: the id of the (single) event, for idempotent retries.
    ///   - expectVersion: fail with a conflict unless the drafts' family is at this version (its
    ///     last `seq`, SPEC §1.1); a batch of several families cannot expect one.
    ///   - actor: who appends: `build` may read their family (read from a snapshot if needed).
    ///   - sanitizing: strip markup from subject and content.
    ///   - lineNumbers: for a batch (`import`), each draft's line in its file: every rejected
    ///     draft is reported and nothing is written.
    ///   - beforeWrite: stores what the events point at (attachment bytes), so an acknowledged
    ///     event never points at missing bytes; its undo runs if the write fails.
    ///   - prebuilt: each draft's payload already built without the state, with the same
    ///     `sanitizing` (a large import builds them while reading its file); one per draft.
    ///   - build: makes the drafts from the current state.
    package func append(eventId: String?, expectVersion: Int64?, actor: String? = nil, sanitizing: Bool = true, lineNumbers: [Int]? = nil,
                        prebuilt: [Result<Payload, EventError>]? = nil,
                        beforeWrite: BeforeWrite = { _ throws(StoreError) in {} },
                        progress: ReadProgress? = nil,
                        build: Builder) throws(StoreError) -> AppendOutcome {
        try withLockedLog(beforeCreating: { () throws(StoreError) in
            // The first append: decided against an empty log before anything exists, so a
            // rejected one creates no folder and no file.
            var empty = Replayer(problems: .summary)
            let drafts = try build(empty.state, nil)
            _ = try StreamSealing.decide(drafts, against: &empty, sanitizing: sanitizing, lineNumbers: lineNumbers, prebuilt: prebuilt)
        }) { fd throws(StoreError) in
            try appendLocked(fd, eventId: eventId, expectVersion: expectVersion, actor: actor, sanitizing: sanitizing,
                             lineNumbers: lineNumbers, prebuilt: prebuilt, beforeWrite: beforeWrite,
                             progress: progress, build: build)
        }
    }

    /// Runs `body` with the log open and exclusively locked, the log and its folders made
    /// first when missing (after `beforeCreating`, which may refuse). If `body` fails, what
    /// this call made is taken back before the lock is let go.
    func withLockedLog<T>(beforeCreating: () throws(StoreError) -> Void,
                          _ body: (Int32) throws(StoreError) -> T) throws(StoreError) -> T {
        var created: [String] = []  // folders, then the log, made by this call
        var createdLog: Int32?  // the log's descriptor when this call created it
        var locked: Int32?
        do throws(StoreError) {
            var fd: Int32
            while true {
                if let kept = log, try fs.identity(of: path) == kept.identity {
                    fd = kept.fd
                } else {
                    closeLog()
                    if let opened = try fs.open(path, .append) {
                        fd = opened
                    } else {
                        try beforeCreating()
                        created = try fs.makeDirectories(folder)
                        // Created only where nothing is; another first writer that won the race
                        // made it, so it is opened again like any existing log.
                        guard let made = try fs.open(path, .createLog) else {
                            for made in created.reversed() { fs.removeDirectory(made) }
                            created = []
                            continue
                        }
                        fd = made
                        created.append(path)
                        createdLog = fd
                    }
                    do throws(StoreError) { log = (fd, try fs.identity(fd)) } catch {
                        if createdLog != fd { fs.close(fd) }  // a created log is taken back (and closed) below
                        throw .io(path: path, message: "cannot open \(path): \(error.message)")
                    }
                }
                try fs.lock(fd, .exclusive, path: path)
                locked = fd
                // Renamed over or removed while this writer waited (an erasure, a failed first
                // append): the path names another file now, so open it again.
                if try fs.identity(of: path) == log?.identity { break }
                fs.unlock(fd, path: path)
                locked = nil
                closeLog()
            }
            if created.last == path { try fs.syncDirectory(folder) }  // the new log's entry is durable
            let result = try body(fd)
            fs.unlock(fd, path: path)
            return result
        } catch {
            // Still holding the lock (when it was taken): a failed first write takes back what
            // it made before any waiting writer can get in.
            if !created.isEmpty { takeBack(created, log: createdLog, locked: locked) }
            if let locked, log?.fd == locked { fs.unlock(locked, path: path) }
            throw error
        }
    }

    /// Takes back the log and folders a failed first append made. The log is removed only
    /// while this writer holds its lock and it is still empty, so a writer waiting for the
    /// lock finds the path gone and starts over, and no other writer's line is ever removed.
    private func takeBack(_ created: [String], log fd: Int32?, locked: Int32?) {
        if created.last == path, let fd {
            // Removed only when this writer can show the path is still its own empty file; any
            // error on the way leaves the file (an empty log, which every reader reads as such).
            do throws(StoreError) {
                if locked != fd { try fs.lock(fd, .exclusive, path: path) }
                if try fs.identity(of: path) == fs.identity(fd), try fs.size(fd, path: path) == 0 {
                    try fs.remove(path)
                    try fs.syncDirectory(folder)
                }
            } catch {}
            fs.unlock(fd, path: path)
            if log?.fd == fd { closeLog() } else { fs.close(fd) }
        }
        for made in created.reversed() where made != path { fs.removeDirectory(made) }
    }

    /// The first steps of every write under the lock: a batch a writer left unfinished is
    /// rolled back, an erasure a writer left unfinished is finished or undone, then the log is
    /// replayed: the cached replay, taken out (not copied) and caught up with what other
    /// processes appended, or a new read (from the snapshot when it matches, not for a retry:
    /// finding the original event `findingEvent` needs every line, handed to `found`).
    func replayLocked(_ fd: Int32, actor: String?, progress: ReadProgress?, findingEvent eventId: String? = nil,
                      found: (Event) -> Void = { _ in }) throws(StoreError) -> Replayer {
        // A batch a writer left unfinished is rolled back before anything else is read.
        try LogJournal.recover(log: fd, path: path, fs: fs)
        try ErasureIntent.recover(log: path, fd: fd, fs: fs)  // before any attachment is stored
        try fs.removeStaleTemporaries(in: folder)  // the attachments folder is cleaned when attachments are stored
        let size = try fs.size(fd, path: path)
        // The cached replay is taken out (not copied), so folding the new events mutates it in
        // place; it is put back only after a successful write.
        if eventId == nil, var replayer = cached.take(), size >= cachedSize, try endsWithCachedLine(fd) {
            if size > cachedSize {
                var fresh = try fs.read(fd, from: cachedSize, to: size, path: path)
                try moveTornTailAside(fd: fd, base: cachedSize, bytes: &fresh)
                replayer.consume(bytes: fresh)
            }
            return replayer
        }
        cached = nil
        try cutTornTail(fd: fd, size: size)
        // Streamed on both cores like any read. Deciding reads no subject or content, so they
        // stay in the log (none read back from a snapshot that keeps them as ranges there).
        var original: Event?
        let replayer = try LogReader.replay(fd: fd, path: path, extent: LogExtent(complete: try fs.size(fd, path: path), torn: false),
                                            fs: fs, observer: eventId == nil ? nil : { outcome, _ in
            if case .applied(_, let event) = outcome, event.id == eventId { original = event }
        }, snapshots: eventId == nil ? snapshots : nil, scope: actor.map { .familyOf($0) } ?? .summary, problems: .summary,
           progress: progress, textsStayInLog: true)
        if let original { found(original) }
        return replayer
    }

    /// Keeps a replay for the next append through this writer: it has read the log through
    /// `lastLine`, the last line written.
    func keep(_ replayer: consuming Replayer, lastLine: [UInt8]) {
        cachedSize = replayer.consumedBytes
        cached = replayer
        cachedLastLine = lastLine
    }

    private func appendLocked(_ fd: Int32, eventId: String?, expectVersion: Int64?, actor: String?, sanitizing: Bool, lineNumbers: [Int]?,
                              prebuilt: [Result<Payload, EventError>]?, beforeWrite: BeforeWrite, progress: ReadProgress?,
                              build: Builder) throws(StoreError) -> AppendOutcome {
        var original: Event?
        var replayer = try replayLocked(fd, actor: actor, progress: progress, findingEvent: eventId) { original = $0 }

        let drafts = try build(replayer.state, original)
        // A replay resumed from a snapshot reads the families it decides in, and the event ids.
        // (What `build` read, the actor's family, was read whole before it ran.)
        for draft in drafts { replayer.prepareToDecide(family: draft.family, eventId: draft.id) }
        if replayer.deferredFailed {
            replayer = try LogReader.replay(fd: fd, path: path, extent: LogExtent(complete: try fs.size(fd, path: path), torn: false),
                                            fs: fs, snapshots: snapshots, trustingSnapshot: false, problems: .summary, textsStayInLog: true)
        }
        if let eventId, let original {
            try StreamSealing.checkRetry(drafts, of: original, eventId: eventId, sanitizing: sanitizing)
            // The first writer may have died between its write and its fsync: make the
            // original durable before acknowledging it.
            try fs.sync(fd, path: path)
            return .alreadyPresent(original)
        }
        if let expectVersion, let family = drafts.first?.family {
            if let other = drafts.first(where: { $0.family != family })?.family {
                throw .conflict("Conflict: --expect-version names one family's version, but the batch writes to \(family) and \(other)")
            }
            let version = replayer.streams.version(of: family)
            if expectVersion != version {
                throw .staleVersion(family: family, expected: expectVersion, current: version)
            }
        }
        var events = try StreamSealing.decide(drafts, against: &replayer, sanitizing: sanitizing, lineNumbers: lineNumbers, prebuilt: prebuilt)

        // Each line is chained to its own family's last line (SPEC §1.1).
        var heads: [String: String] = [:]
        let (output, lastLine) = try seal(&events, heads: &heads, replayer: &replayer)
        let committed = try fs.size(fd, path: path)
        let undo = try beforeWrite(events)
        let journaled = events.count > 1
        do throws(StoreError) {
            if journaled { try LogJournal.begin(log: path, committedSize: committed, fs: fs) }
            try fs.writeAll(fd, output, path: path)
            try fs.sync(fd, path: path)
            if journaled { try LogJournal.end(log: path, fs: fs) }  // the commit point of a batch
        } catch {
            rollBack(fd, to: committed, journaled: journaled)
            undo()
            throw error
        }
        // Keep the replay for the next append through this writer.
        if eventId == nil, !lastLine.isEmpty {
            cached = replayer
            cachedSize = replayer.consumedBytes
            cachedLastLine = Array(output[lastLine])
        }
        return .written(events)
    }

    /// The lines of decided events, encoded on every core, then sealed one family per core
    /// (``BatchSealer``), each chained to its family's head (`heads`: those this batch wrote;
    /// else the stream's) and folded as reading it back would. Returns the bytes to write and
    /// the last line's range in them.
    func seal(_ events: inout [Event], heads: inout [String: String], replayer: inout Replayer) throws(StoreError) -> (output: [UInt8], lastLine: Range<Int>) {
        let sealed = try BatchSealer.lines(of: events) { family in
            heads[family] ?? replayer.streams[family: family]?.head.text ?? SHA256.emptyHex
        }
        for index in events.indices {
            events[index].prev = sealed.prevs[index].hex
            replayer.advanceWritten(family: events[index].family, seq: events[index].seq, sealed: true,
                                    lineLength: sealed.lines[index].count, hash: sealed.hashes[index])
        }
        for (family, hash) in sealed.heads { heads[family] = hash }
        return (sealed.output, sealed.lines.last ?? 0..<0)
    }

    /// Puts the log back as it was before a failed write: cut to its old size and fsynced,
    /// the journal removed. If that fails too, a journal is left naming the old size, so
    /// every reader and the next writer still see the log without the unacknowledged bytes.
    func rollBack(_ fd: Int32, to size: Int, journaled: Bool) {
        cached = nil
        do throws(StoreError) {
            try fs.truncate(fd, to: size, path: path)
            try fs.sync(fd, path: path)
            let hot = journaled ? true : try fs.kind(of: LogJournal.path(of: path)) != .missing
            if hot { try LogJournal.end(log: path, fs: fs) }
        } catch {
            if !journaled, (try? LogJournal.committedSize(log: path, fs: fs)) ?? nil == nil {
                try? LogJournal.begin(log: path, committedSize: size, fs: fs)
            }
        }
    }

    func closeLog() {
        if let log { fs.close(log.fd) }
        log = nil
        cached = nil
    }

    /// Whether the file still holds, just before `cachedSize`, the last line this writer saw.
    private func endsWithCachedLine(_ fd: Int32) throws(StoreError) -> Bool {
        guard !cachedLastLine.isEmpty else { return cachedSize == 0 }
        let start = cachedSize - cachedLastLine.count - 1
        guard start >= 0 else { return false }
        let tail = try fs.read(fd, from: start, to: cachedSize, path: path)
        return tail.count == cachedLastLine.count + 1 && tail.last == 0x0A && tail.starts(with: cachedLastLine)
    }

    /// ``moveTornTailAside(fd:base:bytes:)`` for a log not read into memory: the bytes after
    /// its last `\n` are found by reading backwards from the end.
    func cutTornTail(fd: Int32, size: Int) throws(StoreError) {
        let start = try LogExtent.lastLineEnd(fd, before: size, path: path, fs: fs)
        guard start < size else { return }
        var tail = try fs.read(fd, from: start, to: size, path: path)
        try moveTornTailAside(fd: fd, base: start, bytes: &tail)
    }

    /// A last line without `\n` is a torn write: copy it to `LOG.torn` (fsynced, its folder
    /// entry too), then cut it from the log, so nothing is silently dropped and the next line
    /// starts clean.
    private func moveTornTailAside(fd: Int32, base: Int, bytes: inout [UInt8]) throws(StoreError) {
        guard let last = bytes.last, last != 0x0A else { return }
        let keep = (bytes.lastIndex(of: 0x0A) ?? -1) + 1
        let sidePath = StoreFiles(log: path).torn
        let side = try fs.openExisting(sidePath, .appendSide)
        defer { fs.close(side) }
        try fs.writeAll(side, Array(bytes[keep...]) + [0x0A], path: sidePath)
        try fs.sync(side, path: sidePath)
        try fs.syncDirectory(folder)
        try fs.truncate(fd, to: base + keep, path: path)
        try fs.sync(fd, path: path)
        bytes.removeSubrange(keep...)
    }
}
