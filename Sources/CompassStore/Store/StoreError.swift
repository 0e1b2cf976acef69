import CompassCore
import Foundation

/// Why a store operation failed, matchable by kind (never compare the message text).
///
/// ```swift
/// do {
///     try store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
/// } catch .rejected(let error) {
///     show(error.message)          // the SPEC's rule message, e.g. "School name is required"
/// } catch .conflict {
///     reload()
/// } catch {
///     report(error)
/// }
/// ```
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The rules refused the event; its message is the SPEC's, its kind says which rule.
    case rejected(EventError)
    /// A batch with refused lines, each with its line number and message; nothing was written.
    case rejectedLines([Problem])
    /// The family is not at the version the append expected (`expectVersion`): `current` is
    /// its version now, so a retry loop reloads from there without parsing anything.
    case staleVersion(family: String, expected: Int64, current: Int64)
    /// The idempotency key names an event already in the log with different content.
    case keyReused(eventId: String)
    /// Another conflict: a file that must not exist does, a family that kept changing, an
    /// expected version for a batch of several families.
    case conflict(String)
    /// There is no log at the path (reads never create one).
    case noLog(path: String)
    /// The file system refused; `path` is the file or folder concerned.
    case io(path: String, message: String)
    /// The log was written as SPEC v2, one `prev` chain for all families: `compass migrate`
    /// converts it; nothing else reads or writes it.
    case oneChainLog(path: String)
    /// The task awaiting an ``AsyncCompassStore`` call was cancelled before the call started:
    /// nothing was read or written.
    case cancelled

    /// A sentence for a person.
    public var message: String {
        switch self {
        case .rejected(let error): error.message
        case .rejectedLines(let problems):
            "\(problems.count) line\(problems.count == 1 ? "" : "s") rejected; nothing was imported\n"
                + problems.map { "  line \($0.line): \($0.message)" }.joined(separator: "\n")
        case .staleVersion(let family, let expected, let current):
            "Conflict: expected version \(expected) of family \(family), but it is \(current)"
        case .keyReused(let eventId): "Conflict: event \(eventId) is already in the log with different content"
        case .conflict(let text): text
        case .noLog(let path): "no log at \(path)"
        case .io(_, let text): text
        case .oneChainLog(let path): "this log uses one chain for all families (v2); run 'compass migrate \(path) NEW'"
        case .cancelled: "cancelled before it started; nothing was read or written"
        }
    }

    public var description: String { message }

    /// The message, for `localizedDescription` and alerts.
    public var errorDescription: String? { message }
}
