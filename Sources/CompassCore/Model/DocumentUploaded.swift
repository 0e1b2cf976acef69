/// A document (transcript, highlight reel, résumé) was uploaded.
public struct DocumentUploaded: Hashable, Sendable {
    /// The document's id in the family.
    public var documentId: String
    /// The title shown.
    public var title: String
    /// The document type, a slug such as `transcript`.
    public var docType: String
    /// The uploaded file's name.
    public var fileName: String?
    /// The size in bytes.
    public var sizeBytes: Int64?

    /// SHA-256 of the document's bytes, stored beside the log like an attachment's (v3).
    public var sha256: String?

    public init(documentId: String, title: String, docType: String, fileName: String? = nil, sizeBytes: Int64? = nil,
                sha256: String? = nil) {
        self.documentId = documentId
        self.title = title
        self.docType = docType
        self.fileName = fileName
        self.sizeBytes = sizeBytes
        self.sha256 = sha256
    }
}
