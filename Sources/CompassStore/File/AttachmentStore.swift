import CompassCore

/// A file to attach, checked and hashed, not yet stored.
package struct StagedAttachment: Sendable {
    package var name: String
    package var bytes: [UInt8]
    package var mimeType: String
    package var sha256: String

    /// The attachment as the event records it.
    package var attachment: Attachment {
        Attachment(name: name, sizeBytes: Int64(bytes.count), mimeType: mimeType, sha256: sha256)
    }
}

/// Attachment bytes, stored content-addressed by SHA-256 in `LOG.attachments/` beside the log.
package struct AttachmentStore {
    package let folder: String

    package init(logPath: String) { folder = StoreFiles(log: logPath).attachments }

    /// Where the bytes with this hash live.
    package func path(for sha256: String) -> String { folder + "/" + sha256 }

    /// Reads and checks a file for `--attach`: MIME type from the extension first, then size.
    /// Only a regular file is read (a FIFO or device is refused without blocking).
    package static func stage(_ full: String, fs: FileSystem) throws(StoreError) -> StagedAttachment {
        if try fs.kind(of: full) == .directory { throw .io(path: full, message: "\(full) is a directory, not a file") }
        let name = fileName(of: full)
        guard let mime = AttachmentRules.mimeType(forFileName: name) else { throw .rejected(EventError(RuleMessage.unsupportedFileType, kind: .rule)) }
        let size = try describe(full, fs: fs).size
        guard size <= AttachmentRules.maxSizeBytes else { throw .rejected(EventError(RuleMessage.fileTooLarge, kind: .rule)) }
        guard let bytes = try fs.readFile(full) else { throw .io(path: full, message: "cannot open \(full): no such file") }
        return StagedAttachment(name: name, bytes: bytes, mimeType: mime, sha256: SHA256.hex(bytes))
    }

    /// Checks bytes given in memory under their file name, as ``stage(_:fs:)`` checks a file.
    package static func stage(name: String, bytes: [UInt8]) throws(StoreError) -> StagedAttachment {
        guard let mime = AttachmentRules.mimeType(forFileName: name) else { throw .rejected(EventError(RuleMessage.unsupportedFileType, kind: .rule)) }
        guard bytes.count <= AttachmentRules.maxSizeBytes else { throw .rejected(EventError(RuleMessage.fileTooLarge, kind: .rule)) }
        return StagedAttachment(name: name, bytes: bytes, mimeType: mime, sha256: SHA256.hex(bytes))
    }

    /// The most bytes a document's file may have (SPEC §2 sets no limit; the store reads a file
    /// whole before it stores it, so it sets one).
    package static let maxDocumentBytes: Int64 = 100 << 20

    /// Reads a file for `upload-document --file`: any type, up to ``maxDocumentBytes``. Only a
    /// regular file is read.
    package static func stageDocument(_ full: String, fs: FileSystem) throws(StoreError) -> StagedAttachment {
        if try fs.kind(of: full) == .directory { throw .io(path: full, message: "\(full) is a directory, not a file") }
        let size = try describe(full, fs: fs).size
        guard size <= maxDocumentBytes else { throw .rejected(EventError("File exceeds 100MB limit", kind: .rule)) }
        guard let bytes = try fs.readFile(full) else { throw .io(path: full, message: "cannot open \(full): no such file") }
        return StagedAttachment(name: fileName(of: full), bytes: bytes, mimeType: "", sha256: SHA256.hex(bytes))
    }

    /// A document's bytes given in memory, as ``stageDocument(_:fs:)`` checks a file.
    package static func stageDocument(name: String, bytes: [UInt8]) throws(StoreError) -> StagedAttachment {
        guard bytes.count <= maxDocumentBytes else { throw .rejected(EventError("File exceeds 100MB limit", kind: .rule)) }
        return StagedAttachment(name: name, bytes: bytes, mimeType: "", sha256: SHA256.hex(bytes))
    }

    /// A regular file's name and size, for `upload-document --file` and `--attach`.
    package static func describe(_ path: String, fs: FileSystem) throws(StoreError) -> (name: String, size: Int64) {
        let fd = try fs.openExisting(path)
        defer { fs.close(fd) }
        return (fileName(of: path), Int64(try fs.size(fd, path: path)))
    }

    package static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Stores each attachment's bytes durably (temporary file, fsync, rename, folder fsync)
    /// unless the same bytes are already there. Returns what takes back the files and the
    /// folder it created, should the append then fail.
    package func save(_ attachments: [StagedAttachment], fs: FileSystem) throws(StoreError) -> () -> Void {
        guard !attachments.isEmpty else { return {} }
        var createdFolders: [String] = []
        var createdFiles: [String] = []
        let undo = {
            for file in createdFiles { try? fs.remove(file) }
            for folder in createdFolders.reversed() { fs.removeDirectory(folder) }
        }
        do throws(StoreError) {
            createdFolders = try fs.makeDirectories(folder)
            try fs.removeStaleTemporaries(in: folder)  // left by a writer that died storing bytes
            for attachment in attachments {
                let target = path(for: attachment.sha256)
                if try fs.kind(of: target) == .regular { continue }
                createdFiles.append(target)  // before writing: a rename may land before a later step fails
                try fs.writeFileAtomically(target, parts: [attachment.bytes])
            }
        } catch {
            undo()
            throw error
        }
        return undo
    }
}
