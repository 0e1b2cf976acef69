#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Thin, typed wrappers over the POSIX calls the log needs.
enum POSIX {
    /// The text of the current `errno`.
    static var lastError: String { String(cString: strerror(errno)) }

    /// Creates a folder and its parents; fine if it exists.
    static func makeDirectories(_ path: String) throws(CLIError) {
        guard !path.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .io("cannot create folder \(path): \(error.localizedDescription)")
        }
    }

    /// The folder part of a path.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Reads a whole open file from its start.
    static func readAll(_ fd: Int32, path: String) throws(CLIError) -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io("cannot read \(path): \(lastError)") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + offset, $0.count - offset, off_t(offset)) }
            if n < 0 { if errno == EINTR { continue }; throw .io("cannot read \(path): \(lastError)") }
            if n == 0 { bytes.removeSubrange(offset...); break }
            offset += n
        }
        return bytes
    }

    /// The size of an open file.
    static func size(_ fd: Int32, path: String) throws(CLIError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io("cannot read \(path): \(lastError)") }
        return Int(info.st_size)
    }

    /// Reads the bytes `from..<to` of an open file.
    static func read(_ fd: Int32, from: Int, to: Int, path: String) throws(CLIError) -> [UInt8] {
        let wanted = max(0, to - from)
        var failure: Int32 = 0
        // Read straight into the array's storage: no zero-filling of bytes about to be overwritten.
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
            while count < wanted {
                let n = pread(fd, buffer.baseAddress! + count, wanted - count, off_t(from + count))
                if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                if n == 0 { return }
                count += n
            }
        }
        if failure != 0 { throw .io("cannot read \(path): \(String(cString: strerror(failure)))") }
        return bytes
    }

    /// Writes all bytes at the end of an open file (one `write` call unless the kernel splits it).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(CLIError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; throw .io("cannot write \(path): \(lastError)") }
            offset += n
        }
    }

    static func sync(_ fd: Int32, path: String) throws(CLIError) {
        guard fsync(fd) == 0 else { throw .io("cannot sync \(path): \(lastError)") }
    }

    /// Makes a new directory entry durable.
    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Writes a file atomically: temp file, fsync, rename.
    static func writeFileAtomically(_ path: String, _ bytes: [UInt8]) throws(CLIError) {
        try writeFileAtomically(path, parts: [bytes])
    }

    /// Writes a file whose bytes are `parts`, one after another, atomically as above.
    static func writeFileAtomically(_ path: String, parts: [[UInt8]]) throws(CLIError) {
        let temp = path + ".tmp-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io("cannot write \(temp): \(lastError)") }
        defer { close(fd) }
        for part in parts { try writeAll(fd, part, path: temp) }
        try sync(fd, path: temp)
        guard rename(temp, path) == 0 else { throw .io("cannot rename \(temp): \(lastError)") }
        syncDirectory(directory(of: path))
    }

    /// Reads a whole file by path, or nil when it does not exist.
    static func readFile(_ path: String) throws(CLIError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .io("cannot open \(path): \(lastError)")
        }
        defer { close(fd) }
        return try readAll(fd, path: path)
    }
}
