import CompassCore
import CompassStore

/// `compass attachment get ID NAME [-o PATH]`: an interaction's attachment, as the viewer can
/// see it, written under its original name (the bytes checked against their hash).
enum AttachmentCommand {
    static func run(_ inv: Invocation) throws {
        let words = inv.arguments.positionals
        guard words[0] == "get" else { throw CLIError.usage("unknown action '\(TerminalText.escape(words[0]))' for 'attachment' (expected get)") }
        let (id, name) = (words[1], words[2])
        let context = try ReadContext(inv)
        let detail: InteractionDetail
        do throws(StoreError) {
            detail = try context.views.interaction(id)
        } catch {
            throw CLIError.domain(error.message)
        }
        guard let attachment = detail.attachments.first(where: { $0.name == name }) else {
            let names = detail.attachments.map { "'\(TerminalText.escape($0.name))'" }
            throw CLIError.hinted("No attachment '\(TerminalText.escape(name))' on \(id)",
                                  hint: names.isEmpty ? "\(id) has no attachments" : "\(id) has " + names.joined(separator: ", "))
        }
        // Only the last part of a name from the log, never a path out of this folder.
        let target = inv.resolve(inv.arguments.value("output") ?? safeFileName(attachment.name))
        let store = try inv.store(snapshots: false)
        let warning = try store.copyAttachment(attachment, to: target, replacing: inv.arguments.value("output") != nil)
        inv.console.out("wrote \(TerminalText.escape(target)) (\(attachment.sizeBytes) bytes)\n")
        if let warning { inv.console.err("warning: \(TerminalText.escape(warning))\n") }
    }

    /// A file name safe to write in the current folder.
    static func safeFileName(_ name: String) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? ""
        return last.isEmpty || last == "." || last == ".." ? "attachment" : last
    }
}
