import CompassCore
import CompassStore

/// `compass db init --log postgresql://…`: creates or upgrades the store's tables (versioned,
/// idempotent). The address's password is never printed.
enum DatabaseCommand {
    static func run(_ inv: Invocation) throws {
        guard inv.arguments.positionals[0] == "init" else {
            throw CLIError.usage("unknown action '\(TerminalText.escape(inv.arguments.positionals[0]))' for 'db' (expected init)")
        }
        guard CompassStore.isDatabaseAddress(inv.logPath) else {
            throw CLIError.usage("'db init' needs a database: --log postgresql://USER@HOST/DB (or COMPASS_LOG)")
        }
        let (from, to) = try CompassStore.initializeDatabase(inv.logPath)
        inv.console.out(from == to ? "schema already at version \(to): nothing to do\n" : "schema version \(from) → \(to)\n")
    }
}
