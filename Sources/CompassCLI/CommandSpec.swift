/// A command's name, what it does, and what it accepts.
struct CommandSpec: Sendable {
    var name: String
    var summary: String
    /// Positional arguments (`ID`, `FILE`), all required.
    var positionals: [String] = []
    var options: [OptionSpec]
    /// Command lines shown under `examples:` in the help.
    var examples: [String] = []
}
