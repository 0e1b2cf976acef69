/// A person joined a family as an athlete (`player`) or a parent.
public struct MemberJoined: Hashable, Sendable {
    public var userId: String
    public var fullName: String
    public var role: MemberRole

    public init(userId: String, fullName: String, role: MemberRole) {
        self.userId = userId
        self.fullName = fullName
        self.role = role
    }
}

/// A school was added to the family's list.
public struct SchoolAdded: Hashable, Sendable {
    public var schoolId: String
    public var name: String
    public var status: String?

    public init(schoolId: String, name: String, status: String? = nil) {
        self.schoolId = schoolId
        self.name = name
        self.status = status
    }
}

/// A coach of one of the family's schools was added.
public struct CoachAdded: Hashable, Sendable {
    public var coachId: String
    public var schoolId: String
    public var firstName: String
    public var lastName: String
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
    public var schoolId: String
    public var newStatus: String
    public var notes: String?

    public init(schoolId: String, newStatus: String, notes: String? = nil) {
        self.schoolId = schoolId
        self.newStatus = newStatus
        self.notes = notes
    }
}

/// A document (transcript, highlight reel, résumé) was uploaded.
public struct DocumentUploaded: Hashable, Sendable {
    public var documentId: String
    public var title: String
    public var docType: String
    public var fileName: String?
    public var sizeBytes: Int64?

    public init(documentId: String, title: String, docType: String, fileName: String? = nil, sizeBytes: Int64? = nil) {
        self.documentId = documentId
        self.title = title
        self.docType = docType
        self.fileName = fileName
        self.sizeBytes = sizeBytes
    }
}
