/// Every file operation the store makes, as one small seam.
///
/// The real implementation is ``POSIXFileSystem``. Tests replace it with one that fails (EIO,
/// ENOSPC, a short write) or "crashes" at the N-th operation, the way SQLite's test VFS does,
/// and then check every promise of ARCHITECTURE.md "What we guarantee". Each method is one
/// system call (or as close as the platform allows), so "every step" means every call.
package protocol FileSystem: Sendable {
    /// Opens a regular file; nil when it does not exist (ENOENT, nothing else) and `mode` does
    /// not create it. Never blocks: a FIFO, device or folder is refused with a clear error.
    func open(_ path: String, _ mode: OpenMode) throws(StoreError) -> Int32?
    func close(_ fd: Int32)
    /// One `pread` into `buffer` at `offset`; returns the bytes read (0 at the end).
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String) throws(StoreError) -> Int
    /// One `write` at the end of the file (`O_APPEND`) or at the file position; returns the bytes written.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(StoreError) -> Int
    /// Writes at an offset (`pwrite`) without moving the file position; returns how many bytes.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String) throws(StoreError) -> Int
    /// Makes the file's bytes durable (`F_FULLFSYNC` on Apple platforms, `fsync` elsewhere).
    func sync(_ fd: Int32, path: String) throws(StoreError)
    func truncate(_ fd: Int32, to size: Int, path: String) throws(StoreError)
    func size(_ fd: Int32, path: String) throws(StoreError) -> Int
    /// Device and inode of an open file.
    func identity(_ fd: Int32) throws(StoreError) -> FileIdentity
    /// Device and inode of a path; nil only when it does not exist (ENOENT): any other
    /// failure of `stat` is an error, never "absent".
    func identity(of path: String) throws(StoreError) -> FileIdentity?
    /// `flock`: shared, exclusive or unlock; waits for the lock, except `.sharedIfFree`, which
    /// returns false at once when another holds it exclusively.
    @discardableResult
    func lock(_ fd: Int32, _ kind: LockKind, path: String) throws(StoreError) -> Bool
    func rename(_ from: String, to: String) throws(StoreError)
    /// Removes a file; fine when it is already gone.
    func remove(_ path: String) throws(StoreError)
    /// Creates one folder; false when it already existed.
    func makeDirectory(_ path: String) throws(StoreError) -> Bool
    /// Removes an empty folder (best effort: cleanup after a failed first append).
    func removeDirectory(_ path: String)
    /// Makes a folder's entries (files created, renamed or removed in it) durable.
    func syncDirectory(_ path: String) throws(StoreError)
    /// The names in a folder (empty only when the folder does not exist).
    func list(_ directory: String) throws(StoreError) -> [String]
    /// What is at a path, without following it into a FIFO; `.missing` only on ENOENT.
    func kind(of path: String) throws(StoreError) -> FileKind
    /// What the folder entry at a path is itself (`lstat`): a symbolic link is `.link`.
    func entry(at path: String) throws(StoreError) -> FileKind
}

extension FileSystem {
    /// Releases a `flock`. A failed unlock is not reported: the lock goes with the descriptor
    /// when it is closed, and the caller is already on its way out.
    package func unlock(_ fd: Int32, path: String) { _ = try? lock(fd, .unlock, path: path) }

    /// Opens a file that must exist.
    package func openExisting(_ path: String, _ mode: OpenMode = .read) throws(StoreError) -> Int32 {
        guard let fd = try open(path, mode) else { throw .io(path: path, message: "cannot open \(path): no such file") }
        return fd
    }

    /// Reads the bytes `from..<to` of an open file (fewer when the file ends first).
    package func read(_ fd: Int32, from: Int, to: Int, path: String) throws(StoreError) -> [UInt8] {
        let wanted = max(0, to - from)
        var failure: StoreError?
        // Read straight into the array's storage: no zero-filling of bytes about to be overwritten.
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
            while count < wanted {
                do throws(StoreError) {
                    let n = try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[count...]),
                                     at: from + count, path: path)
                    if n == 0 { return }
                    count += n
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Reads the bytes of `range` of an open file into the start of `buffer`, grown when it is
    /// shorter and kept from read to read by the caller; false when the file ends first.
    package func read(_ fd: Int32, _ range: Range<Int>, into buffer: inout [UInt8], path: String) throws(StoreError) -> Bool {
        if buffer.count < range.count { buffer = [UInt8](repeating: 0, count: max(range.count, 2 * buffer.count)) }
        var filled = 0
        while filled < range.count {
            var read: Result<Int, StoreError> = .success(0)
            buffer.withUnsafeMutableBytes { raw in
                read = Result { () throws(StoreError) in
                    try self.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[filled..<range.count]), at: range.lowerBound + filled, path: path)
                }
            }
            let n = try read.get()
            if n == 0 { return false }
            filled += n
        }
        return true
    }

    /// Reads a whole open file.
    package func readAll(_ fd: Int32, path: String) throws(StoreError) -> [UInt8] {
        try read(fd, from: 0, to: try size(fd, path: path), path: path)
    }

    /// Reads a whole file by path, or nil when it does not exist (ENOENT only).
    package func readFile(_ path: String, _ mode: OpenMode = .read) throws(StoreError) -> [UInt8]? {
        guard let fd = try open(path, mode) else { return nil }
        defer { close(fd) }
        return try readAll(fd, path: path)
    }

    /// Writes every byte, calling `write` again after a short write.
    package func writeAll(_ fd: Int32, _ bytes: [UInt8], at position: Int? = nil, path: String) throws(StoreError) {
        var offset = 0
        while offset < bytes.count {
            var result: Result<Int, StoreError> = .success(0)
            bytes.withUnsafeBytes { raw in
                result = Result { () throws(StoreError) in
                    let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
                    if let position { return try write(fd, rest, at: position + offset, path: path) }
                    return try write(fd, rest, path: path)
                }
            }
            let n = try result.get()
            guard n > 0 else { throw .io(path: path, message: "cannot write \(path): no space left") }
            offset += n
        }
    }

    /// Makes a folder's entries durable after a commit point has passed: tried three times;
    /// when it still fails, the change is in place all the same, so the failure comes back as
    /// a warning to report (never as an error that would say the change did not happen).
    package func syncDirectoryAfterCommit(_ path: String) -> String? {
        var failure: StoreError?
        for _ in 0..<3 {
            do throws(StoreError) {
                try syncDirectory(path)
                return nil
            } catch {
                failure = error
            }
        }
        return failure.map { "the change is in place, but \($0.message) (it is durable once the system writes the folder)" }
    }

    /// Writes a file whose bytes are `parts`, one after another, atomically (``replaceAtomically(_:afterRename:write:)``).
    @discardableResult
    package func writeFileAtomically(_ path: String, parts: [[UInt8]], warnAfterRename: Bool = false) throws(StoreError) -> String? {
        try replaceAtomically(path, afterRename: warnAfterRename ? .warnIfFolderSyncFails : .syncFolder) { fd, temp throws(StoreError) in
            for part in parts { try writeAll(fd, part, path: temp) }
        }
    }

    /// The one atomic write of the store: `write` fills a new temporary file beside `path`
    /// (`PATH.tmp-PID`, created with `O_EXCL`), which is fsynced and renamed over `path`; then
    /// the folder is fsynced as `afterRename` says. On any failure before the rename the
    /// temporary file is removed and the old file, if any, is left as it was.
    ///
    /// - Returns: the warning of ``AfterRename/warnIfFolderSyncFails``, if any.
    @discardableResult
    package func replaceAtomically(_ path: String, afterRename: AfterRename = .syncFolder,
                                   write: (_ fd: Int32, _ temp: String) throws(StoreError) -> Void) throws(StoreError) -> String? {
        let temp = StoreFiles.temporary(for: path)
        let fd = try createTemporary(temp)
        // The descriptor is closed exactly once: in a process with other threads, a second
        // close could shut a descriptor another thread was just given the same number for.
        do throws(StoreError) {
            try write(fd, temp)
            try sync(fd, path: temp)
        } catch {
            close(fd)
            try? remove(temp)
            throw error
        }
        close(fd)
        do throws(StoreError) {
            try rename(temp, to: path)
        } catch {
            try? remove(temp)
            throw error
        }
        switch afterRename {
        case .syncFolder: try syncDirectory(POSIX.directory(of: path))
        case .warnIfFolderSyncFails: return syncDirectoryAfterCommit(POSIX.directory(of: path))
        case .leaveFolderToCaller: break
        }
        return nil
    }

    /// Creates a temporary side file of this process: a stale one of the same name (left by a
    /// dead process that had this process's id) is removed first (`unlink` removes a link,
    /// never what it points at); nothing is ever opened through a link.
    package func createTemporary(_ temp: String) throws(StoreError) -> Int32 {
        try remove(temp)
        guard let fd = try open(temp, .createNew) else { throw .io(path: temp, message: "cannot write \(temp)") }
        return fd
    }

    /// Creates a folder and any missing parents, each made durable in its parent; returns the
    /// folders it created, outermost first (so a failed first append can remove them).
    package func makeDirectories(_ path: String) throws(StoreError) -> [String] {
        guard !path.isEmpty, try kind(of: path) != .directory else { return [] }
        let parent = POSIX.directory(of: path)
        var created = parent == path ? [] : try makeDirectories(parent)
        do throws(StoreError) {
            if try makeDirectory(path) { created.append(path) }
            try syncDirectory(parent)
        } catch {
            for folder in created.reversed() { removeDirectory(folder) }
            throw error
        }
        return created
    }

    /// Removes what an export to `target` killed before it finished left: its `TARGET.tmp-PID`
    /// files (of processes that no longer run) and, as `target` itself is missing (an export
    /// writes its log last), its `TARGET.attachments/` folder's files and the folder. Links
    /// are removed, never followed; a folder inside is left alone.
    package func removeUnfinishedExport(at target: String) throws(StoreError) {
        let folder = POSIX.directory(of: target)
        guard try kind(of: folder) == .directory, try entry(at: target) == .missing else { return }
        let name = target.split(separator: "/").last.map(String.init) ?? target
        for entry in try list(folder) where entry.hasPrefix(name + ".tmp-") {
            guard let pid = POSIX.temporaryOwner(entry), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try remove(folder + "/" + entry)
        }
        let attachments = StoreFiles(log: target).attachments
        guard try entry(at: attachments) == .directory else { return }
        for file in try list(attachments) where try entry(at: attachments + "/" + file) != .directory {
            try remove(attachments + "/" + file)
        }
        removeDirectory(attachments)
    }

    /// Removes `PATH.tmp-PID` files left in `directory` by processes that no longer run.
    package func removeStaleTemporaries(in directory: String) throws(StoreError) {
        for name in try list(directory) {
            guard let pid = POSIX.temporaryOwner(name), pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { try remove(directory + "/" + name) }
        }
    }
}
