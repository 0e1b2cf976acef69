import Foundation

/// The `--range` of the timeline: all, or the last 7, 30 or 90 days.
public enum ActivityRange: String, CaseIterable, Sendable {
    case all, week, month, quarter

    var days: Int64? {
        switch self {
        case .all: nil
        case .week: 7
        case .month: 30
        case .quarter: 90
        }
    }
}
