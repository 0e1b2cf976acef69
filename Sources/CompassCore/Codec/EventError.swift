/// Why a line or a proposed event was not applied, in the SPEC's words.
public struct EventError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The SPEC's message.
    public var message: String
    /// What kind of problem the line has when replay reports this error.
    public var kind: ProblemKind
    /// For a reference that does not resolve in the family: the field that names it
    /// (`schoolId`, `coachId`, `interactionId`) and the id given, so an app can point at the
    /// field without reading the message.
    public var field: String?
    public var value: String?

    public init(_ message: String, kind: ProblemKind = .rule, field: String? = nil, value: String? = nil) {
        self.message = message
        self.kind = kind
        self.field = field
        self.value = value
    }
    public var description: String { message }

    /// Equal when the message and the kind are (the field and id are context).
    public static func == (a: EventError, b: EventError) -> Bool { a.message == b.message && a.kind == b.kind }

    static func missing(_ field: String) -> EventError { EventError("missing field \(field)", kind: .shape) }
    static func mustBe(_ field: String, _ kind: String) -> EventError { EventError("field \(field) must be \(kind)", kind: .shape) }
}

#if canImport(Foundation)
import Foundation

extension EventError: LocalizedError {
    /// The SPEC's message, as `localizedDescription` shows it.
    public var errorDescription: String? { message }
}
#endif
