/// One problem found in a log: its 1-based line, the SPEC's message, what kind of problem it
/// is and the family of its line (when the line names one readably).
///
/// Two problems are equal when they have the same line, message and kind (the family follows
/// from the line).
public struct Problem: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 1-based line in the log.
    public var line: Int
    /// The SPEC's message.
    public var message: String
    /// What kind of problem it is.
    public var kind: ProblemKind
    /// The line's `family` when it is a readable id; nil for unreadable lines.
    public var family: String?

    public init(line: Int, message: String, kind: ProblemKind = .rule, family: String? = nil) {
        self.line = line
        self.message = message
        self.kind = kind
        self.family = family
    }

    public static func == (a: Problem, b: Problem) -> Bool { a.line == b.line && a.message == b.message && a.kind == b.kind }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        hasher.combine(message)
        hasher.combine(kind)
    }

    /// `LINE: message`.
    public var description: String { "\(line): \(message)" }
}
