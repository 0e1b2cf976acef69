#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CompassCore
import Dispatch

/// Streams a log file into a ``Replayer`` in large `read(2)` blocks, splitting lines with
/// `memchr`; memory follows the replayed state, not the file size.
enum LogReader {
    static let blockSize = 4 << 20

    /// Replays the log at `path`; a missing file is an empty log.
    ///
    /// With `snapshots`, a whole-log replay (no cut, no observer) starts from `LOG.snapshot`
    /// when that file matches the log (same format, the log still ends its prefix with the
    /// line it recorded) and reads only the bytes after it; a new snapshot is written once
    /// at least `snapshotMinBytes` more bytes were read, after the command's output.
    static func replay(path: String, cut: ReplayCut = ReplayCut(), checksChain: Bool = true,
                       observer: ((LineOutcome, CompassState) -> Void)? = nil,
                       snapshots: SnapshotPolicy? = nil) throws(CLIError) -> Replayer {
        var replayer = Replayer(cut: cut, checksChain: checksChain, observer: observer)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return replayer }
            throw .io("cannot open \(path): \(POSIX.lastError)")
        }
        defer { close(fd) }
        let usesSnapshot = snapshots != nil && cut == ReplayCut() && observer == nil && checksChain
        var start = 0
        if usesSnapshot, let snapshot = matchingSnapshot(fd: fd, path: path) {
            replayer = Replayer(resuming: snapshot)
            start = snapshot.consumedBytes
            guard lseek(fd, off_t(start), SEEK_SET) == off_t(start) else { throw .io("cannot read \(path): \(POSIX.lastError)") }
        }
        try stream(fd: fd, path: path, into: &replayer)
        if usesSnapshot, let snapshots, replayer.consumedBytes - start >= snapshots.minimumNewBytes {
            let snapshot = replayer.snapshot
            snapshots.afterOutput {
                // Best effort: a snapshot that cannot be written is simply not there next time.
                try? POSIX.writeFileAtomically(path + ".snapshot", SnapshotCodec.encode(snapshot))
            }
        }
        return replayer
    }

    /// The snapshot beside the log, if it decodes and the log still ends its prefix with the
    /// line the snapshot recorded. Anything else (edited, truncated, other format) is ignored.
    static func matchingSnapshot(fd: Int32, path: String) -> ReplaySnapshot? {
        guard let bytes = try? POSIX.readFile(path + ".snapshot"), let snapshot = SnapshotCodec.decode(bytes),
              let size = try? POSIX.size(fd, path: path), size >= snapshot.consumedBytes else { return nil }
        if snapshot.consumedBytes == 0 { return snapshot }
        let lineStart = snapshot.consumedBytes - snapshot.lastLineLength - 1
        guard lineStart >= 0, let line = try? POSIX.read(fd, from: lineStart, to: snapshot.consumedBytes, path: path),
              line.last == 0x0A, SHA256.hex(line.dropLast()) == snapshot.headHash else { return nil }
        return snapshot
    }

    /// Feeds every line of an open file to the replayer.
    ///
    /// Each block's complete lines are parsed and hashed on both cores
    /// (``PreparedLine`` is pure), then folded in order on this thread.
    static func stream(fd: Int32, path: String, into replayer: inout Replayer) throws(CLIError) {
        var buffer = [UInt8](repeating: 0, count: blockSize)
        var filled = 0  // bytes in buffer[0..<filled]; a partial line sits at the front
        var ranges: [Range<Int>] = []
        // A line longer than the limit is hashed as it streams past, never held whole.
        var oversized: (hasher: SHA256, count: Int)?
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 { if errno == EINTR { continue }; throw .io("cannot read \(path): \(POSIX.lastError)") }
            if n == 0 { break }
            filled += n
            var start = 0
            if var skipping = oversized {
                let newline = buffer[0..<filled].firstIndex(of: 0x0A)
                let end = newline ?? filled
                buffer.withUnsafeBufferPointer { skipping.hasher.update(UnsafeBufferPointer(rebasing: $0[0..<end])) }
                skipping.count += end
                if newline == nil {
                    oversized = skipping
                    filled = 0
                    continue
                }
                if !replayer.consumeOversizedLine(byteCount: skipping.count, hash: replayer.checksChain ? skipping.hasher.finalizeHex() : "") { return }
                oversized = nil
                start = end + 1
            }
            ranges.removeAll(keepingCapacity: true)
            let consumed = buffer.withUnsafeBufferPointer { all -> Int in
                var start = start
                let base = all.baseAddress!
                while start < filled, let found = memchr(base + start, 0x0A, filled - start) {
                    let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    ranges.append(start..<end)
                    start = end + 1
                }
                return start
            }
            let keepGoing = buffer.withUnsafeBufferPointer { all in
                feed(ranges, of: all, into: &replayer)
            }
            if !keepGoing { return }
            if consumed > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + consumed, filled - consumed)
                }
                filled -= consumed
            }
            if filled > Replayer.maxLineBytes {
                // The partial line is already too long: hash what we have and skip to its end.
                var hasher = SHA256()
                buffer.withUnsafeBufferPointer { hasher.update(UnsafeBufferPointer(rebasing: $0[0..<filled])) }
                oversized = (hasher, filled)
                filled = 0
            } else if filled == buffer.count {
                buffer.append(contentsOf: repeatElement(0, count: buffer.count))
            }
        }
        if let skipping = oversized {
            // An oversized last line without `\n` is a torn write like any other.
            _ = skipping
            _ = replayer.consume(line: UnsafeBufferPointer(start: nil, count: 0), terminated: false)
            return
        }
        if filled > 0 {
            buffer.withUnsafeBufferPointer { all in
                _ = replayer.consume(line: UnsafeBufferPointer(rebasing: all[0..<filled]), terminated: false)
            }
        }
    }

    /// Prepares the lines in parallel, then folds them in order. False once a cut is reached.
    static func feed(_ ranges: [Range<Int>], of bytes: UnsafeBufferPointer<UInt8>, into replayer: inout Replayer) -> Bool {
        let hashing = replayer.checksChain
        guard ranges.count >= 64 else {
            for range in ranges where !replayer.consume(prepared: PreparedLine(UnsafeBufferPointer(rebasing: bytes[range]), hashing: hashing)) {
                return false
            }
            return true
        }
        let prepared = [PreparedLine](unsafeUninitializedCapacity: ranges.count) { out, count in
            let workers = 2
            // Each worker writes a disjoint range of the output; the pointers outlive the call.
            let shared = SharedPointers(out: out.baseAddress!, bytes: bytes)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let lower = ranges.count * worker / workers
                let upper = ranges.count * (worker + 1) / workers
                for index in lower..<upper {
                    let line = UnsafeBufferPointer(rebasing: shared.bytes[ranges[index]])
                    (shared.out + index).initialize(to: PreparedLine(line, hashing: hashing))
                }
            }
            count = ranges.count
        }
        for line in prepared where !replayer.consume(prepared: line) { return false }
        return true
    }
}

/// When to write snapshots, and how to run work after the command's output.
struct SnapshotPolicy {
    var minimumNewBytes: Int
    var afterOutput: (@escaping () -> Void) -> Void
}

/// The buffers two workers share while preparing disjoint ranges of lines.
private struct SharedPointers: @unchecked Sendable {
    let out: UnsafeMutablePointer<PreparedLine>
    let bytes: UnsafeBufferPointer<UInt8>
}
