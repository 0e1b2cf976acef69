/// Small helpers around POSIX names and paths.
package enum POSIX {
    /// The text of the current `errno`.
    package static var lastError: String { message(errno) }

    /// The text of an `errno` value.
    package static func message(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The error for a failed `stat` of a path (the current `errno`), which is never "absent".
    package static func statError(_ path: String) -> StoreError {
        let code = errno
        if code == ELOOP { return .io(path: path, message: "cannot read \(path): a loop of symbolic links") }
        return .io(path: path, message: "cannot read \(path): \(message(code))")
    }

    /// Why the store refuses a side file that is a symbolic link.
    package static func linkRefusal(_ path: String) -> String {
        "\(path) is a symbolic link; the store never follows links for the files it keeps beside the log"
    }

    /// The folder part of a path.
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The process id in a temporary file's name `NAME.tmp-PID`, if it is one.
    package static func temporaryOwner(_ name: String) -> Int32? {
        let bytes = Array(name.utf8)
        let marker = Array(".tmp-".utf8)
        guard bytes.count > marker.count else { return nil }
        for start in stride(from: bytes.count - marker.count, through: 0, by: -1) where bytes[start..<(start + marker.count)].elementsEqual(marker) {
            let digits = bytes[(start + marker.count)...]
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int32(String(decoding: digits, as: UTF8.self))
        }
        return nil
    }
}
