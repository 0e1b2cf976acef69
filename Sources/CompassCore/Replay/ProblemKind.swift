/// What kind of problem a line has, so callers never compare message texts.
public enum ProblemKind: UInt8, Sendable, Hashable, CaseIterable {
    /// Blank, not JSON, or longer than ``Replayer/maxLineBytes``.
    case unreadable
    /// A last line without `\n`.
    case torn
    /// A missing or wrong-typed envelope or payload field.
    case shape
    /// A `seq` other than the previous one + 1 (the event is still applied).
    case sequence
    /// A `prev` that does not match, or is missing once the chain started (still applied).
    case chain
    case duplicate
    case unknownType
    case unsupportedVersion
    /// A rule of SPEC §2 about a value: missing, too long, not allowed, already used.
    case rule
    /// A user, or an entity of the family, that is not there (`Unknown user U`,
    /// `Interaction not found`): another family's ids are never "forbidden", only not found.
    case notFound
    /// Something the actor's role may not do (`Only players can create interactions`).
    case forbidden
    /// An `Erased` record (SPEC §5): replay skips it without a problem; appends refuse it.
    case erased
}
