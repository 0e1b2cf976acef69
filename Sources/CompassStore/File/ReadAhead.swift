import CompassCore
import Dispatch
import Foundation

/// One read of the log's next bytes, run on another thread while this one folds.
///
/// The read waits for nothing of the folding thread's, so it cannot deadlock behind it: when
/// every worker of the global queue is busy (an app's own work), it runs late, never not at all.
final class ReadAhead: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Set by the reading thread before `done` is left; read only after ``wait()``.
    private var result: Result<Int, StoreError> = .success(0)
    private let target: UnsafeMutableRawBufferPointer

    /// Starts one `pread` of `target.count` bytes at `offset` into `target`, which must stay
    /// valid until ``wait()`` returns.
    init(fs: FileSystem, fd: Int32, into target: UnsafeMutableRawBufferPointer, at offset: Int, path: String) {
        self.target = target
        done.enter()
        DispatchQueue.global().async { [self] in
            result = Result { () throws(StoreError) in try fs.read(fd, into: self.target, at: offset, path: path) }
            done.leave()
        }
    }

    /// Waits for the read: the bytes it read (0 at the file's end), or why it failed.
    func wait() -> Result<Int, StoreError> {
        done.wait()
        return result
    }
}
