/// Why a line or a proposed event was not applied, in the SPEC's words.
public struct EventError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The SPEC's message.
    public var message: String
    /// What kind of problem the line has when replay reports this error.
    public var kind: ProblemKind
    public init(_ message: String, kind: ProblemKind = .rule) {
        self.message = message
        self.kind = kind
    }
    public var description: String { message }

    static func missing(_ field: String) -> EventError { EventError("missing field \(field)", kind: .shape) }
    static func mustBe(_ field: String, _ kind: String) -> EventError { EventError("field \(field) must be \(kind)", kind: .shape) }
}
