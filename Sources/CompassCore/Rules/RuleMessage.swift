/// The SPEC's rule messages that more than one rule (or layer) gives, written once.
package enum RuleMessage {
    /// SPEC §2: a school that is missing or not the family's.
    package static let selectSchool = "Please select a school"
    /// SPEC §2: an interaction that is not live in the family, or not the actor's.
    package static let interactionNotFound = "Interaction not found"
    /// SPEC §2: a status outside `[a-z][a-z0-9_]{0,39}`.
    package static let invalidStatus = "Invalid status"
    /// SPEC §2.1: an attachment over 10,485,760 bytes.
    package static let fileTooLarge = "File exceeds 10MB limit"
    /// SPEC §2.1: an attachment's MIME type (or file extension) outside the listed ones.
    package static let unsupportedFileType = "Unsupported file type"
}
