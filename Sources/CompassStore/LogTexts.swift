import Foundation

/// Reads back the texts a replay left in the log (``Replayer/textsStayInLog``), from the file
/// the replay read, when its snapshot is written.
///
/// Read on every core at once (`pread` at each text's offset). A read that fails or comes back
/// short gives nil, and the snapshot is then not written: it is a cache.
final class LogTexts: @unchecked Sendable {
    private let path: String
    private let fs: FileSystem
    /// The log, open for reading; set before any text is read, and not changed while texts are.
    var fd: Int32?

    init(path: String, fs: FileSystem) {
        self.path = path
        self.fs = fs
    }

    /// The log's bytes in `range`, or nil when they cannot be read whole.
    @Sendable func read(_ range: Range<Int>) -> [UInt8]? {
        guard let fd else { return nil }
        do {
            let bytes = try fs.read(fd, from: range.lowerBound, to: range.upperBound, path: path)
            return bytes.count == range.count ? bytes : nil
        } catch {
            return nil
        }
    }
}
