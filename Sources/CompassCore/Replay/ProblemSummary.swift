/// The problems of a log in bounded memory: how many, and the first of each family's lines
/// (lines without a readable family under nil).
public struct ProblemSummary: Hashable, Sendable {
    /// How many problems one family's lines have, and the first.
    public struct Entry: Hashable, Sendable {
        /// How many.
        public var count: Int
        /// The first problem.
        public var first: Problem
    }

    /// How many.
    public private(set) var count = 0
    /// Per family id (nil: lines that name none), how many problems and the first.
    public private(set) var byFamily: [String?: Entry] = [:]

    public init() {}

    mutating func record(_ problem: Problem) {
        count += 1
        if byFamily[problem.family] == nil {
            byFamily[problem.family] = Entry(count: 1, first: problem)
        } else {
            byFamily[problem.family]!.count += 1
        }
    }

    /// Rebuilds a summary (a snapshot's).
    public init(count: Int, byFamily: [String?: Entry]) {
        self.count = count
        self.byFamily = byFamily
    }

    /// The problems a member of `family` may be told about: their family's lines and lines
    /// that name no family (which carry nothing of anyone's).
    public func visible(to family: String?) -> (count: Int, first: Problem?) {
        let own = family.flatMap { byFamily[$0] }
        let unnamed = byFamily[nil as String?]
        let firsts = [own?.first, unnamed?.first].compactMap { $0 }.sorted { $0.line < $1.line }
        return ((own?.count ?? 0) + (unnamed?.count ?? 0), firsts.first)
    }
}
