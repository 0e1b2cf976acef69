#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CompassCore

/// Streams a log file into a ``Replayer`` in large `read(2)` blocks, splitting lines with
/// `memchr`; memory follows the replayed state, not the file size.
enum LogReader {
    static let blockSize = 4 << 20

    /// Replays the log at `path`; a missing file is an empty log.
    static func replay(path: String, cut: ReplayCut = ReplayCut(), checksChain: Bool = true,
                       observer: ((LineOutcome, CompassState) -> Void)? = nil) throws(CLIError) -> Replayer {
        var replayer = Replayer(cut: cut, checksChain: checksChain, observer: observer)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return replayer }
            throw .io("cannot open \(path): \(POSIX.lastError)")
        }
        defer { close(fd) }
        try stream(fd: fd, path: path, into: &replayer)
        return replayer
    }

    /// Feeds every line of an open file to the replayer.
    static func stream(fd: Int32, path: String, into replayer: inout Replayer) throws(CLIError) {
        var buffer = [UInt8](repeating: 0, count: blockSize)
        var filled = 0  // bytes in buffer[0..<filled]; a partial line sits at the front
        while true {
            if filled == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 { if errno == EINTR { continue }; throw .io("cannot read \(path): \(POSIX.lastError)") }
            if n == 0 { break }
            filled += n
            var keepGoing = true
            let consumed = buffer.withUnsafeBufferPointer { all -> Int in
                var start = 0
                let base = all.baseAddress!
                while start < filled {
                    guard let found = memchr(base + start, 0x0A, filled - start) else { break }
                    let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if !replayer.consume(line: UnsafeBufferPointer(rebasing: all[start..<end]), terminated: true) {
                        keepGoing = false
                        return start
                    }
                    start = end + 1
                }
                return start
            }
            if !keepGoing { return }
            if consumed > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + consumed, filled - consumed)
                }
                filled -= consumed
            }
        }
        if filled > 0 {
            buffer.withUnsafeBufferPointer { all in
                _ = replayer.consume(line: UnsafeBufferPointer(rebasing: all[0..<filled]), terminated: false)
            }
        }
    }
}
