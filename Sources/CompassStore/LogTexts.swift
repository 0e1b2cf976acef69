import Foundation

/// Reads back the texts a replay left in the log (``Replayer/textsStayInLog``), from the file
/// the replay read, when its snapshot is written.
///
/// Read on every core at once (one `pread` per row's texts). A read that fails or comes back
/// short says so, and the snapshot is then not written: it is a cache.
final class LogTexts: @unchecked Sendable {
    private let path: String
    private let fs: FileSystem
    /// The log, open for reading; set before any text is read, and not changed while texts are.
    var fd: Int32?

    init(path: String, fs: FileSystem) {
        self.path = path
        self.fs = fs
    }

    /// Reads the log's bytes in `range` into the first `range.count` bytes of `buffer`
    /// (grown when it is shorter); false when they cannot be read whole.
    @Sendable func read(_ range: Range<Int>, into buffer: inout [UInt8]) -> Bool {
        guard let fd else { return false }
        if buffer.count < range.count { buffer = [UInt8](repeating: 0, count: max(range.count, 2 * buffer.count, 4_096)) }
        var filled = 0
        while filled < range.count {
            let n: Int
            do {
                n = try buffer.withUnsafeMutableBytes { raw throws(StoreError) in
                    try fs.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[filled..<range.count]), at: range.lowerBound + filled, path: path)
                }
            } catch {
                return false
            }
            if n == 0 { return false }  // the file ends before the text does
            filled += n
        }
        return true
    }
}
