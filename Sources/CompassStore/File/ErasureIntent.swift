import CompassCore

/// `LOG.erasing`: what an erasure still has to remove once its new log is in place.
///
/// Written (fsynced) before the new log is renamed over the old one and removed after the
/// orphaned attachment blobs are gone. A writer that finds it (the eraser died in between)
/// finishes the job when the log is the new one — its last line at the recorded size hashes
/// to the recorded head — and otherwise only drops it: the old log, still in place, keeps
/// its blobs.
package enum ErasureIntent {
    static let magic = "compass-erasure"

    package static func path(of log: String) -> String { StoreFiles(log: log).erasing }

    /// Records what the erasure about to commit removes afterwards.
    static func write(log: String, newSize: Int, newHead: String, blobs: [String], fs: FileSystem) throws(StoreError) {
        let text = ([magic, "size \(newSize)", "head \(newHead)"] + blobs.map { "blob \($0)" }).joined(separator: "\n") + "\n"
        try fs.writeFileAtomically(path(of: log), parts: [Array(text.utf8)])
    }

    /// Finishes or drops an erasure a dead process left (under the writer's lock).
    package static func recover(log: String, fd: Int32, fs: FileSystem) throws(StoreError) {
        let intentPath = path(of: log)
        guard let bytes = try fs.readFile(intentPath, .readSide) else { return }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.first == magic, lines.count >= 3, let size = Int(lines[1].dropFirst(5)), lines[2].hasPrefix("head ") else {
            try fs.remove(intentPath)  // not ours to act on: nothing is removed on its word
            return
        }
        let head = String(lines[2].dropFirst(5))
        let blobs = lines.dropFirst(3).filter { $0.hasPrefix("blob ") }.map { String($0.dropFirst(5)) }.filter(SHA256.isHex)
        if try endsLine(fd, at: size, hashing: head, path: log, fs: fs) {
            try fs.syncDirectory(POSIX.directory(of: log))  // the rename is durable before blobs go
            try finish(log: log, blobs: blobs, fs: fs)
        } else {
            try fs.remove(intentPath)
            try fs.syncDirectory(POSIX.directory(of: log))
        }
    }

    /// Removes the orphaned blobs, then the intent.
    static func finish(log: String, blobs: [String], fs: FileSystem) throws(StoreError) {
        let attachments = AttachmentStore(logPath: log)
        for blob in blobs { try fs.remove(attachments.path(for: blob)) }  // fine when already gone
        if !blobs.isEmpty, try fs.kind(of: attachments.folder) == .directory { try fs.syncDirectory(attachments.folder) }
        try fs.remove(path(of: log))
        try fs.syncDirectory(POSIX.directory(of: log))
    }

    /// Whether the log has a line ending at `size` whose SHA-256 is `head`.
    static func endsLine(_ fd: Int32, at size: Int, hashing head: String, path: String, fs: FileSystem) throws(StoreError) -> Bool {
        guard size > 0, try fs.size(fd, path: path) >= size else { return false }
        let start = try LogExtent.lastLineEnd(fd, before: size - 1, path: path, fs: fs)
        let line = try fs.read(fd, from: start, to: size, path: path)
        guard line.last == 0x0A else { return false }
        return SHA256.hex(line.dropLast()) == head
    }
}
