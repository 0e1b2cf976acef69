import CompassCore
import Dispatch
import Foundation

/// A snapshot file opened for reading parts of it: the descriptor stays open, so every part
/// comes from the same file even if a newer snapshot replaces it meanwhile.
package final class SnapshotFile: @unchecked Sendable {
    private let fd: Int32
    package let index: SnapshotIndex

    private let fs: FileSystem

    /// Opens the snapshot at `path`, or nil when there is none, it is not a regular file, or
    /// its header does not check.
    package init?(path: String, fs: FileSystem) {
        // A snapshot is a cache: one that is missing, a link, or cannot be opened or read is not
        // used, and the log itself is read instead (nothing is lost, only time).
        let opened: Int32
        do throws(StoreError) {
            guard let fd = try fs.open(path, .readSide) else { return nil }
            opened = fd
        } catch {
            return nil
        }
        self.fd = opened
        self.fs = fs
        let fd = opened
        // The snapshot is a cache: one that cannot be read is not used (the log is read
        // instead), so a failed read of it is "no snapshot", never an error.
        guard let size = try? fs.size(fd, path: path),
              let index = SnapshotIndex.open(size: size, read: { range in try? fs.read(fd, from: range.lowerBound, to: range.upperBound, path: path) })
        else {
            fs.close(fd)
            return nil
        }
        self.index = index
    }

    deinit { fs.close(fd) }

    /// The bytes of `range`, or nil when they cannot be read (then the part is not used and
    /// the log is read instead: a snapshot is a cache).
    package func read(_ range: Range<Int>) -> [UInt8]? {
        try? fs.read(fd, from: range.lowerBound, to: range.upperBound, path: "snapshot")
    }

    /// Whether the open log still ends the snapshot's prefix with the line it recorded, within
    /// the committed extent. A failed read of the log is an error.
    package func matches(log: Int32, path: String, extent: LogExtent, fs: FileSystem) throws(StoreError) -> Bool {
        try Self.log(log, path: path, extent: extent, endsPrefixOf: index.base, fs: fs)
    }

    /// Whether an open log, within its committed extent, still ends the prefix a snapshot
    /// covers with the line the snapshot recorded. A failed read of the log is an error (not a
    /// mismatch: that would send the caller to read the same failing log).
    package static func log(_ log: Int32, path: String, extent: LogExtent, endsPrefixOf base: ReplaySnapshot,
                            fs: FileSystem) throws(StoreError) -> Bool {
        guard extent.complete >= base.consumedBytes else { return false }
        if base.consumedBytes == 0 { return true }
        let lineStart = base.consumedBytes - base.lastLineLength - 1
        guard lineStart >= 0, try fs.read(log, from: base.consumedBytes - 1, to: base.consumedBytes, path: path) == [0x0A] else {
            return false
        }
        // Hashed in pieces: the line may be one too long to hold (it was replayed as such).
        var hasher = SHA256()
        var offset = lineStart
        while offset < base.consumedBytes - 1 {
            let end = min(offset + (1 << 20), base.consumedBytes - 1)
            let piece = try fs.read(log, from: offset, to: end, path: path)
            guard piece.count == end - offset else { return false }
            hasher.update(piece)
            offset = end
        }
        return hasher.finalizeHex() == base.lastLineHash
    }
}
