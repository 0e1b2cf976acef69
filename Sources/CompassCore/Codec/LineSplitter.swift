import Foundation

/// Splits bytes into lines at `\n`: the one splitter of the log reader, of replay from bytes
/// in memory, and of `import`.
package enum LineSplitter {
    /// Appends the ranges of the complete lines (without their `\n`) in `buffer[start..<end]`
    /// to `ranges`; returns the offset just after the last `\n` (`start` when there is none).
    @discardableResult
    /// At most `limit` lines are taken; the offset returned is then just after the last one taken.
    package static func completeLines(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
                                     into ranges: inout [Range<Int>], limit: Int = .max) -> Int {
        guard let base = buffer.baseAddress else { return start }
        var start = start
        var taken = 0
        while start < end, taken < limit, let found = memchr(base + start, 0x0A, end - start) {
            taken += 1
            let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            ranges.append(start..<newline)
            start = newline + 1
        }
        return start
    }
}
