import CompassCore
import CompassStore

/// `compass db init --log postgresql://…`: creates or upgrades the store's tables (versioned,
/// idempotent); `compass db migrate` upgrades existing tables only. The address's password is
/// never printed.
enum DatabaseCommand {
    static func run(_ inv: Invocation) throws {
        let action = inv.arguments.positionals[0]
        guard action == "init" || action == "migrate" else {
            throw CLIError.usage("unknown action '\(TerminalText.escape(action))' for 'db' (expected init or migrate)")
        }
        guard CompassStore.isDatabaseAddress(inv.logPath) else {
            throw CLIError.usage("'db \(action)' needs a database: --log postgresql://USER@HOST/DB (or COMPASS_LOG)")
        }
        if action == "migrate", try CompassStore.databaseSchemaVersion(inv.logPath) == 0 {
            throw CLIError.domain("no Compass tables in \(CompassStore.displayAddress(inv.logPath)) to migrate; create them with: compass db init")
        }
        let (from, to) = try CompassStore.initializeDatabase(inv.logPath)
        inv.console.out(from == to ? "schema already at version \(to): nothing to do\n" : "schema version \(from) → \(to)\n")
        for warning in try CompassStore.databaseDurabilityWarnings(inv.logPath) {
            inv.console.err("warning: \(TerminalText.escape(warning))\n")
        }
    }
}
