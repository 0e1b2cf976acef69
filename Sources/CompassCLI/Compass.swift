import CompassCore
import CompassStore
import Foundation

/// The `compass` program: parses the words, runs one command, turns errors into exit codes.
public enum Compass {
    /// Runs `compass` in this process with the real environment, clock and console.
    public static func main(_ words: [String]) -> Int32 {
        let console = Console.process()
        let status = run(words, environment: ProcessInfo.processInfo.environment, console: console,
                         clock: { Timestamp(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))) },
                         makeId: { UUID().uuidString.lowercased() },
                         currentDirectory: FileManager.default.currentDirectoryPath)
        return status
    }

    /// Runs one invocation; everything outside the core is passed in.
    static func run(_ words: [String], environment: [String: String], console: Console,
                    clock: @escaping () -> Timestamp, makeId: @escaping () -> String,
                    currentDirectory: String, fileSystem: FileSystem = POSIXFileSystem(),
                    standardInput: ((_ limit: Int) -> [UInt8])? = nil) -> Int32 {
        guard let name = words.first, name != "--help", name != "-h", !(name == "help" && words.count == 1) else {
            console.out(CommandCatalog.overview(width: TextStyle.width(environment: environment, console: console)))
            return outputStatus(console, otherwise: words.isEmpty ? 2 : 0)
        }
        if name == "--version" || name == "-V" {
            console.out("compass \(CompassVersion.current)\n")
            return outputStatus(console, otherwise: 0)
        }
        if name == "help", let topic = words.dropFirst().first, !topic.hasPrefix("-") {
            guard let spec = CommandCatalog.find(topic) else { return unknownCommand(topic, console: console) }
            console.out(ArgumentParser.help(for: spec, width: TextStyle.width(environment: environment, console: console)))
            return outputStatus(console, otherwise: 0)
        }
        guard let spec = CommandCatalog.find(name) else { return unknownCommand(name, console: console) }
        do {
            let arguments: ParsedArguments
            do { arguments = try ArgumentParser.parse(Array(words.dropFirst()), spec: spec) } catch { throw error.cliError }
            if arguments.has("help") {
                console.out(ArgumentParser.help(for: spec, width: TextStyle.width(environment: environment, console: console)))
                return outputStatus(console, otherwise: 0)
            }
            var invocation = Invocation(arguments: arguments, environment: environment, console: console,
                                        clock: clock, makeId: makeId, currentDirectory: currentDirectory,
                                        fileSystem: fileSystem)
            if let standardInput { invocation.standardInput = standardInput }
            _ = try invocation.timeZone()
            try dispatch(invocation)
            console.finish()
            return outputStatus(console, otherwise: 0)
        } catch let error as CLIError {
            if let message = error.message { console.err("error: \(TerminalText.escape(message))\n") }
            if error.exitStatus == 2 { console.err("Run 'compass \(name) --help' for usage.\n") }
            return error.exitStatus
        } catch StoreError.rejectedLines(let problems) {
            // One line a problem, written as it is rendered (an import can reject millions).
            console.err("error: \(problems.count) line\(problems.count == 1 ? "" : "s") rejected; nothing was imported\n")
            var text = ""
            for problem in problems {
                text += "  line \(problem.line): \(TerminalText.escape(problem.message))\n"
                if text.utf8.count >= 1 << 16 {
                    console.err(text)
                    text = ""
                }
            }
            console.err(text)
            if name == "import", !words.contains("--restore"), problems.contains(where: { $0.kind == .erased }) {
                // A family's exported history that had an erasure: its records are restored, not imported.
                console.err("A family's history with its erasure records is put back whole with: compass import --restore FILE\n")
            }
            return 1
        } catch let error as StoreError {
            // Every store error is a domain or I/O failure: exit 1.
            console.err("error: \(TerminalText.escape(error.message))\n")
            return 1
        } catch {
            console.err("error: \(error)\n")
            return 1
        }
    }

    /// The status of a command whose work is done: 1 with `error: cannot write output: …` when
    /// standard output could not take all of it (a full disk, `/dev/full`); a closed pipe
    /// (`compass … | head`) stays quiet, as `head` users expect.
    static func outputStatus(_ console: Console, otherwise status: Int32) -> Int32 {
        console.closeOutput()
        guard let code = console.outputFailure, code != EPIPE else { return status }
        console.err("error: cannot write output: \(POSIX.message(code))\n")
        return 1
    }

    /// `error: unknown command 'X'`, with the closest commands.
    static func unknownCommand(_ name: String, console: Console) -> Int32 {
        let near = name.hasPrefix("-") ? Suggestions.closest(to: name, in: ["--version", "--help"])
                                       : Suggestions.closest(to: name, in: CommandCatalog.all.map(\.name))
        console.err("error: unknown command '\(TerminalText.escape(name))'" + (near.isEmpty ? "" : "; did you mean '\(near[0])'?") + "\n")
        console.err("Run 'compass --help' for the list of commands.\n")
        return 2
    }

    static func dispatch(_ inv: Invocation) throws {
        switch inv.arguments.command {
        case "replay": try ReplayCommand.run(inv)
        case "verify": try VerifyCommand.run(inv)
        case "generate": try GenerateCommand.run(inv)
        case "interactions": try InteractionsCommand.runList(inv)
        case "analytics": try InteractionsCommand.runAnalytics(inv)
        case "export": try InteractionsCommand.runExport(inv)
        case "show": try ShowCommand.run(inv)
        case "activity": try ActivityCommand.run(inv)
        case "follow": try FollowCommand.run(inv)
        case "audit": try AuditCommand.run(inv)
        case "import": try ImportCommand.run(inv)
        case "migrate": try MigrateCommand.run(inv)
        case "db": try DatabaseCommand.run(inv)
        case "project": try ProjectCommand.run(inv)
        case "sync": try SyncCommand.run(inv)
        case "schools", "coaches", "members", "documents": try LookupCommands.run(inv)
        case "notifications": try NotificationsCommand.run(inv)
        case "report": try ReportCommand.run(inv)
        case "erase": try EraseCommand.run(inv)
        case "attachment": try AttachmentCommand.run(inv)
        case "document": try DocumentCommand.run(inv)
        case "completions": try ShellCommands.completions(inv)
        case "man": ShellCommands.man(inv)
        case "__ids": ShellCommands.ids(inv)
        default: try AppendCommands.run(inv)
        }
    }
}
