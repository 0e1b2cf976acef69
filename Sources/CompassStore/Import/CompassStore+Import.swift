import CompassCore

extension CompassStore {
    /// Imports a JSON-lines history of events (a family's history exported from the web app,
    /// an app's own records) all or nothing, as `compass import` does.
    ///
    /// Each line is read exactly as replay reads a log line; only fields a line leaves out get
    /// import's defaults: `id` (from the configuration's id source), `at` (its clock), `family`
    /// (the actor's, or the joining user's new family `f-USER`); `seq` and `prev` are assigned.
    /// Every line is decided by the one rule set; lines naming attachment bytes must name bytes
    /// of their family already in the store.
    ///
    /// - Parameter expectVersion: every line must be of one family at this version.
    /// - Throws: ``StoreError/rejectedLines(_:)`` with every refused line (nothing written), or
    ///   the conflicts and I/O errors of an append.
    @discardableResult
    public func importEvents(_ lines: [UInt8], expectVersion: Int64? = nil) throws(StoreError) -> ImportSummary {
        var source = ImportFile(bytes: lines, now: configuration.clock(), makeId: configuration.makeId, store: self, importedFile: nil)
        return try importLines(from: &source, expectVersion: expectVersion, progress: nil)
    }

    /// ``importEvents(_:expectVersion:)`` of a file, read a block at a time (the import holds
    /// a block's lines, not the file's); the attachment bytes its lines name may lie beside it
    /// in `FILE.attachments/HASH`.
    @discardableResult
    public func importEvents(fromFile path: String, expectVersion: Int64? = nil) throws(StoreError) -> ImportSummary {
        let fs = self.fs
        guard let fd = try fs.open(path, .read) else { throw .io(path: path, message: "cannot open \(path): no such file") }
        defer { fs.close(fd) }
        var source = ImportFile(file: (fd, path, fs), now: configuration.clock(), makeId: configuration.makeId, store: self,
                                importedFile: path)
        return try importLines(from: &source, expectVersion: expectVersion, progress: nil)
    }
}
