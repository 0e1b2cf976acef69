/// The words of one invocation, sorted into options and positionals. Pure.
struct ParsedArguments: Equatable, Sendable {
    var command: String
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    /// The last value given for an option.
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value given for a repeatable option, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) }
}
