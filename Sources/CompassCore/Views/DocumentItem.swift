/// An uploaded document the viewer can see (SPEC §3.4).
public struct DocumentItem: Hashable, Sendable, Codable, Identifiable {
    /// The document's id in the family.
    public var documentId: String
    /// The title.
    public var title: String
    /// The document type, a slug such as `transcript`.
    public var docType: String
    /// `Transcript`, `Highlight reel`.
    public var docTypeName: String
    /// The uploaded file's name.
    public var fileName: String?
    /// The size in bytes.
    public var sizeBytes: Int64?
    /// Who uploaded it.
    public var uploadedBy: String
    /// `You` for the viewer, else the member's name, else `Unknown`.
    public var uploadedByName: String
    /// When it was uploaded.
    public var uploadedAt: Timestamp
    /// SHA-256 of its stored bytes, when it was uploaded with its file (v3; not in the JSON of §3.4).
    public var sha256: String? = nil

    public var id: String { documentId }
}
