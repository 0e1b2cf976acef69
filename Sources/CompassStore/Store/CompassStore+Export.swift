import CompassCore

/// One family's stream as it is in the log, byte for byte (SPEC §1.1 "Family export"): a log
/// of its own that `verify` accepts alone, with the same head. The family's portable, provable
/// copy of its history.
public struct FamilyStreamExport: Sendable {
    /// The family.
    public var family: String
    /// Its lines, each ending in `\n`, exactly as the log has them.
    public var lines: [UInt8]
    /// How many lines.
    public var lineCount: Int
    /// The family's version (its last `seq`) and head, as `verify` of the export prints them.
    public var seq: Int64
    public var head: String
    /// The attachment blobs its lines name: a copy that verifies alone carries these beside it.
    public var attachmentHashes: [String]
}

/// What a whole-store export wrote: every family's stream, family by family, each in `seq`
/// order, the whole store as one log file that verifies with the same heads and root (a
/// PostgreSQL store taken back to a file).
public struct StoreStreamExport: Sendable {
    /// How many lines, and of how many families.
    public var lineCount: Int
    public var familyCount: Int
    /// The store's root (SPEC §1.1), as `verify` of the export prints it.
    public var root: String
    /// The attachment blobs the lines name.
    public var attachmentHashes: [String]
}

extension CompassStore {
    /// Every family's stream, for an operator: the whole store as one log, handed to `write`
    /// in blocks of whole lines exactly as the store has them (each line ending in `\n`).
    ///
    /// A database's lines are read in blocks within one snapshot: the export holds a block and
    /// the state, never the whole store.
    @discardableResult
    public func exportEveryFamily(_ write: ([UInt8]) throws(StoreError) -> Void) throws(StoreError) -> StoreStreamExport {
        var replayer = Replayer(problems: .summary)
        var lineCount = 0
        try backend.eachBlockOfLines { (block) throws(StoreError) in
            replayer.consume(bytes: block)
            lineCount += block.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            try write(block)
        }
        var hashes: Set<String> = []
        for family in replayer.state.families.values { hashes.formUnion(family.attachmentHashes) }
        return StoreStreamExport(lineCount: lineCount, familyCount: replayer.streams.sorted.count, root: replayer.streams.root,
                                 attachmentHashes: hashes.sorted())
    }

    /// Every family's stream written as a new log at `target` (which must not exist), with the
    /// attachments it names beside it, as ``writeExport(_:to:)`` writes a family's.
    @discardableResult
    public func exportEveryFamily(to target: String) throws(StoreError) -> StoreStreamExport {
        var written: StoreStreamExport?
        try writeLog(to: target) { (write) throws(StoreError) in
            let export = try exportEveryFamily(write)
            written = export
            return export.attachmentHashes
        }
        return written!
    }

    /// The stream of `viewer`'s family, for a parent of it (SPEC §1.1).
    ///
    /// - Throws: ``StoreError/rejected(_:)`` `Unknown user U` for a non-member, or with kind
    ///   `forbidden` for an athlete.
    public func exportStream(as viewer: String) throws(StoreError) -> FamilyStreamExport {
        let state = try state(for: viewer)
        guard let member = state.members[viewer] else { throw .rejected(EventError("Unknown user \(viewer)", kind: .notFound)) }
        guard member.role == .parent else {
            throw .rejected(EventError("Only a parent can export the family's stream", kind: .forbidden))
        }
        return try exportStream(family: member.family)
    }

    /// The stream of `family`, for an operator (no viewer: whoever can read the log file).
    ///
    /// - Throws: ``StoreError/rejected(_:)`` with kind `notFound` when no line is the family's.
    public func exportStream(family: String) throws(StoreError) -> FamilyStreamExport {
        let (lines, count) = try backend.familyLines(family)
        guard count > 0 else { throw .rejected(EventError("No family \(family) in the log", kind: .notFound)) }
        var replayer = Replayer(problems: .summary)
        replayer.consume(bytes: lines)
        let stream = replayer.streams[family: family]
        return FamilyStreamExport(family: family, lines: lines, lineCount: count, seq: stream?.seq ?? 0,
                                  head: stream?.head.text ?? SHA256.emptyHex,
                                  attachmentHashes: replayer.state.families[family]?.attachmentHashes.sorted() ?? [])
    }

    /// Writes an export as a new log at `target` (which must not exist; missing folders are
    /// made), with its blobs in `target.attachments/`, through the store's atomic writes; a
    /// failure takes back what it made.
    public func writeExport(_ export: FamilyStreamExport, to target: String) throws(StoreError) {
        try writeLog(to: target) { (write) throws(StoreError) in
            try write(export.lines)
            return export.attachmentHashes
        }
    }

    /// Writes a new log at `target` (which must not exist; missing folders are made) through
    /// the store's atomic write: `lines` hands its lines to the writer it is given and returns
    /// the attachment hashes they name, which are saved before the log is renamed into place
    /// (no log names a missing attachment). A failure takes back what it made.
    private func writeLog(to target: String,
                          _ lines: (_ write: ([UInt8]) throws(StoreError) -> Void) throws(StoreError) -> [String]) throws(StoreError) {
        let fs = self.fs
        guard try fs.kind(of: target) == .missing else { throw .conflict("\(target) already exists (choose another path)") }
        // An export to `target` that was killed left its temporary log and its attachments.
        try fs.removeUnfinishedExport(at: target)
        let folders = try fs.makeDirectories(POSIX.directory(of: target))
        var undo: () -> Void = {}
        do throws(StoreError) {
            try fs.replaceAtomically(target) { (fd, temp) throws(StoreError) in
                let hashes = try lines { (bytes) throws(StoreError) in try fs.writeAll(fd, bytes, path: temp) }
                undo = try AttachmentStore(logPath: target).save(try stagedBlobs(hashes), fs: fs)
            }
        } catch {
            undo()
            for folder in folders.reversed() { fs.removeDirectory(folder) }
            throw error
        }
    }

    /// The store's blobs with these hashes, each checked against its hash, to save beside an export.
    private func stagedBlobs(_ hashes: [String]) throws(StoreError) -> [StagedAttachment] {
        var staged: [StagedAttachment] = []
        for hash in hashes {
            guard let blob = try backend.blob(hash), SHA256.hex(blob) == hash else {
                throw .io(path: AttachmentStore(logPath: backend.location).path(for: hash),
                          message: "attachment \(hash) is missing or does not match its hash")
            }
            staged.append(StagedAttachment(name: hash, bytes: blob, mimeType: "", sha256: hash))
        }
        return staged
    }
}
