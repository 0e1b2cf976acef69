import Foundation

/// The log a replay read, held open for as long as a family of its snapshot may still be
/// loaded and have its texts read back (a store loads families after its first read).
///
/// It is opened again by its path, and used only if that is still the file the replay read
/// (same device and inode): a log replaced meanwhile (an erasure) is never read for the old
/// one's texts, and a descriptor the replay closed is never read through. A read that cannot
/// be made says so (the family is then not loaded from the snapshot: the log is read instead).
final class HeldLog: @unchecked Sendable {
    private let fd: Int32?
    private let path: String
    private let fs: FileSystem

    init(path: String, fs: FileSystem, identity: FileIdentity) {
        self.path = path
        self.fs = fs
        var opened: Int32?
        if let fd = try? fs.open(path, .read) {
            if (try? fs.identity(fd)) == identity { opened = fd } else { fs.close(fd) }
        }
        fd = opened
    }

    deinit { if let fd { fs.close(fd) } }

    /// Reads the log's bytes in `range` into the first `range.count` bytes of `buffer`;
    /// false when they cannot be read whole.
    func read(_ range: Range<Int>, into buffer: inout [UInt8]) -> Bool {
        guard let fd else { return false }
        return (try? fs.read(fd, range, into: &buffer, path: path)) ?? false
    }
}
