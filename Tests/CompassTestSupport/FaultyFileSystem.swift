import Foundation
import CompassStore

#if canImport(Glibc)
import Glibc
#endif

/// A file system that fails on purpose, after SQLite's test VFS: it counts every operation
/// the store makes and, at the N-th, injects a fault.
///
/// - `.error`: that operation fails (EIO; a write fails with ENOSPC), the rest go on.
/// - `.shortWrite`: a write writes half its bytes and reports that (the caller must go on or fail).
/// - `.kill`: the process "dies": that operation and every later one fail; the files stay as
///   the page cache has them (what a SIGKILL leaves).
/// - `.powerLoss`: as `.kill`, and then ``recoverFromPowerLoss()`` puts every file and folder
///   entry back to what was last made durable: a file's bytes as of its last fsync, a
///   folder's entries as of its last fsync (a file created, renamed or removed since then is
///   not, or still, there).
package final class FaultyFileSystem: FileSystem, @unchecked Sendable {
    package enum Fault: CaseIterable, Sendable { case error, shortWrite, kill, powerLoss }

    private let real = POSIXFileSystem()
    private let lock = NSLock()
    package let root: String
    private let failAt: Int
    private let fault: Fault
    package private(set) var operations = 0
    package private(set) var injected: String?
    private var stopped = false

    // The durability model: inodes, the names that point at them now and as last made durable.
    private var nextInode = 0
    private var current: [String: Int] = [:]
    private var durable: [String: Int] = [:]
    private var durableBytes: [Int: [UInt8]] = [:]
    private var folders: Set<String> = []
    private var durableFolders: Set<String> = []
    private var open: [Int32: Int] = [:]

    /// Watches the files under `root` (taken as durable as they are now); faults at operation `failAt`.
    package init(root: String, failAt: Int, fault: Fault) {
        self.root = root
        self.failAt = failAt
        self.fault = fault
        scan(root)
        durable = current
        durableFolders = folders
    }

    private func scan(_ folder: String) {
        folders.insert(folder)
        for name in (try? real.list(folder)) ?? [] {
            let path = folder + "/" + name
            switch try? real.entry(at: path) {
            case .directory: scan(path)
            case .regular:
                nextInode += 1
                current[path] = nextInode
                durableBytes[nextInode] = (try? real.readFile(path)) ?? []
            default: break
            }
        }
    }

    /// Whether the fault was reached (a run with fewer operations never hits it).
    package var hitFault: Bool { injected != nil }

    /// Counts one operation; throws the injected fault at the chosen one.
    private func step(_ name: String, _ path: String, isWrite: Bool = false) throws(StoreError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if stopped { throw .io(path: name, message: "simulated crash: \(name) \(path) after the process died") }
        operations += 1
        guard operations == failAt else { return false }
        injected = "\(fault) at operation \(operations): \(name) \(path)"
        switch fault {
        case .error: throw .io(path: name, message: "injected \(isWrite ? "ENOSPC" : "EIO"): \(name) \(path)")
        case .shortWrite:
            if isWrite { return true }
            throw .io(path: name, message: "injected EIO: \(name) \(path)")
        case .kill, .powerLoss:
            stopped = true
            throw .io(path: name, message: "simulated crash: \(name) \(path)")
        }
    }

    private func parent(_ path: String) -> String { POSIX.directory(of: path) }

    package func open(_ path: String, _ mode: OpenMode) throws(StoreError) -> Int32? {
        _ = try step("open", path)
        let existed = (try? real.kind(of: path)) == .regular
        guard let fd = try real.open(path, mode) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if !existed || current[path] == nil {
            nextInode += 1
            current[path] = nextInode
            durableBytes[nextInode] = []  // never synced: empty after a power loss
        }
        open[fd] = current[path]
        return fd
    }

    /// Descriptors closed that this file system had not opened, or had closed already. In a
    /// process with other threads such a close can shut a descriptor someone else just got
    /// (the same number), so the store must close each exactly once: it is recorded here and
    /// not passed on.
    package private(set) var strayCloses: [Int32] = []

    /// Descriptors this file system opened and nobody has closed yet: a test whose store,
    /// feed or command is gone expects none (every owner of a descriptor closes it).
    package var openDescriptors: [Int32] {
        lock.lock()
        defer { lock.unlock() }
        return open.keys.sorted()
    }

    package func close(_ fd: Int32) {
        lock.lock()
        let known = open.removeValue(forKey: fd) != nil
        if !known { strayCloses.append(fd) }
        lock.unlock()
        if known { real.close(fd) }
    }

    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String) throws(StoreError) -> Int {
        _ = try step("read", path)
        return try real.read(fd, into: buffer, at: offset, path: path)
    }

    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(StoreError) -> Int {
        if try step("write", path, isWrite: true) {
            return try real.write(fd, UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count / 2)]), path: path)
        }
        return try real.write(fd, bytes, path: path)
    }

    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String) throws(StoreError) -> Int {
        if try step("pwrite", path, isWrite: true) {
            return try real.write(fd, UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count / 2)]), at: offset, path: path)
        }
        return try real.write(fd, bytes, at: offset, path: path)
    }

    package func sync(_ fd: Int32, path: String) throws(StoreError) {
        _ = try step("sync", path)
        try real.sync(fd, path: path)
        let bytes = (try? real.readFile(path)).flatMap { $0 } ?? []  // the descriptor may be write-only
        lock.lock()
        if let inode = open[fd] { durableBytes[inode] = bytes }
        lock.unlock()
    }

    package func truncate(_ fd: Int32, to size: Int, path: String) throws(StoreError) {
        _ = try step("truncate", path)
        try real.truncate(fd, to: size, path: path)
    }

    // Every stat is a step too: a failed stat is an error, never "absent".
    package func size(_ fd: Int32, path: String) throws(StoreError) -> Int {
        _ = try step("fstat", path)
        return try real.size(fd, path: path)
    }

    package func identity(_ fd: Int32) throws(StoreError) -> FileIdentity {
        _ = try step("fstat", "fd \(fd)")
        return try real.identity(fd)
    }

    package func identity(of path: String) throws(StoreError) -> FileIdentity? {
        _ = try step("stat", path)
        return try real.identity(of: path)
    }

    package func lock(_ fd: Int32, _ kind: LockKind, path: String) throws(StoreError) -> Bool {
        if kind != .unlock { _ = try step("lock", path) }
        return try real.lock(fd, kind, path: path)
    }

    package func rename(_ from: String, to: String) throws(StoreError) {
        _ = try step("rename", from)
        try real.rename(from, to: to)
        lock.lock()
        current[to] = current[from]
        current[from] = nil
        lock.unlock()
    }

    package func remove(_ path: String) throws(StoreError) {
        _ = try step("remove", path)
        try real.remove(path)
        lock.lock()
        current[path] = nil
        lock.unlock()
    }

    package func makeDirectory(_ path: String) throws(StoreError) -> Bool {
        _ = try step("mkdir", path)
        let made = try real.makeDirectory(path)
        lock.lock()
        folders.insert(path)
        lock.unlock()
        return made
    }

    package func removeDirectory(_ path: String) {
        guard !stopped else { return }
        real.removeDirectory(path)
        if (try? real.kind(of: path)) == .missing {
            lock.lock()
            folders.remove(path)
            lock.unlock()
        }
    }

    package func syncDirectory(_ path: String) throws(StoreError) {
        _ = try step("syncdir", path)
        try real.syncDirectory(path)
        lock.lock()
        defer { lock.unlock() }
        for name in Set(current.keys).union(durable.keys) where parent(name) == path { durable[name] = current[name] }
        for folder in folders.union(durableFolders) where parent(folder) == path {
            if folders.contains(folder) { durableFolders.insert(folder) } else { durableFolders.remove(folder) }
        }
    }

    package func list(_ directory: String) throws(StoreError) -> [String] {
        _ = try step("list", directory)
        return try real.list(directory)
    }

    package func kind(of path: String) throws(StoreError) -> FileKind {
        _ = try step("stat", path)
        return try real.kind(of: path)
    }

    package func entry(at path: String) throws(StoreError) -> FileKind {
        _ = try step("lstat", path)
        return try real.entry(at: path)
    }

    /// After a `.powerLoss`: every file and folder under the root put back to its durable state.
    package func recoverFromPowerLoss() {
        try? FileManager.default.removeItem(atPath: root)
        for folder in durableFolders.sorted() {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for (path, inode) in durable where durableFolders.contains(parent(path)) {
            _ = FileManager.default.createFile(atPath: path, contents: Data(durableBytes[inode] ?? []))
        }
    }
}
