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
    static func stage(_ full: String) throws(CLIError) -> StagedAttachment {
        let name = fileName(of: full)
        guard let mime = AttachmentRules.mimeType(forFileName: name) else { throw .domain("Unsupported file type") }
        let size = try describe(full).size
        guard size <= AttachmentRules.maxSizeBytes else { throw .domain("File exceeds 10MB limit") }
        guard let bytes = try POSIX.readFile(full) else { throw .io("cannot open \(full): no such file") }
        return StagedAttachment(name: name, bytes: bytes, mimeType: mime, sha256: SHA256.hex(bytes))
    }

    /// A file's name and size, for `upload-document --file`.
    static func describe(_ path: String) throws(CLIError) -> (name: String, size: Int64) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .io("cannot open \(path): \(POSIX.lastError)") }
        return (fileName(of: path), Int64(info.st_size))
    }

    static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Stores each attachment's bytes (atomically) unless the same bytes are already there.
    func save(_ attachments: [StagedAttachment]) throws(CLIError) {
        guard !attachments.isEmpty else { return }
        try POSIX.makeDirectories(folder)
        for attachment in attachments {
            let target = path(for: attachment.sha256)
            if access(target, F_OK) == 0 { continue }
            try POSIX.writeFileAtomically(target, attachment.bytes)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
