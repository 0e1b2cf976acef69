import Foundation
import CompassStore

#if canImport(Glibc)
import Glibc
#endif

/// The real file system, except that chosen operations on chosen paths fail with an error
/// other than ENOENT (EIO, EMFILE): the store must take each one for what it is, an error,
/// and never for "the file is not there".
package final class PathFaultFileSystem: FileSystem, @unchecked Sendable {
    private let real = POSIXFileSystem()
    private let fails: @Sendable (_ operation: String, _ path: String) -> Bool
    private let lock = NSLock()
    package private(set) var injected: [String] = []

    /// - Parameter fails: whether `operation` (`open`, `stat`, `lstat`, `fstat`, `read`,
    ///   `list`, `remove`, `syncdir`) on `path` fails.
    package init(failing fails: @escaping @Sendable (_ operation: String, _ path: String) -> Bool) { self.fails = fails }

    private func check(_ operation: String, _ path: String) throws(StoreError) {
        guard fails(operation, path) else { return }
        lock.lock()
        injected.append("\(operation) \(path)")
        lock.unlock()
        throw .io(path: path, message: "cannot \(operation) \(path): injected I/O error")
    }

    private var paths: [Int32: String] = [:]

    package func open(_ path: String, _ mode: OpenMode) throws(StoreError) -> Int32? {
        try check("open", path)
        let fd = try real.open(path, mode)
        if let fd { lock.lock(); paths[fd] = path; lock.unlock() }
        return fd
    }
    package func close(_ fd: Int32) { lock.lock(); paths[fd] = nil; lock.unlock(); real.close(fd) }
    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String) throws(StoreError) -> Int {
        try check("read", path)
        return try real.read(fd, into: buffer, at: offset, path: path)
    }
    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(StoreError) -> Int {
        try check("write", path)
        return try real.write(fd, bytes, path: path)
    }
    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String) throws(StoreError) -> Int {
        try check("write", path)
        return try real.write(fd, bytes, at: offset, path: path)
    }
    package func sync(_ fd: Int32, path: String) throws(StoreError) { try check("sync", path); try real.sync(fd, path: path) }
    package func truncate(_ fd: Int32, to size: Int, path: String) throws(StoreError) { try check("truncate", path); try real.truncate(fd, to: size, path: path) }
    package func size(_ fd: Int32, path: String) throws(StoreError) -> Int { try check("fstat", path); return try real.size(fd, path: path) }
    package func identity(_ fd: Int32) throws(StoreError) -> FileIdentity {
        lock.lock(); let path = paths[fd] ?? ""; lock.unlock()
        try check("fstat", path)
        return try real.identity(fd)
    }
    package func identity(of path: String) throws(StoreError) -> FileIdentity? { try check("stat", path); return try real.identity(of: path) }
    package func lock(_ fd: Int32, _ kind: LockKind, path: String) throws(StoreError) -> Bool { try real.lock(fd, kind, path: path) }
    package func rename(_ from: String, to: String) throws(StoreError) { try check("rename", from); try real.rename(from, to: to) }
    package func remove(_ path: String) throws(StoreError) { try check("remove", path); try real.remove(path) }
    package func makeDirectory(_ path: String) throws(StoreError) -> Bool { try check("mkdir", path); return try real.makeDirectory(path) }
    package func removeDirectory(_ path: String) { real.removeDirectory(path) }
    package func syncDirectory(_ path: String) throws(StoreError) { try check("syncdir", path); try real.syncDirectory(path) }
    package func list(_ directory: String) throws(StoreError) -> [String] { try check("list", directory); return try real.list(directory) }
    package func kind(of path: String) throws(StoreError) -> FileKind { try check("stat", path); return try real.kind(of: path) }
    package func entry(at path: String) throws(StoreError) -> FileKind { try check("lstat", path); return try real.entry(at: path) }
}
