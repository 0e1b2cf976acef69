/// How much a ``Replayer`` keeps of the problems it finds (it always keeps a ``ProblemSummary``).
package enum ProblemRetention: Sendable {
    /// Every problem, in ``Replayer/problems``.
    case all
    /// The summary only: memory does not grow with the number of bad lines.
    case summary
    /// Each problem handed to a closure as it is found (a command streams them out).
    case forward(@Sendable (Problem) -> Void)
}
