/// A school's recruiting status: the statuses this build names (the samples' and the generator's), any other slug the SPEC's
/// pattern allows (`[a-z][a-z0-9_]{0,39}`) kept as ``unknown(_:)`` (a log written by a newer
/// app, a status a family typed), so nothing read is lost or refused for being new.
public enum SchoolStatus: OpenVocabulary {
    case interested, contacted, visitScheduled, offerReceived, committed, notInterested
    /// A status this build does not name: its slug.
    case unknown(String)

    /// The statuses this build names, in the order of a recruitment.
    public static let known: [SchoolStatus] = [.interested, .contacted, .visitScheduled, .offerReceived, .committed, .notInterested]

    /// The slug stored in the log.
    public var rawValue: String {
        switch self {
        case .interested: "interested"
        case .contacted: "contacted"
        case .visitScheduled: "visit_scheduled"
        case .offerReceived: "offer_received"
        case .committed: "committed"
        case .notInterested: "not_interested"
        case .unknown(let slug): slug
        }
    }
}

extension AddSchool {
    /// A school added with a typed status.
    public init(name: String, schoolId: String? = nil, status: SchoolStatus) {
        self.init(name: name, schoolId: schoolId, status: status.rawValue)
    }
}

extension ChangeStatus {
    /// A status change to a typed status.
    public init(schoolId: String, status: SchoolStatus, notes: String? = nil) {
        self.init(schoolId: schoolId, newStatus: status.rawValue, notes: notes)
    }
}

extension SchoolItem {
    /// ``status``, typed.
    public var schoolStatus: SchoolStatus? { status.map(SchoolStatus.init(slug:)) }
}

extension SchoolAdded {
    /// ``status``, typed.
    public var schoolStatus: SchoolStatus? { status.map(SchoolStatus.init(slug:)) }
}

extension SchoolStatusChanged {
    /// ``newStatus``, typed.
    public var schoolStatus: SchoolStatus { SchoolStatus(slug: newStatus) }
}
