import CompassCore
import Dispatch
import Foundation

/// Streams a log file into a ``Replayer`` in large `read(2)` blocks, splitting lines with
/// `memchr`; memory follows the replayed state, not the file size.
package enum LogReader {
    package static let blockSize = 4 << 20
    /// Lines prepared together at most (each prepared line holds its decoded fields).
    package static let maxLinesPerBlock = 16_384

    /// Replays the log at `path`; a missing file is an empty log.
    ///
    /// Only the committed part is read: under a shared lock the log's extent is measured (a
    /// batch being written, or left unfinished by a writer that died, is not committed; see
    /// ``LogJournal``), then the lock is released and those bytes are streamed.
    ///
    /// With `snapshots`, a whole-log replay (no cut, no observer) starts from `LOG.snapshot`
    /// when that file matches the log (same format, the log still ends its prefix with the
    /// line it recorded) and reads only the bytes after it; a new snapshot is written once
    /// at least the policy's `minimumNewBytes` more bytes were read, after the command's output.
    ///
    /// `scope` says how much of the state the caller reads: a query needs its viewer's family
    /// and the members, so only that family's section of the snapshot is read (and those of
    /// the families the new lines touch).
    ///
    /// A read that writes a snapshot leaves the texts in the log while it folds, whatever it
    /// shows, so every snapshot keeps them as their ranges there; the texts it shows are read
    /// back once the snapshot is taken (`keepingRanges: false`: copied as they are folded, and
    /// the snapshot holds them, as when they cannot be read back).
    package static func replay(path: String, fs: FileSystem, cut: ReplayCut = ReplayCut(),
                               observer: ((LineOutcome, CompassState) -> Void)? = nil,
                               snapshots: SnapshotPolicy? = nil, scope: ReplayScope = .everything,
                               problems: ProblemRetention = .all, progress: ReadProgress? = nil,
                               textsStayInLog: Bool = false, keepingRanges: Bool = true) throws(StoreError) -> Replayer {
        guard let fd = try fs.open(path, .read) else {
            return Replayer(cut: cut, observer: observer, problems: problems)
        }
        defer { fs.close(fd) }
        let extent = try LogExtent.measure(fd, path: path, fs: fs)
        return try replay(fd: fd, path: path, extent: extent, fs: fs, cut: cut, observer: observer, snapshots: snapshots,
                          scope: scope, problems: problems, progress: progress, textsStayInLog: textsStayInLog,
                          keepingRanges: keepingRanges)
    }

    /// ``replay(path:fs:cut:observer:snapshots:scope:problems:)`` of a log already
    /// open and measured (a writer's, under its lock); it is read from its start.
    package static func replay(fd: Int32, path: String, extent: LogExtent, fs: FileSystem, cut: ReplayCut = ReplayCut(),
                               observer: ((LineOutcome, CompassState) -> Void)? = nil,
                               snapshots: SnapshotPolicy? = nil, scope: ReplayScope = .everything,
                               trustingSnapshot: Bool = true, problems: ProblemRetention = .all,
                               progress: ReadProgress? = nil, textsStayInLog: Bool = false,
                               keepingRanges: Bool = true) throws(StoreError) -> Replayer {
        // A viewer's history (an audit, a time travel by `seq`) reads their family's lines alone
        // when the snapshot says where they are and that is the whole log's answer.
        if case .familyOf(let user) = scope, let snapshots, trustingSnapshot, observer != nil || cut != ReplayCut(),
           let history = try FamilyHistory.replay(fd: fd, path: path, extent: extent, fs: fs, user: user, cut: cut,
                                                  observer: observer, snapshots: snapshots, problems: problems) {
            return history
        }
        var replayer = Replayer(cut: cut, observer: observer, problems: problems)
        let usesSnapshot = snapshots != nil && cut == ReplayCut() && observer == nil
        // Whether a snapshot will be written once the log is read from `start`.
        func writesSnapshot(from start: Int) -> Bool {
            guard usesSnapshot, let snapshots else { return false }
            return extent.complete - start >= snapshots.minimumNewBytes
        }
        // A read that writes a snapshot folds with the texts left in the log, whatever it shows,
        // so the snapshot keeps them as their ranges there (one size of snapshot, whichever read
        // wrote it); the texts it shows are read back once the snapshot is taken.
        let keepsRanges = Flag(!textsStayInLog && keepingRanges && writesSnapshot(from: 0))
        var start = 0
        var resumed: SnapshotFile?  // set when the replay resumed from a snapshot read in part
        // A snapshot keeps only a summary of the problems: a caller that lists every problem
        // reads the whole log when the snapshot's prefix has any.
        let listsProblems: Bool = if case .summary = problems { false } else { true }
        if usesSnapshot, trustingSnapshot, let file = SnapshotFile(path: StoreFiles(log: path).snapshot, fs: fs),
           !(listsProblems && file.index.base.problems.count > 0),
           try file.matches(log: fd, path: path, extent: extent, fs: fs) {
            let index = file.index
            // A read that shows texts has those a section keeps as ranges of the log read back
            // from the log (one read a row), through its own descriptor of this file (a family
            // may be loaded after this returns); `replay` and `verify` leave them there. A read
            // that will write a snapshot reads them back only once it is taken (below).
            var readLog: SnapshotIndex.LogRead?
            if !textsStayInLog {
                let held = HeldLog(path: path, fs: fs, identity: try fs.identity(fd))
                keepsRanges.value = keepingRanges && writesSnapshot(from: index.base.consumedBytes)
                readLog = { range, buffer in held.read(range, into: &buffer) }
            }
            if scope == .everything {
                if let whole = index.whole(read: file.read, readLog: keepsRanges.value ? nil : readLog) {
                    replayer = Replayer(resuming: whole, problems: problems)
                    start = whole.consumedBytes
                }
            } else {
                let keeping = keepsRanges
                replayer = Replayer(resuming: index.base, deferring: DeferredParts(
                    family: { index.familyState($0, read: file.read, readLog: keeping.value ? nil : readLog) },
                    eventIds: { index.lazyEventIds(read: file.read) },
                    familyIds: { index.familyIds }),
                    problems: problems)
                start = index.base.consumedBytes
                resumed = file
            }
        }
        replayer.textsStayInLog = textsStayInLog || keepsRanges.value
        try stream(fd: fd, path: path, from: start, extent: extent, fs: fs, into: &replayer, progress: progress)
        if case .familyOf(let user) = scope, let family = replayer.state.members[user]?.family {
            replayer.load(families: [family])
        }
        if replayer.deferredFailed {
            // A section of the snapshot did not check: read the whole log instead (and rebuild it).
            return try replay(fd: fd, path: path, extent: extent, fs: fs, cut: cut, observer: observer,
                              snapshots: snapshots, scope: scope, trustingSnapshot: false, problems: problems,
                              textsStayInLog: textsStayInLog, keepingRanges: keepingRanges)
        }
        if usesSnapshot, let snapshots, replayer.consumedBytes - start >= snapshots.minimumNewBytes {
            let snapshot = replayer.snapshot
            let idsDeferred = replayer.eventIdsDeferred
            let readFrom = try fs.identity(fd)
            snapshots.afterOutput {
                // Best effort: a snapshot that cannot be written is simply not there next time
                // (and its temporary file is removed). The ids are all read (and checked) to be
                // written again; families the replay loaded are encoded again, the others copied
                // from the snapshot it resumed from.
                // Texts the replay left in the log are read back from the file it read, opened
                // again below (a failed read: no snapshot this time).
                let log = LogTexts(path: path, fs: fs)
                guard let next = SnapshotIndex.successor(of: snapshot, idsDeferred: idsDeferred, resumedFrom: resumed?.index,
                                                         read: { resumed?.read($0) }, readLog: log.read(_:into:)) else { return }
                // Only for the log it was read from, under a lock `erase` also takes: a reader that
                // finishes after an erasure never writes the erased data back.
                _ = try? SnapshotWriter.whileCurrent(log: path, readFrom: readFrom, covering: next.snapshot, fs: fs) { fd throws(StoreError) in
                    log.fd = fd
                    try SnapshotWriter.write(next.snapshot, familyIds: next.familyIds, to: StoreFiles(log: path).snapshot, fs: fs,
                                             section: next.section)
                }
            }
        }
        if keepsRanges.value {
            // The snapshot is taken: the texts the caller shows are read back (the families
            // loaded later read theirs as they load).
            keepsRanges.value = false
            replayer.textsStayInLog = false  // (lines folded later, as a store's tail, copy theirs)
            let held = HeldLog(path: path, fs: fs, identity: try fs.identity(fd))
            guard replayer.readTextsBack({ range, buffer in held.read(range, into: &buffer) }) else {
                return try replay(fd: fd, path: path, extent: extent, fs: fs, cut: cut, observer: observer,
                                  snapshots: snapshots, scope: scope, trustingSnapshot: trustingSnapshot, problems: problems,
                                  textsStayInLog: textsStayInLog, keepingRanges: false)
            }
        }
        return replayer
    }

    /// A switch shared with the closures that load a snapshot's families later.
    final class Flag: @unchecked Sendable {
        var value: Bool
        init(_ value: Bool) { self.value = value }
    }

    /// Calls `body` with every complete line (without its `\n`) of the first `end` bytes, read
    /// a block at a time (a second pass that needs the bytes themselves, such as `verify`'s
    /// walk through erasures).
    package static func forEachLine(fd: Int32, path: String, upTo end: Int, fs: FileSystem,
                                    _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(StoreError) {
        var offset = 0
        var carry: [UInt8] = []
        var ranges: [Range<Int>] = []
        while offset < end {
            let chunk = try fs.read(fd, from: offset, to: min(end, offset + blockSize), path: path)
            if chunk.isEmpty { break }
            offset += chunk.count
            carry += chunk
            ranges.removeAll(keepingCapacity: true)
            let consumed = carry.withUnsafeBufferPointer { all in
                let next = LineSplitter.completeLines(in: all, from: 0, to: all.count, into: &ranges)
                for range in ranges { body(UnsafeBufferPointer(rebasing: all[range])) }
                return next
            }
            carry.removeFirst(consumed)
        }
    }

    /// Feeds every line of an open file to the replayer.
    ///
    /// A two-stage pipeline: while this thread folds one block's lines in order, a worker
    /// parses, hashes and decodes the next block's (``PreparedLine`` is pure); when the fold
    /// is done first, this thread helps prepare. The raw bytes are no longer needed once a
    /// block is prepared; the log is read into two buffers in turn, the next bytes into one
    /// while the other's last block is prepared, so the worker is not idle during a read.
    /// A complete line longer than ``Replayer/maxLineBytes`` is reported as too long, never
    /// prepared, whether it arrived in one read or in many.
    ///
    /// - Throws: ``StoreError/oneChainLog(path:)`` for a log written as SPEC v2 (one chain for
    ///   all families): only `compass migrate` reads those.
    package static func stream(fd: Int32, path: String, from offset: Int, extent: LogExtent, fs: FileSystem,
                               into replayer: inout Replayer, progress: ReadProgress? = nil) throws(StoreError) {
        if offset == 0 { replayer.reserveCapacity(forLogBytes: extent.complete) }
        try streamLines(fd: fd, path: path, from: offset, extent: extent, fs: fs, into: &replayer, progress: progress)
        if replayer.oneChainLine != nil { throw .oneChainLog(path: path) }
    }

    private static func streamLines(fd: Int32, path: String, from offset: Int, extent: LogExtent, fs: FileSystem,
                                    into replayer: inout Replayer, progress: ReadProgress?) throws(StoreError) {
        var offset = offset
        // Read buffers take turns: while the lines of one are prepared, the log's next bytes
        // are read into another (the worker is not left idle during the read).
        var buffers = ReadBuffers(capacity: min(blockSize, max(1 << 12, extent.complete - offset)))
        // Freed when the read ends, not at the last use of `buffers`: the last block is folded
        // after the loop, its staged texts read where they lie in them.
        defer { withExtendedLifetime(buffers) {} }
        var filled = 0  // bytes in the current buffer; a partial line sits at the front
        var aheadCount: Int?  // bytes already read into the current buffer after its carried part
        var ranges: [Range<Int>] = []
        var prepared: PreparedBlock?  // the previous block, ready to fold
        defer { prepared?.discard() }
        // Two blocks take turns (one folds while the other prepares), their storage reused.
        // The two preparing threads (the same scratches for both blocks) keep the ids they
        // built lately, in a cache sized to the bytes to read (a family's log names a few
        // dozen ids, a store's a thousand).
        let idSlots = IdInterner.slotCount(forLogBytes: extent.complete - offset)
        let scratches = PreparingScratches(idSlots: idSlots)
        let blocks = [PreparedBlock(scratches: scratches), PreparedBlock(scratches: scratches)]
        var turn = 0
        // A line longer than the limit is hashed as it streams past, never held whole.
        var oversized: (hasher: SHA256, count: Int)?
        // Blocks start small and double: the first fold overlaps the next block's preparation
        // even in a small log (a family's log is read in ~5 blocks, not one).
        var limit = 1024
        let keepingPayload = replayer.hasObserver
        /// Folds the block prepared before; false once a cut is reached.
        func foldPrepared() -> Bool {
            guard let block = prepared else { return true }
            prepared = nil
            return block.fold(into: &replayer)
        }
        // Reads start small and double too: the first lines are being prepared on both cores
        // while the rest of a family-sized log is still being read.
        var readLimit = 1 << 18
        // Set when the progress callback asks to stop; the next read fails with `.cancelled`.
        let stopped = StopFlag()
        /// Where the log's next bytes go in `buffer` after its first `kept` bytes; nil at its end.
        func nextRead(into buffer: UnsafeMutableBufferPointer<UInt8>, after kept: Int) -> UnsafeMutableRawBufferPointer? {
            let want = min(buffer.count - kept, extent.complete - offset, readLimit)
            guard want > 0 else { return nil }
            readLimit = min(readLimit * 2, Self.blockSize)
            return UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[kept..<(kept + want)]))
        }
        /// Reads the log's next bytes into `buffer` after its first `kept` bytes; 0 at its end.
        func readNext(into buffer: UnsafeMutableBufferPointer<UInt8>, after kept: Int) throws(StoreError) -> Int {
            guard let target = nextRead(into: buffer, after: kept) else { return 0 }
            if stopped.isSet { throw .cancelled }
            let n = try fs.read(fd, into: target, at: offset, path: path)
            offset += n
            return n
        }
        /// Moves the partial line after `consumed` to the front of the other buffer (hashed and
        /// dropped instead once it is already too long) and returns how many bytes it kept there.
        func carry(from consumed: Int) -> Int {
            let tail = UnsafeBufferPointer(rebasing: buffers.current[consumed..<filled])
            if tail.count > Replayer.maxLineBytes {
                // The partial line is already too long: hash what we have and skip to its end.
                var hasher = SHA256()
                hasher.update(tail)
                oversized = (hasher, tail.count)
                return 0
            }
            // A partial line filling its whole buffer needs a larger one to be completed.
            buffers.reserveOther(tail.count == buffers.current.count ? 2 * tail.count : buffers.current.count)
            if let base = tail.baseAddress { buffers.other.baseAddress!.update(from: base, count: tail.count) }
            return tail.count
        }
        while true {
            let n: Int
            if let ahead = aheadCount {
                n = ahead
                aheadCount = nil
            } else {
                guard offset < extent.complete else { break }
                n = try readNext(into: buffers.current, after: filled)
            }
            if n == 0 { break }  // the file ended early (cut by another process): what was read is what there is
            filled += n
            var start = 0
            if var skipping = oversized {
                let newline = UnsafeBufferPointer(rebasing: buffers.current[0..<filled]).firstIndex(of: 0x0A)
                let end = newline ?? filled
                skipping.hasher.update(UnsafeBufferPointer(rebasing: buffers.current[0..<end]))
                skipping.count += end
                if newline == nil {
                    oversized = skipping
                    filled = 0
                    continue
                }
                guard foldPrepared(), replayer.consumeOversizedLine(byteCount: skipping.count, hash: skipping.hasher.finalizeHex()) else { return }
                oversized = nil
                start = end + 1
            }
            // At most `maxLinesPerBlock` lines are prepared at a time, so a block of tiny lines
            // (a log of garbage) costs no more memory than a block of real events.
            var consumed = start
            var carried: Int?  // bytes kept in the other buffer, once the partial line moved there
            let all = UnsafeBufferPointer(buffers.current)
            repeat {
                ranges.removeAll(keepingCapacity: true)
                consumed = LineSplitter.completeLines(in: all, from: consumed, to: filled, into: &ranges, limit: limit)
                guard !ranges.isEmpty else { break }
                var full = ranges.count == limit
                // A complete line past the limit is not prepared but reported as too long, as
                // when it streams past in pieces or is replayed from memory: the lines before it
                // make a block, then it is folded alone.
                if let long = ranges.firstIndex(where: { $0.count > Replayer.maxLineBytes }) {
                    if long == 0 {
                        let line = UnsafeBufferPointer(rebasing: all[ranges[0]])
                        guard foldPrepared(), replayer.consumeOversizedLine(byteCount: line.count, hash: SHA256.hex(line)) else { return }
                        consumed = ranges[0].upperBound + 1
                        continue
                    }
                    consumed = ranges[long].lowerBound
                    ranges.removeSubrange(long...)
                    full = true
                }
                // The log's last lines: nothing is left to read or prepare after them.
                let last = !full && offset == extent.complete && consumed == filled
                let block = blocks[turn]
                turn ^= 1
                block.start(ranges: ranges, of: all, keepingPayload: keepingPayload)
                var readFailure: StoreError?
                var readAhead: ReadAhead?
                if !full && !last {
                    // The buffer's last block: its partial line moves on and the next bytes are
                    // read while the block is prepared and the one before it folds, on a thread
                    // of their own (the kernel's copy is not the folding thread's work).
                    let kept = carry(from: consumed)
                    carried = kept
                    if stopped.isSet, offset < extent.complete {
                        readFailure = .cancelled  // stopped: this read fails, as a failed read does
                    } else if let target = nextRead(into: buffers.other, after: kept) {
                        readAhead = ReadAhead(fs: fs, fd: fd, into: target, at: offset, path: path)
                    } else {
                        aheadCount = 0
                    }
                }
                let folding = foldPrepared()
                // The read ends before anything else happens: its buffer is freed on return.
                switch readAhead?.wait() {
                case .success(let n)?:
                    offset += n
                    aheadCount = n
                case .failure(let error)?: readFailure = error
                case nil: break
                }
                guard folding else {
                    block.discard()
                    return
                }
                if let readFailure {
                    // As when the read comes first: the lines before it folded, this block not.
                    block.discard()
                    throw readFailure
                }
                if last {
                    guard block.foldWhilePreparing(into: &replayer) else { return }
                } else {
                    block.finishPreparing()  // this thread helps; the block folds with the next one
                    prepared = block
                }
                limit = min(limit * 2, Self.maxLinesPerBlock)
                if !full { break }
            } while true
            if let progress, !progress(offset, extent.complete, replayer.linesRead) { stopped.set() }
            filled = carried ?? carry(from: consumed)
            // A block still to fold reads its texts where its lines are. One of the buffer
            // before this one (a long line's reads went by without a block) is folded now: its
            // buffer is the next one read into.
            if let block = prepared, !block.reads(from: buffers.current) {
                guard foldPrepared() else { return }
            }
            buffers.swap()
        }
        guard foldPrepared() else { return }
        // Committed bytes after the last `\n` (or a complete part cut short by another
        // process) are a torn write; their bytes are never needed, only that they are there.
        if extent.torn || oversized != nil || filled > 0 {
            _ = replayer.consume(line: UnsafeBufferPointer(start: nil, count: 0), terminated: false)
        }
    }
}
