import CompassCore
import CompassStore

/// Why a command failed, and so its exit status.
package enum CLIError: Error, Equatable {
    /// Validation, not found, forbidden or conflict: exit 1.
    case domain(String)
    /// Bad words typed: exit 2.
    case usage(String)
    /// The file system refused: exit 1.
    case io(String)
    /// The output was already printed; just exit 1 (a log with problems).
    case silentFailure
    /// A batch with rejected lines: each is reported, nothing was written (exit 1).
    case rejectedLines([Problem])
    /// A domain error and a `hint:` line naming what was given and what would be valid.
    case hinted(String, hint: String)
    /// Stopped by a signal: exit 128 + its number (130 for Ctrl-C), nothing printed.
    case interrupted(Int32)

    package var exitStatus: Int32 {
        switch self {
        case .usage: 2
        case .domain, .io, .silentFailure, .rejectedLines, .hinted: 1
        case .interrupted(let signal): 128 + signal
        }
    }

    package var message: String? {
        switch self {
        case .domain(let text), .usage(let text), .io(let text): text
        case .hinted(let text, let hint): text + "\nhint: " + hint
        case .silentFailure, .interrupted: nil
        case .rejectedLines(let problems):
            "\(problems.count) line\(problems.count == 1 ? "" : "s") rejected; nothing was imported\n"
                + problems.map { "  line \($0.line): \($0.message)" }.joined(separator: "\n")
        }
    }
}

extension UsageError {
    var cliError: CLIError { .usage(message) }
}
