/// One option a command accepts.
struct OptionSpec: Sendable {
    var name: String
    /// The value's placeholder (`ID`, `RFC3339`), or nil for a flag.
    var value: String?
    var help: String
    var repeatable = false
    /// The values the option accepts, when they are a listed set (checked on every command).
    var choices: [String]? = nil
    /// Words people use for a listed value, and the value they stand for (`athlete` → `player`).
    var aliases: [String: String] = [:]
    /// Whether one `--name` takes every value after it up to the next option
    /// (`--attach a.pdf b.png`); each is one more value of a repeatable option.
    var takesSeveral = false
    /// The usual values of an open set (a school's status): completed, and a value close to one
    /// of them is taken for a typo; any other value is still accepted.
    var suggestions: [String] = []
    /// A one-letter alias (`-o`).
    var short: Character? = nil
}
