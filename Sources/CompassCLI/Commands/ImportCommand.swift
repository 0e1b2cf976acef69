import CompassCore
import CompassStore

/// `compass import FILE`: validates a JSON-lines file of events (a family's history exported
/// from the web app, say) against the rules and appends them in one locked, fsynced batch,
/// all or nothing, reporting every rejected line with its number. The file is read, decided
/// and written a block at a time (``ImportFile``), under the batch's journal.
///
/// Each line is read exactly as replay reads a log line (the same line splitter, strict
/// parser and envelope decoder), then import's defaults fill what an export may leave out:
/// `id` (a new UUID), `at` (now) and `family` (the actor's family, or the joining user's
/// new family `f-USER`); `seq` and `prev` are assigned on append. A last line without `\n`
/// is a line like the others (a file is not a log being written).
enum ImportCommand {
    static func run(_ inv: Invocation) throws {
        let given = inv.arguments.positionals[0]
        // `-` reads standard input (whole); a file is read a chunk at a time as its lines are taken.
        var stdin: [UInt8] = []
        var file: Int32?
        if given == "-" {
            stdin = inv.standardInput(Int.max - 1)
        } else {
            guard let fd = try inv.fileSystem.open(inv.resolve(given), .read) else {
                throw CLIError.io("cannot open \(TerminalText.escape(given)): no such file")
            }
            file = fd
        }
        defer { if let file { inv.fileSystem.close(file) } }
        let now = try inv.now()
        let expectVersion = try inv.arguments.value("expect-version").map { text throws in
            try inv.integer(text, option: "--expect-version", minimum: 0, maximum: Envelope.maxSeq)
        }
        let store = try inv.store(mustExist: false)
        if inv.arguments.has("restore") {
            guard expectVersion == nil else { throw CLIError.usage("--restore takes whole new families: --expect-version does not apply") }
            var bytes = stdin
            if let file { bytes = try inv.fileSystem.read(file, from: 0, to: try inv.fileSystem.size(file, path: given), path: given) }
            let summary = try store.restore(bytes, importedFile: given == "-" ? nil : inv.resolve(given))
            report(summary, verb: "restored", noun: ("line", "lines"), inv)
            return
        }
        var source = ImportFile(bytes: stdin, file: file.map { ($0, inv.resolve(given), inv.fileSystem) }, now: now, makeId: inv.makeId, store: store,
                                importedFile: given == "-" ? nil : inv.resolve(given),
                                blockLines: inv.environment["COMPASS_IMPORT_BLOCK_LINES"].flatMap { Int($0) }.map { min(max($0, 1), 1 << 20) }
                                    ?? ImportFile.defaultBlockLines)
        let (progress, meter) = inv.readProgress("reading the log before importing")
        defer { meter?.finish() }
        let summary = try store.importLines(from: &source, expectVersion: expectVersion, progress: progress)
        report(summary, verb: "imported", noun: ("event", "events"), inv)
    }

    /// What was written: how many lines, and each family's run of `seq`s (SPEC §1.1).
    static func report(_ summary: ImportSummary, verb: String, noun: (one: String, many: String), _ inv: Invocation) {
        let runs = summary.runs
        let families = runs.keys.sorted()
        if inv.json {
            var w = JSONWriter()
            w.beginObject()
            w.field(verb, summary.count)
            w.key("families")
            w.beginArray()
            for family in families {
                w.beginObject()
                w.field("family", family)
                w.field("firstSeq", runs[family]!.lowerBound)
                w.field("lastSeq", runs[family]!.upperBound)
                w.endObject()
            }
            w.endArray()
            w.endObject()
            inv.console.out(bytes: w.bytes + [0x0A])
        } else {
            var out = "\(verb) \(summary.count) \(summary.count == 1 ? noun.one : noun.many)\n"
            for family in families {
                let run = runs[family]!
                let seqs = run.lowerBound == run.upperBound ? "seq \(run.lowerBound)" : "seq \(run.lowerBound)–\(run.upperBound)"
                out += "  \(TerminalText.escape(family)): \(seqs)\n"
            }
            inv.console.out(out)
        }
    }
}
