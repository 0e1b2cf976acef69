import Foundation
import CompassCore
import CompassStore

/// `interactions`, `analytics` and `export`: the list of SPEC §3.1 for one viewer.
enum InteractionsCommand {
    static func query(_ inv: Invocation) throws -> InteractionQuery {
        var query = InteractionQuery()
        query.search = inv.arguments.value("search")
        query.type = try inv.choice("type", in: InteractionType.allCases.map(\.rawValue)).flatMap(InteractionType.init)
        query.direction = try inv.choice("direction", in: Direction.allCases.map(\.rawValue)).flatMap(Direction.init)
        query.sentiment = try inv.choice("sentiment", in: Sentiment.allCases.map(\.rawValue)).flatMap(Sentiment.init)
        query.periodDays = try inv.choice("period", in: ["7", "14", "30", "90"]).flatMap { Int($0) }
        if let loggedBy = inv.arguments.value("logged-by") {
            guard loggedBy == "me" || Identifier.isValid(loggedBy) else {
                throw CLIError.usage("invalid value '\(loggedBy)' for '--logged-by' (expected a user id or me)")
            }
            query.loggedBy = loggedBy
        }
        return query
    }

    static func list(_ inv: Invocation) throws -> (ReadContext, InteractionQuery, InteractionList) {
        let query = try query(inv)
        let context = try ReadContext(inv)
        do throws(StoreError) {
            return (context, query, try context.views.interactions(query))
        } catch {
            throw viewError(error)
        }
    }

    /// A list view's error in the CLI's words: the one forbidden thing there is an athlete
    /// filtering by logger, which the CLI names by its option (SPEC §3.1).
    static func viewError(_ error: StoreError) -> Error {
        guard case .rejected(let refusal) = error else { return error }
        return refusal.kind == .forbidden ? CLIError.domain("--logged-by is available to parents only") : CLIError.domain(refusal.message)
    }

    static func runList(_ inv: Invocation) throws {
        let (context, query, list) = try list(inv)
        if inv.json {
            // `--limit` keeps the first N items; `count` and the analytics stay the filtered list's.
            var shown = list
            if let limit = try inv.limit() { shown.items = Array(list.items.prefix(limit)) }
            inv.console.out(bytes: InteractionJSON.list(shown, count: list.items.count))
        } else {
            context.show(InteractionsRendering.page(list, query: query, context: context, limit: try inv.limit()))
        }
    }

    static func runAnalytics(_ inv: Invocation) throws {
        let query = try query(inv)
        // Counts need no text unless they search in them.
        let context = try ReadContext(inv, showsTexts: !(query.search ?? "").isEmpty)
        let analytics: InteractionAnalytics
        do throws(StoreError) {
            analytics = try context.views.analytics(query)
        } catch {
            throw viewError(error)
        }
        if inv.json {
            inv.console.out(bytes: InteractionJSON.analytics(analytics))
        } else {
            context.show(InteractionsRendering.analytics(analytics, style: context.style))
        }
    }

    static func runExport(_ inv: Invocation) throws {
        if inv.arguments.has("stream") { return try runStreamExport(inv) }
        if inv.arguments.has("all-families") { throw CLIError.usage("'--all-families' goes with '--stream' (every family's lines as one log)") }
        for option in ["family", "output"] where inv.arguments.value(option) != nil {
            throw CLIError.usage("'--\(option)' goes with '--stream' (the family's lines as a log of their own)")
        }
        let (_, _, list) = try list(inv)
        if inv.json {
            inv.console.out(bytes: InteractionJSON.list(list))
        } else {
            inv.console.out(InteractionCSV.list(list.items))
        }
    }
}

extension InteractionsCommand {
    /// `export --stream`: the family's lines, byte for byte, as a log that verifies alone
    /// (SPEC §1.1): a parent's own family (`--as`), or any family for an operator (`--family F`,
    /// no viewer). To standard output, or with `-o FILE` to a new file with its blobs beside it.
    static func runStreamExport(_ inv: Invocation) throws {
        let args = inv.arguments
        for option in ["search", "type", "direction", "sentiment", "period", "logged-by", "as-of", "at-seq", "json"]
        where args.has(option) || args.value(option) != nil {
            throw CLIError.usage("'--\(option)' does not go with '--stream' (the stream is every line of the family, as it is)")
        }
        let family = args.value("family")
        if family != nil, args.value("as") != nil {
            throw CLIError.usage("'--family' and '--as' cannot be combined ('--as' exports your own family; '--family' is for an operator)")
        }
        if args.has("all-families") {
            if family != nil || args.value("as") != nil {
                throw CLIError.usage("'--all-families' exports every family; it does not go with '--family' or '--as'")
            }
            let store = try inv.store()
            if let output = args.value("output") {
                let export = try store.exportEveryFamily(to: inv.resolve(output))
                inv.console.err("exported \(export.lineCount) line\(export.lineCount == 1 ? "" : "s") of \(export.familyCount) "
                                + "famil\(export.familyCount == 1 ? "y" : "ies") to \(TerminalText.escape(output)) (root \(export.root))\n")
            } else {
                try store.exportEveryFamily { block in inv.console.out(bytes: block) }
            }
            return
        }
        let store = try inv.store()
        let export: FamilyStreamExport
        if let family {
            export = try store.exportStream(family: family)
        } else {
            export = try store.exportStream(as: try inv.viewer())
        }
        if let output = args.value("output") {
            try store.writeExport(export, to: inv.resolve(output))
            inv.console.err("exported \(export.lineCount) line\(export.lineCount == 1 ? "" : "s") of \(TerminalText.escape(export.family)) "
                            + "to \(TerminalText.escape(output)) (seq \(export.seq), head \(export.head))\n")
        } else {
            inv.console.out(bytes: export.lines)
            if !export.attachmentHashes.isEmpty {
                inv.console.err("note: \(export.attachmentHashes.count) attachment blob\(export.attachmentHashes.count == 1 ? " is" : "s are") not in this output; "
                                + "use -o FILE to copy them beside it, so the copy verifies alone\n")
            }
        }
    }
}

/// `show ID`: the detail page of SPEC §3.2, or its CSV export.
enum ShowCommand {
    static func run(_ inv: Invocation) throws {
        if inv.arguments.has("csv"), inv.json { throw CLIError.usage("'--csv' and '--json' cannot be combined (choose one output)") }
        let context = try ReadContext(inv)
        let detail: InteractionDetail
        do throws(StoreError) {
            detail = try context.views.interaction(inv.arguments.positionals[0])
        } catch {
            throw CLIError.domain(error.message)
        }
        if inv.arguments.has("csv") {
            guard detail.canExport else {
                throw CLIError.hinted("Export is available to players only",
                                      hint: "a parent exports the family's list with: compass export --as \(TerminalText.escape(context.viewer.userId)) > interactions.csv")
            }
            inv.console.out(InteractionCSV.detail(detail, zone: context.zone))
        } else if inv.json {
            inv.console.out(bytes: InteractionJSON.detail(detail))
        } else {
            context.show(InteractionsRendering.detail(detail, context: context))
        }
    }
}
