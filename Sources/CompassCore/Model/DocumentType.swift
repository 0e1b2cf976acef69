/// A document's type: the types this build names (the generator's), any other slug kept as ``unknown(_:)``.
public enum DocumentType: OpenVocabulary {
    case transcript, highlightReel, resume, testScores, medical
    /// A type this build does not name: its slug.
    case unknown(String)

    /// The types this build names.
    public static let known: [DocumentType] = [.transcript, .highlightReel, .resume, .testScores, .medical]

    /// The slug stored in the log.
    public var rawValue: String {
        switch self {
        case .transcript: "transcript"
        case .highlightReel: "highlight_reel"
        case .resume: "resume"
        case .testScores: "test_scores"
        case .medical: "medical"
        case .unknown(let slug): slug
        }
    }
}

extension UploadDocument {
    /// A document of a typed type.
    public init(title: String, type: DocumentType, fileName: String? = nil, sizeBytes: Int64? = nil, documentId: String? = nil) {
        self.init(title: title, docType: type.rawValue, fileName: fileName, sizeBytes: sizeBytes, documentId: documentId)
    }
}

extension DocumentItem {
    /// ``docType``, typed.
    public var documentType: DocumentType { DocumentType(slug: docType) }
}

extension DocumentUploaded {
    /// ``docType``, typed.
    public var documentType: DocumentType { DocumentType(slug: docType) }
}
