import CompassCore
import Foundation

/// What `verify` found: every line's problems, the `prev` chain, the head and any snapshot.
public struct VerifyReport: Sendable, Hashable {
    /// The state of the `prev` chain.
    public enum Chain: Sendable, Hashable {
        case empty
        /// No line carries `prev`.
        case unsealed
        /// Every complete line is sealed (or the first `sealed` of `lines` are).
        case intact(sealed: Int, lines: Int)
        /// The first line whose `prev` is wrong or missing.
        case broken(atLine: Int)
    }

    /// A snapshot found beside the log, checked against the replay.
    public enum SnapshotCheck: String, Sendable, Hashable {
        /// There is none.
        case none
        /// It is what a replay of the prefix it covers would write, byte for byte.
        case verified
        /// Out of date or unreadable: removed (it would not have been used).
        case stale
        /// It matches the log's prefix but not its content: damaged or forged; removed.
        case mismatched
    }

    /// Lines read (a torn last line included).
    public var lines: Int
    /// Events applied.
    public var applied: Int
    /// The state of the `prev` chains: the first line whose link is wrong or missing, in any family.
    public var chain: Chain
    /// Every family's stream as it ends, sorted by family id: keep a head to check later that
    /// nothing of that family changed (SPEC §1.1).
    public var families: [FamilyHead]
    /// SHA-256 of `FAMILY SEQ HEAD\n` per family: keep it to check later that nothing changed.
    public var root: String
    /// Whether the expected head or root is one the log passes through, when one was given.
    public var headMatches: Bool?
    /// What was found of a snapshot beside the log.
    public var snapshot: SnapshotCheck
    /// How many problems, and the first of each family's lines.
    public var problems: ProblemSummary
    /// The line of a torn last line, if any.
    public var tornLine: Int?
    /// How many distinct attachment blobs the log references.
    public var attachmentsChecked: Int
    /// Referenced blobs that are missing or whose bytes do not match their hash.
    public var attachmentProblems: [AttachmentProblem]
    /// The erasures the log records (SPEC §5), each with whether the log proves its old head.
    public var erasures: [ErasureStep] = []
    /// Whether the log has exactly as many `Erased` records as its erasures say they erased.
    public var erasedCountsAgree = true
    /// The erasure whose proven old head is the expected head, when the expected head is not
    /// the current one: the log is that old log with only erased lines replaced since.
    public var expectedHeadProvenBy: ErasureStep?

    /// No problem, the expected head (now or proven through erasures), no mismatched snapshot,
    /// every blob whole, erased counts that agree.
    public var ok: Bool {
        problems.count == 0 && tornLine == nil && headMatches != false && snapshot != .mismatched && attachmentProblems.isEmpty
            && erasedCountsAgree
    }
}
