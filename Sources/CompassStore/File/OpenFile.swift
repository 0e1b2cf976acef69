/// An open file descriptor with one owner: closed when the last reference to it goes, so a
/// reader kept in a value (``LogTail``) never leaves a descriptor open after its store or
/// feed is gone.
final class OpenFile: @unchecked Sendable {
    /// The descriptor, open for this object's lifetime.
    let fd: Int32
    private let fs: FileSystem

    /// Takes ownership of `fd`, opened through `fs`.
    init(_ fd: Int32, fs: FileSystem) {
        self.fd = fd
        self.fs = fs
    }

    deinit { fs.close(fd) }
}
