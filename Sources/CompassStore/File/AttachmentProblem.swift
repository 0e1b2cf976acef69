import CompassCore
import Foundation

/// A blob the log references that is not as the log says.
public struct AttachmentProblem: Sendable, Hashable {
    /// The interaction (or document) that references it.
    public var interactionId: String
    /// The attachment's file name.
    public var name: String
    /// The SHA-256 the log records.
    public var sha256: String
    /// Whether the blob is missing (else its bytes do not match the hash).
    public var missing: Bool
}
