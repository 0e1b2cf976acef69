/// The real file system, through POSIX calls.
package struct POSIXFileSystem: FileSystem {
    package init() {}

    package func open(_ path: String, _ mode: OpenMode) throws(StoreError) -> Int32? {
        var flags = O_CLOEXEC | O_NONBLOCK  // non-blocking so a FIFO cannot hang the open
        switch mode {
        case .read: flags |= O_RDONLY
        case .readSide: flags |= O_RDONLY | O_NOFOLLOW
        case .append: flags |= O_RDWR | O_APPEND
        case .createLog: flags |= O_RDWR | O_APPEND | O_CREAT | O_EXCL
        case .appendSide: flags |= O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW
        case .createNew: flags |= O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW
        }
        var fd: Int32
        repeat { fd = sysOpen(path, flags, 0o644) } while fd < 0 && errno == EINTR
        if fd < 0 {
            let code = errno
            switch (code, mode) {
            case (ENOENT, .read), (ENOENT, .readSide), (ENOENT, .append): return nil
            case (ELOOP, .readSide), (ELOOP, .appendSide): throw .io(path: path, message: POSIX.linkRefusal(path))
            case (EEXIST, .createLog):
                if try isSymbolicLink(path) { throw .io(path: path, message: "\(path) is a symbolic link to nothing; name the log's real path") }
                return nil  // another writer made it first: open it again
            case (EEXIST, .createNew):
                if try isSymbolicLink(path) { throw .io(path: path, message: POSIX.linkRefusal(path)) }
                throw .io(path: path, message: "cannot create \(path): a file is already there")
            case (ELOOP, _): throw .io(path: path, message: "cannot open \(path): a loop of symbolic links")
            case (EISDIR, _): throw .io(path: path, message: "\(path) is a directory, not a file")
            case (ENXIO, _): throw .io(path: path, message: "\(path) is not a regular file")
            default: throw .io(path: path, message: "cannot open \(path): \(POSIX.message(code))")
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            sysClose(fd)
            // A file this call created (O_EXCL) is taken back: a failed open leaves nothing.
            switch mode {
            case .createNew, .createLog: _ = unlink(path)
            default: break
            }
            throw .io(path: path, message: "cannot open \(path): \(POSIX.message(code))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            sysClose(fd)
            throw .io(path: path, message: (info.st_mode & S_IFMT) == S_IFDIR ? "\(path) is a directory, not a file" : "\(path) is not a regular file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    package func close(_ fd: Int32) { sysClose(fd) }

    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String) throws(StoreError) -> Int {
        while true {
            let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno != EINTR { throw .io(path: path, message: "cannot read \(path): \(POSIX.lastError)") }
        }
    }

    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(StoreError) -> Int {
        while true {
            let n = sysWrite(fd, bytes.baseAddress, bytes.count)
            if n >= 0 { return n }
            if errno != EINTR { throw .io(path: path, message: "cannot write \(path): \(POSIX.lastError)") }
        }
    }

    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String) throws(StoreError) -> Int {
        while true {
            let n = pwrite(fd, bytes.baseAddress, bytes.count, off_t(offset))
            if n >= 0 { return n }
            if errno != EINTR { throw .io(path: path, message: "cannot write \(path): \(POSIX.lastError)") }
        }
    }

    package func sync(_ fd: Int32, path: String) throws(StoreError) {
        #if canImport(Darwin)
        // fsync on Apple platforms does not flush the drive's cache; F_FULLFSYNC does.
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(fd) == 0 else { throw .io(path: path, message: "cannot sync \(path): \(POSIX.lastError)") }
    }

    package func truncate(_ fd: Int32, to size: Int, path: String) throws(StoreError) {
        guard ftruncate(fd, off_t(size)) == 0 else { throw .io(path: path, message: "cannot truncate \(path): \(POSIX.lastError)") }
    }

    package func size(_ fd: Int32, path: String) throws(StoreError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: path, message: "cannot read \(path): \(POSIX.lastError)") }
        return Int(info.st_size)
    }

    package func identity(_ fd: Int32) throws(StoreError) -> FileIdentity {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: "", message: "cannot stat an open file: \(POSIX.lastError)") }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    package func identity(of path: String) throws(StoreError) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw POSIX.statError(path)
        }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    private func isSymbolicLink(_ path: String) throws(StoreError) -> Bool { try entry(at: path) == .link }

    @discardableResult
    package func lock(_ fd: Int32, _ kind: LockKind, path: String) throws(StoreError) -> Bool {
        let operation = switch kind {
        case .shared: LOCK_SH
        case .exclusive: LOCK_EX
        case .unlock: LOCK_UN
        case .sharedIfFree: LOCK_SH | LOCK_NB
        }
        while flock(fd, operation) != 0 {
            if errno == EWOULDBLOCK, kind == .sharedIfFree { return false }
            guard errno == EINTR else { throw .io(path: path, message: "cannot lock \(path): \(POSIX.lastError)") }
        }
        return true
    }

    package func rename(_ from: String, to: String) throws(StoreError) {
        guard sysRename(from, to) == 0 else { throw .io(path: from, message: "cannot rename \(from): \(POSIX.lastError)") }
    }

    package func remove(_ path: String) throws(StoreError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .io(path: path, message: "cannot remove \(path): \(POSIX.lastError)") }
    }

    package func makeDirectory(_ path: String) throws(StoreError) -> Bool {
        if mkdir(path, 0o755) == 0 { return true }
        let code = errno
        if code == EEXIST, try kind(of: path) == .directory { return false }
        throw .io(path: path, message: "cannot create folder \(path): \(POSIX.message(code))")
    }

    package func removeDirectory(_ path: String) { _ = rmdir(path) }

    package func syncDirectory(_ path: String) throws(StoreError) {
        let fd = sysOpen(path, O_RDONLY | O_CLOEXEC | O_DIRECTORY, 0)
        guard fd >= 0 else { throw .io(path: path, message: "cannot sync folder \(path): \(POSIX.lastError)") }
        defer { sysClose(fd) }
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(fd) == 0 else { throw .io(path: path, message: "cannot sync folder \(path): \(POSIX.lastError)") }
    }

    package func list(_ directory: String) throws(StoreError) -> [String] {
        guard let dir = opendir(directory) else {
            if errno == ENOENT { return [] }
            throw .io(path: directory, message: "cannot list folder \(directory): \(POSIX.lastError)")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    package func kind(of path: String) throws(StoreError) -> FileKind { try Self.kind(path, following: true) }

    package func entry(at path: String) throws(StoreError) -> FileKind { try Self.kind(path, following: false) }

    /// What `stat` (or `lstat`, not following a final link) says is at a path; `.missing` only on ENOENT.
    private static func kind(_ path: String, following: Bool) throws(StoreError) -> FileKind {
        var info = stat()
        guard (following ? stat(path, &info) : lstat(path, &info)) == 0 else {
            if errno == ENOENT { return .missing }
            throw POSIX.statError(path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .link
        default: return .other
        }
    }
}

// The C functions under names that do not clash with the protocol's methods (at file scope the
// names are the C library's, whichever the platform imports: Platform.swift).
private func sysOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

private func sysClose(_ fd: Int32) {
    _ = close(fd)
}

private func sysWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, bytes, count)
}

private func sysRename(_ from: String, _ to: String) -> Int32 {
    rename(from, to)
}
