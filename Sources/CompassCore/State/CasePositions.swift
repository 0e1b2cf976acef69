/// Each value's position in `allCases`, as a snapshot writes it, without searching the list
/// (a snapshot's encoding writes three such choices per interaction). CasePositionTests holds
/// every position equal to `allCases.firstIndex(of:)`.
extension InteractionType {
    var position: Int {
        switch self {
        case .email: 0
        case .phoneCall: 1
        case .text: 2
        case .inPersonVisit: 3
        case .virtualMeeting: 4
        case .camp: 5
        case .showcase: 6
        case .tweet: 7
        case .dm: 8
        }
    }
}

extension Direction {
    var position: Int { self == .outbound ? 0 : 1 }
}

extension Sentiment {
    var position: Int {
        switch self {
        case .veryPositive: 0
        case .positive: 1
        case .neutral: 2
        case .negative: 3
        }
    }
}
