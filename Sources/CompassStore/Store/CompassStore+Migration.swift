import CompassCore

/// `compass migrate OLD NEW` (SPEC §1.1): a v2 log rewritten as v3 into a new file, with its
/// attachment bytes; the old log is only read.
extension CompassStore {
    /// What a migration wrote, or why it wrote nothing.
    package enum Migration {
        /// NEW holds the v3 log (and NEW.attachments the blobs its lines name).
        case written(oldHead: String, root: String, lines: Int, families: Int, blobs: Int)
        /// OLD does not verify as a v2 log: its problems; nothing was written.
        case refused([Problem])
        /// OLD already has one stream per family and verifies as v3: nothing to do.
        case alreadyStreams
    }

    /// Migrates the log at `old` into a new log at `new`, which must not exist.
    ///
    /// The blobs the lines name are checked against their hashes and copied first, then the
    /// log is written whole through the store's one atomic write (temporary file, fsync,
    /// rename, folder fsync): a crash leaves no NEW or a whole one. A blob that is missing or
    /// does not match is a problem: a log that does not verify is not migrated.
    package static func migrate(from old: String, to new: String, fileSystem fs: FileSystem = POSIXFileSystem()) throws(StoreError) -> Migration {
        guard try fs.kind(of: new) == .missing else {
            throw .conflict("\(new) already exists (migrate writes a new log; choose another path)")
        }
        guard let fd = try fs.open(old, .read) else { throw .noLog(path: old) }
        defer { fs.close(fd) }
        let extent = try LogExtent.measure(fd, path: old, fs: fs)
        let bytes = try fs.read(fd, from: 0, to: extent.complete + (extent.torn ? 1 : 0), path: old)
        let outcome: LogMigration.Outcome
        do throws(LogMigration.Refusal) { outcome = try LogMigration.migrate(bytes) } catch {
            var asV3 = Replayer(problems: .summary)
            asV3.consume(bytes: bytes)
            return asV3.problemSummary.count == 0 && asV3.tornLine == nil ? .alreadyStreams : .refused(error.problems)
        }
        // The bytes the lines name, whole, from the old log's folder.
        let from = AttachmentStore(logPath: old)
        var staged: [StagedAttachment] = []
        var problems: [Problem] = []
        for family in outcome.replayed.state.families.values {
            for hash in family.attachmentHashes.sorted() {
                guard let blob = try fs.readFile(from.path(for: hash), .readSide), SHA256.hex(blob) == hash else {
                    problems.append(Problem(line: 0, message: "attachment \(hash) is missing or does not match its hash"))
                    continue
                }
                staged.append(StagedAttachment(name: hash, bytes: blob, mimeType: "", sha256: hash))
            }
        }
        guard problems.isEmpty else { return .refused(problems) }
        let undo = try AttachmentStore(logPath: new).save(staged, fs: fs)
        do throws(StoreError) {
            try fs.writeFileAtomically(new, parts: [outcome.newLog])
        } catch {
            undo()
            throw error
        }
        return .written(oldHead: outcome.oldHead, root: outcome.root, lines: outcome.lines, families: outcome.families, blobs: staged.count)
    }
}
