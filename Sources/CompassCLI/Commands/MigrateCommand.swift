import CompassCore
import CompassStore

/// `compass migrate OLD NEW` (SPEC §1.1): a v2 log rewritten as v3 into a new file. Prints
/// the v2 head it read and the v3 root it wrote; a v2 log that does not verify is refused
/// with its problems, and nothing is written.
enum MigrateCommand {
    static func run(_ inv: Invocation) throws {
        let (old, new) = (inv.arguments.positionals[0], inv.arguments.positionals[1])
        let migration = try CompassStore.migrate(from: inv.resolve(old), to: inv.resolve(new), fileSystem: inv.fileSystem)
        switch migration {
        case .alreadyStreams:
            throw CLIError.domain("\(old) is already a v3 log (each family its own stream); nothing to migrate")
        case .refused(let problems):
            var text = "error: \(TerminalText.escape(old)) does not verify as a v2 log; nothing was written\n"
            for problem in problems {
                text += problem.line > 0 ? "  \(problem.line): \(TerminalText.escape(problem.message))\n" : "  \(TerminalText.escape(problem.message))\n"
            }
            inv.console.err(text)
            throw CLIError.silentFailure
        case .written(let oldHead, let root, let lines, let families, let blobs):
            if inv.json {
                var w = JSONWriter()
                w.beginObject()
                w.field("lines", lines)
                w.field("families", families)
                w.field("oldHead", oldHead)
                w.field("root", root)
                w.field("attachments", blobs)
                w.endObject()
                inv.console.out(bytes: w.bytes + [0x0A])
            } else {
                inv.console.out("migrated \(lines) line\(lines == 1 ? "" : "s") of \(families) famil\(families == 1 ? "y" : "ies") into "
                                + "\(TerminalText.escape(new))\nv2 head read: \(oldHead)\nv3 root written: \(root)\n"
                                + (blobs > 0 ? "attachments copied: \(blobs)\n" : ""))
            }
        }
    }
}
