import CompassCore

/// A file given with `--attach`, checked and hashed, not yet stored.
struct StagedAttachment {
    var name: String
    var bytes: [UInt8]
    var mimeType: String
    var sha256: String

    var json: JSONValue {
        .object(JSONObject([
            .init("name", .string(name)), .init("sizeBytes", .int(Int64(bytes.count))),
            .init("mimeType", .string(mimeType)), .init("sha256", .string(sha256)),
        ]))
    }
}

/// Attachment bytes, stored content-addressed by SHA-256 in `LOG.attachments/` beside the log.
struct AttachmentStore {
    let folder: String

    init(logPath: String) { folder = logPath + ".attachments" }

    /// Where the bytes with this hash live.
    func path(for sha256: String) -> String { folder + "/" + sha256 }

    /// Reads and checks a file for `--attach`: MIME type from the extension first, then size.
    /// Only a regular file is read (a FIFO or device is refused without blocking).
    static func stage(_ full: String, fs: FileSystem) throws(CLIError) -> StagedAttachment {
        let name = fileName(of: full)
        guard let mime = AttachmentRules.mimeType(forFileName: name) else { throw .domain("Unsupported file type") }
        let size = try describe(full, fs: fs).size
        guard size <= AttachmentRules.maxSizeBytes else { throw .domain("File exceeds 10MB limit") }
        guard let bytes = try fs.readFile(full) else { throw .io("cannot open \(full): no such file") }
        return StagedAttachment(name: name, bytes: bytes, mimeType: mime, sha256: SHA256.hex(bytes))
    }

    /// A regular file's name and size, for `upload-document --file` and `--attach`.
    static func describe(_ path: String, fs: FileSystem) throws(CLIError) -> (name: String, size: Int64) {
        let fd = try fs.openExisting(path)
        defer { fs.close(fd) }
        return (fileName(of: path), Int64(try fs.size(fd, path: path)))
    }

    static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Stores each attachment's bytes durably (temporary file, fsync, rename, folder fsync)
    /// unless the same bytes are already there. Returns what takes back the files and the
    /// folder it created, should the append then fail.
    func save(_ attachments: [StagedAttachment], fs: FileSystem) throws(CLIError) -> () -> Void {
        guard !attachments.isEmpty else { return {} }
        var createdFolders: [String] = []
        var createdFiles: [String] = []
        let undo = {
            for file in createdFiles { try? fs.remove(file) }
            for folder in createdFolders.reversed() { fs.removeDirectory(folder) }
        }
        do throws(CLIError) {
            createdFolders = try fs.makeDirectories(folder)
            for attachment in attachments {
                let target = path(for: attachment.sha256)
                if fs.kind(of: target) == .regular { continue }
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
