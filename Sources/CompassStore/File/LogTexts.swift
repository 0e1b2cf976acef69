import Foundation

/// Reads back the texts a replay left in the log (``Replayer/textsStayInLog``), from the file
/// the replay read, when its snapshot is written and a family must hold its texts' bytes (one
/// resumed from a snapshot section that holds them; otherwise a section keeps such texts as
/// their ranges in the log).
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
        do {
            return try fs.read(fd, range, into: &buffer, path: path)
        } catch {
            return false
        }
    }
}
