/// A person joined a family as an athlete (`player`) or a parent.
public struct MemberJoined: Hashable, Sendable {
    /// The user id.
    public var userId: String
    /// The member's full name.
    public var fullName: String
    /// The role.
    public var role: MemberRole

    public init(userId: String, fullName: String, role: MemberRole) {
        self.userId = userId
        self.fullName = fullName
        self.role = role
    }
}

/// A school was added to the family's list.
public struct SchoolAdded: Hashable, Sendable {
    /// The school's id in the family.
    public var schoolId: String
    /// The name shown to people.
    public var name: String
    /// The status, a slug such as `interested`.
    public var status: String?

    public init(schoolId: String, name: String, status: String? = nil) {
        self.schoolId = schoolId
        self.name = name
        self.status = status
    }
}

/// A coach of one of the family's schools was added.
public struct CoachAdded: Hashable, Sendable {
    /// The coach's id in the family.
    public var coachId: String
    /// The school's id in the family.
    public var schoolId: String
    /// The coach's first name.
    public var firstName: String
    /// The coach's last name.
    public var lastName: String
    /// The role.
    public var role: CoachRole

    public init(coachId: String, schoolId: String, firstName: String, lastName: String, role: CoachRole) {
        self.coachId = coachId
        self.schoolId = schoolId
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
    }
}

/// A school's recruiting status changed (`interested` → `offer_received`).
public struct SchoolStatusChanged: Hashable, Sendable {
    /// The school's id in the family.
    public var schoolId: String
    /// The new status, a slug such as `offer_received`.
    public var newStatus: String
    /// Free notes, or nil.
    public var notes: String?

    public init(schoolId: String, newStatus: String, notes: String? = nil) {
        self.schoolId = schoolId
        self.newStatus = newStatus
        self.notes = notes
    }
}

/// A member turned their inbound-contact alerts on or off (SPEC §3.5), from this line on.
public struct NotificationSettingsChanged: Hashable, Sendable {
    /// Whether the member is alerted of inbound interactions.
    public var inboundAlerts: Bool

    public init(inboundAlerts: Bool) { self.inboundAlerts = inboundAlerts }
}

/// A member marked their notifications read up to a line (SPEC §3.5).
public struct NotificationsRead: Hashable, Sendable {
    /// Notifications of interactions with `seq` ≤ this are read.
    public var upToSeq: Int64

    public init(upToSeq: Int64) { self.upToSeq = upToSeq }
}

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

/// An erasure rewrote the log (SPEC §5): what the log was before it, and nothing personal.
///
/// Written by `erase` with actor `-`, after the erased lines were replaced by `Erased`
/// records; applied without a membership check.
public struct ErasureRecorded: Hashable, Sendable {
    /// SHA-256 of the last line before the erasure (of the empty string for an empty log).
    public var oldHead: String
    /// How many lines the log had before the erasure.
    public var oldLines: Int64
    /// How many lines the erasure replaced by `Erased` records.
    public var erased: Int64
    /// What was erased: one member's data or a whole family's.
    public var scope: ErasureScope
    /// The family `seq`s of the lines this erasure replaced by `Erased` records, ascending
    /// (`data.erasedSeqs`): which records are this erasure's when erasures interleave. Nil in
    /// records written before the field existed (their records are counted in file order).
    public var erasedSeqs: [Int64]?

    public init(oldHead: String, oldLines: Int64, erased: Int64, scope: ErasureScope, erasedSeqs: [Int64]? = nil) {
        self.oldHead = oldHead
        self.oldLines = oldLines
        self.erased = erased
        self.scope = scope
        self.erasedSeqs = erasedSeqs
    }
}

/// What an erasure forgets (SPEC §5).
public enum ErasureScope: String, CaseIterable, Hashable, Sendable {
    /// One member: their lines, their `MemberJoined` and what depends on what they created.
    case member
    /// Every line of a family.
    case family
}
