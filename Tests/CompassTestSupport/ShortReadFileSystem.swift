import Foundation
import CompassStore

/// The real file system, except that every `pread` returns fewer bytes than asked for (as a
/// read may: a pipe, a network file system, a signal), cycling through `sizes`, and that the
/// `failingRead`-th read (1-based), if any, fails with EIO.
///
/// A reader that assumes a read fills its buffer, or that a line ends within one read, gets
/// lines wrong under it; one that drops an error gets a state from part of the log.
package final class ShortReadFileSystem: FileSystem, @unchecked Sendable {
    private let real = POSIXFileSystem()
    private let sizes: [Int]
    private let failingRead: Int?
    private let lock = NSLock()
    /// How many reads were made.
    package private(set) var reads = 0
    /// How many bytes were read from each path.
    package private(set) var bytesRead: [String: Int] = [:]

    package init(sizes: [Int], failingRead: Int? = nil) {
        precondition(!sizes.isEmpty && sizes.allSatisfy { $0 > 0 })
        self.sizes = sizes
        self.failingRead = failingRead
    }

    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String) throws(StoreError) -> Int {
        lock.lock()
        reads += 1
        let number = reads
        lock.unlock()
        if number == failingRead { throw .io(path: path, message: "injected EIO: read \(number) of \(path)") }
        let size = min(buffer.count, sizes[(number - 1) % sizes.count])
        let read = try real.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size]), at: offset, path: path)
        lock.lock()
        bytesRead[path, default: 0] += read
        lock.unlock()
        return read
    }

    package func open(_ path: String, _ mode: OpenMode) throws(StoreError) -> Int32? { try real.open(path, mode) }
    package func close(_ fd: Int32) { real.close(fd) }
    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(StoreError) -> Int { try real.write(fd, bytes, path: path) }
    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String) throws(StoreError) -> Int {
        try real.write(fd, bytes, at: offset, path: path)
    }
    package func sync(_ fd: Int32, path: String) throws(StoreError) { try real.sync(fd, path: path) }
    package func truncate(_ fd: Int32, to size: Int, path: String) throws(StoreError) { try real.truncate(fd, to: size, path: path) }
    package func size(_ fd: Int32, path: String) throws(StoreError) -> Int { try real.size(fd, path: path) }
    package func identity(_ fd: Int32) throws(StoreError) -> FileIdentity { try real.identity(fd) }
    package func identity(of path: String) throws(StoreError) -> FileIdentity? { try real.identity(of: path) }
    package func lock(_ fd: Int32, _ kind: LockKind, path: String) throws(StoreError) -> Bool { try real.lock(fd, kind, path: path) }
    package func rename(_ from: String, to: String) throws(StoreError) { try real.rename(from, to: to) }
    package func remove(_ path: String) throws(StoreError) { try real.remove(path) }
    package func makeDirectory(_ path: String) throws(StoreError) -> Bool { try real.makeDirectory(path) }
    package func removeDirectory(_ path: String) { real.removeDirectory(path) }
    package func syncDirectory(_ path: String) throws(StoreError) { try real.syncDirectory(path) }
    package func list(_ directory: String) throws(StoreError) -> [String] { try real.list(directory) }
    package func kind(of path: String) throws(StoreError) -> FileKind { try real.kind(of: path) }
    package func entry(at path: String) throws(StoreError) -> FileKind { try real.entry(at: path) }
}
