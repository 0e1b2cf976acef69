import CompassCore
import CompassStore
import Foundation

/// `compass sync --log LOCAL --remote URL|PATH --as USER` (SPEC §7): a device's store and the
/// family's canonical one, through the store library's ``CompassStore/sync(with:as:)``.
enum SyncCommand {
    static func run(_ inv: Invocation) throws {
        let user = try inv.viewer()
        guard let given = inv.arguments.value("remote") else {
            throw CLIError.usage("missing '--remote URL|PATH': the family's store to sync with")
        }
        let remotePath = CompassStore.isDatabaseAddress(given) ? given : inv.resolve(given)
        let remote: CompassStore
        do {
            remote = try CompassStore(path: remotePath, createIfMissing: false)
        } catch .noLog {
            throw CLIError.domain("no log at \(TerminalText.escape(CompassStore.displayAddress(given))) to sync with")
        }
        let local = try inv.store(mustExist: false)
        let report = try local.sync(with: remote, as: user)
        for refusal in report.refused {
            inv.console.out("refused \(TerminalText.escape(refusal.eventId)): \(TerminalText.escape(refusal.message))\n")
        }
        if report.cloned {
            inv.console.out("cloned family \(TerminalText.escape(report.family)) into \(TerminalText.escape(inv.logPathForDisplay))\n")
        }
        inv.console.out("pushed \(report.pushed), pulled \(report.pulled), refused \(report.refused.count)\nhead \(report.head)\n")
        if !report.refused.isEmpty { throw CLIError.silentFailure }
    }
}
