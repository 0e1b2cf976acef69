import CompassCore

extension LogWriter {
    /// Replaces the log with what `make` returns for its committed bytes, holding the writers'
    /// lock from the read to the rename, so no append lands in between (a device's sync, SPEC
    /// §7: `make` pushes the lines that are the device's own and returns the remote's stream).
    /// Then `committed` runs, still under the lock. A failure before the rename changes nothing.
    package func replace(_ make: ([UInt8]) throws(StoreError) -> [UInt8],
                         committed: () throws(StoreError) -> Void) throws(StoreError) {
        let fd = try lockExistingLog()
        defer {
            fs.unlock(fd, path: path)
            closeLog()
        }
        let bytes = try committedBytesForRewrite(fd)
        let newLog = try make(bytes)
        if newLog != bytes {
            try fs.remove(StoreFiles(log: path).snapshot)  // a cache of the old log
            try fs.replaceAtomically(path, afterRename: .syncFolder) { out, temp throws(StoreError) in
                try fs.writeAll(out, newLog, path: temp)
            }
        }
        try committed()
    }
}
