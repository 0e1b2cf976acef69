import CompassCore
import CompassStore
import Foundation

/// `compass project --to URL`: keeps the read models as tables in a PostgreSQL database
/// (SPEC §6) through the store library's ``Projector``. With `--once` one pass and a
/// summary; without, a pass after every change until interrupted; `--check` compares the
/// tables with a fresh fold and names the families that differ.
enum ProjectCommand {
    static func run(_ inv: Invocation) throws {
        guard let address = inv.arguments.value("to") else {
            throw CLIError.usage("missing '--to postgresql://USER@HOST/DB': the database to keep the views in")
        }
        guard CompassStore.isDatabaseAddress(address) else {
            throw CLIError.usage("invalid value '\(TerminalText.escape(address))' for '--to' (expected a postgresql:// address)")
        }
        let check = inv.arguments.has("check")
        if check, inv.arguments.has("rebuild") || inv.arguments.has("once") {
            throw CLIError.usage("'--check' compares only: it takes neither '--rebuild' nor '--once'")
        }
        // A pass that runs once may leave a snapshot for the next command (written after its
        // output); one that runs until interrupted writes none (its deferred writes would pile up).
        let store = try inv.store(snapshots: inv.arguments.has("once"))
        let projector = try Projector(source: store, target: address)
        let shown = TerminalText.escape(CompassStore.displayAddress(address))
        if check {
            let differing = try projector.check()
            if differing.isEmpty {
                inv.console.out("the tables at \(shown) match the log\n")
                return
            }
            for family in differing { inv.console.out("family \(TerminalText.escape(family)) differs\n") }
            throw CLIError.silentFailure
        }
        if inv.arguments.has("once") {
            let summary = try projector.project(rebuild: inv.arguments.has("rebuild"))
            inv.console.out(line(summary))
            return
        }
        Interruption.install()
        // Woken by the store's change signal (inotify, NOTIFY); each pass reads the store itself.
        let feed = try store.feed()
        var rebuild = inv.arguments.has("rebuild")
        var retry = ConnectionRetry(inv)
        while !Interruption.requested {
            let summary: ProjectionSummary
            do {
                summary = try projector.project(rebuild: rebuild)
                retry.succeeded()
            } catch {
                // A database that went away (the source's or the target's) is waited for; the
                // pass that failed is rolled back and the next goes on from the checkpoints.
                try retry.failed(error)
                continue
            }
            rebuild = false
            if summary.families > 0 || summary.rebuilt { inv.console.out(line(summary)) }
            Interruption.wait(for: feed, milliseconds: 1000)
        }
        throw Interruption.error
    }

    /// `projected N lines of F families`.
    static func line(_ summary: ProjectionSummary) -> String {
        "projected \(summary.lines) line\(summary.lines == 1 ? "" : "s") of \(summary.families) famil\(summary.families == 1 ? "y" : "ies")"
            + (summary.rebuilt ? " (tables rebuilt)" : "") + "\n"
    }
}
