/// The MIME types an attachment may have (SPEC §2.1).
public enum AttachmentRules {
    /// The largest attachment, 10 MB (SPEC §2.1).
    public static let maxSizeBytes: Int64 = 10_485_760

    /// The MIME types an attachment may have (SPEC §2.1).
    public static let allowedMimeTypes: Set<String> = [
        "application/pdf", "image/jpeg", "image/png", "image/gif", "text/plain", "application/msword",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ]

    /// The MIME type for a file name's lower-cased extension, or nil when unsupported.
    public static func mimeType(forFileName name: String) -> String? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "pdf": return "application/pdf"
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "txt": return "text/plain"
        case "doc": return "application/msword"
        case "docx": return "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        default: return nil
        }
    }
}
