/// Records an uploaded document; `documentId` defaults to the family's next `d-N`.
public struct UploadDocument: Sendable, Hashable {
    /// The title shown.
    public var title: String
    /// The document type, a slug such as `transcript`.
    public var docType: String
    /// The uploaded file's name.
    public var fileName: String?
    /// The size in bytes.
    public var sizeBytes: Int64?
    /// The document's id in the family.
    public var documentId: String?
    /// SHA-256 of the bytes (the store fills it in when it stores a file's bytes).
    public var sha256: String?

    public init(title: String, docType: String, fileName: String? = nil, sizeBytes: Int64? = nil, documentId: String? = nil,
                sha256: String? = nil) {
        self.title = title
        self.docType = docType
        self.fileName = fileName
        self.sizeBytes = sizeBytes
        self.documentId = documentId
        self.sha256 = sha256
    }
}
