/// Parses `compass COMMAND [options]` against a command's spec.
///
/// `--name value` and `--name=value` are both accepted; `--` ends options.
/// Errors quote what the user typed: `unknown option '--verbose' for 'replay'`.
enum ArgumentParser {
    static func parse(_ words: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(command: spec.name)
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            let isShort = word.count == 2 && word.hasPrefix("-") && (word == "-h" || spec.options.contains { $0.short == word.last })
            if optionsEnded || (!word.hasPrefix("--") && !isShort) || word == "-" {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" { optionsEnded = true; continue }
            if word == "-h" { parsed.flags.insert("help"); continue }
            if word.count == 2, word.hasPrefix("-"), let option = spec.options.first(where: { $0.short == word.last }) {
                // A short alias: `-o PATH` is `--output PATH`.
                if option.value == nil { parsed.flags.insert(option.name); continue }
                guard index < words.count else { throw UsageError("missing value for '\(word)'") }
                parsed.values[option.name, default: []].append(words[index])
                index += 1
                continue
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = spec.options.first(where: { "--" + $0.name == name }) else {
                let near = Suggestions.closest(to: String(name.dropFirst(2)), in: spec.options.map(\.name)).map { "--" + $0 }
                throw UsageError("unknown option '\(TerminalText.escape(name))' for '\(spec.name)'"
                                 + (near.isEmpty ? "" : "; did you mean '\(near[0])'?"))
            }
            if option.value == nil {
                guard inlineValue == nil else { throw UsageError("option '\(name)' takes no value") }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count, !(words[index].hasPrefix("--") && words[index].count > 2) else {
                    throw UsageError("missing value for '\(name)'")
                }
                value = words[index]
                index += 1
            }
            if !option.repeatable, parsed.values[option.name] != nil {
                throw UsageError("option '\(name)' given more than once")
            }
            let canonical = option.aliases[value] ?? value
            if let choices = option.choices, !choices.contains(canonical) {
                let words = option.aliases.keys.sorted() + choices
                let near = Suggestions.closest(to: value, in: words)
                throw UsageError("invalid value '\(TerminalText.escape(value))' for '\(name)' (expected \(words.joined(separator: ", ")))"
                                 + (near.isEmpty ? "" : "; did you mean '\(near[0])'?"))
            }
            parsed.values[option.name, default: []].append(canonical)
            if option.takesSeveral, inlineValue == nil {
                while index < words.count, !words[index].hasPrefix("-") {
                    parsed.values[option.name, default: []].append(words[index])
                    index += 1
                }
            }
        }
        if !parsed.flags.contains("help") {
            if parsed.positionals.count > spec.positionals.count {
                throw UsageError("unexpected argument '\(parsed.positionals[spec.positionals.count])' for '\(spec.name)'")
            }
            if parsed.positionals.count < spec.positionals.count {
                throw UsageError("missing \(spec.positionals[parsed.positionals.count]) for '\(spec.name)'")
            }
        }
        return parsed
    }

    /// The `--help` text of a command.
    ///
    /// - Parameter width: the terminal's width in cells: the summary and each option's help are
    ///   wrapped at word boundaries to it; an example too long for it is broken between its
    ///   words with `\` continuations, so it still pastes into a shell as one command.
    static func help(for spec: CommandSpec, width: Int = 80) -> String {
        let usage = (["usage: compass", spec.name] + spec.positionals + ["[options]"]).joined(separator: " ")
        var text = TextStyle.wrap(usage, width: width).joined(separator: "\n") + "\n\n"
        text += TextStyle.wrap(spec.summary, width: width).joined(separator: "\n") + "\n\noptions:\n"
        let rows = spec.options.map { option -> (String, String) in
            var left = "--\(option.name)"
            if let value = option.value { left += " \(value)" }
            if option.repeatable { left += " …" }
            return (left, option.help)
        }
        text += table(rows, width: width)
        if !spec.examples.isEmpty {
            text += "\nexamples:\n" + spec.examples.map { example(" compass " + $0, width: width) }.joined()
        }
        return text
    }

    /// A command line indented by one more space, broken between shell words (never inside a
    /// quoted one) with ` \` at the end of each line but the last, to fit `width`.
    static func example(_ line: String, width: Int) -> String {
        var words: [String] = []
        var current = "", quote: Character?
        for character in line.dropFirst() {
            if character == " ", quote == nil {
                if !current.isEmpty { words.append(current); current = "" }
                continue
            }
            if character == "\"" || character == "'" { quote = quote == nil ? character : (quote == character ? nil : quote) }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        var lines: [String] = []
        var out = "  "
        for word in words {
            let start = out == "  " || out == "      "
            if !start, Cells.width(out) + 1 + Cells.width(word) + 2 > width {
                lines.append(out + " \\")
                out = "      "
            }
            out += (out == "  " || out == "      " ? "" : " ") + word
        }
        lines.append(out)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Two columns, indented by two: names, then their help wrapped to `width` and continued
    /// under itself; the help goes under a name too long to leave it room.
    static func table(_ rows: [(String, String)], width: Int) -> String {
        let names = min(rows.map { Cells.width($0.0) }.max() ?? 0, max(12, width / 3))
        let indent = 2 + names + 2
        var text = ""
        for (left, right) in rows {
            let room = max(20, width - indent)
            var lines = TextStyle.wrap(right, width: room)
            if Cells.width(left) > names {
                text += "  " + left + "\n"
            } else {
                text += "  " + left + String(repeating: " ", count: names - Cells.width(left) + 2) + lines.removeFirst() + "\n"
            }
            for line in lines { text += String(repeating: " ", count: indent) + line + "\n" }
        }
        return text
    }
}
