import Foundation

/// The kind of a timeline item.
public enum ActivityType: String, CaseIterable, Sendable {
    case interaction
    case schoolStatusChange = "school_status_change"
    case documentUpload = "document_upload"
}
