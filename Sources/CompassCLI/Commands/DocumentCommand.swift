import CompassCore
import CompassStore

/// `compass document get ID [-o PATH]`: a document's stored bytes (uploaded with `--file`), as
/// the viewer can see it (SPEC §3.4: a player their own), written under its file name and
/// checked against their hash.
enum DocumentCommand {
    static func run(_ inv: Invocation) throws {
        let words = inv.arguments.positionals
        guard words[0] == "get" else { throw CLIError.usage("unknown action '\(TerminalText.escape(words[0]))' for 'document' (expected get)") }
        let id = words[1]
        let context = try ReadContext(inv)
        let visible = context.views.documents()
        guard let document = visible.first(where: { $0.documentId == id }) else {
            throw CLIError.hinted("Document not found", hint: visible.isEmpty ? "you can see no documents"
                                  : "documents you can see: " + visible.prefix(8).map(\.documentId).joined(separator: ", "))
        }
        guard let sha256 = document.sha256, let size = document.sizeBytes else {
            throw CLIError.domain("\(id) has no stored bytes (it was recorded without --file)")
        }
        let name = AttachmentCommand.safeFileName(document.fileName ?? id)
        let target = inv.resolve(inv.arguments.value("output") ?? name)
        let store = try inv.store(snapshots: false)
        let bytes = Attachment(name: document.fileName ?? id, sizeBytes: size, mimeType: "", sha256: sha256)
        let warning = try store.copyAttachment(bytes, to: target, replacing: inv.arguments.value("output") != nil)
        inv.console.out("wrote \(TerminalText.escape(target)) (\(size) bytes)\n")
        if let warning { inv.console.err("warning: \(TerminalText.escape(warning))\n") }
    }
}
