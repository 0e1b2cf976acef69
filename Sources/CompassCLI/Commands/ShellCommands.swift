import CompassCore
import CompassStore

/// `compass completions bash|zsh|fish` and `compass man`: generated from the command table
/// that drives parsing and help, so they never disagree with it. Ids of the viewer's own
/// family come from the log at completion time (`compass __ids`).
enum ShellCommands {
    static var visible: [CommandSpec] { CommandCatalog.all.filter { !$0.name.hasPrefix("__") } }

    static func completions(_ inv: Invocation) throws {
        switch inv.arguments.positionals[0] {
        case "bash": inv.console.out(bash())
        case "zsh": inv.console.out("#compdef compass\n# Uses the bash completion through zsh's bashcompinit.\nautoload -U +X bashcompinit && bashcompinit\n" + bash())
        case "fish": inv.console.out(fish())
        case let other: throw CLIError.usage("invalid value '\(TerminalText.escape(other))' for SHELL (expected bash, zsh, fish)")
        }
    }

    /// The options of a command whose values are ids of the viewer's family, and the kind of id.
    /// (`--as` completes the members of the family of `$COMPASS_USER`, or of an `--as` given
    /// earlier: a completion never names another family's ids.)
    static let idOptions = ["school": "school", "coach": "coach", "as": "member", "logged-by": "member", "member": "member",
                            "document": "document", "interaction": "interaction"]

    static func bash() -> String {
        // Options whose values are ids of the viewer's family (`--logged-by` also takes `me`).
        let idCases = idOptions.keys.sorted().map { option in
            "    --\(option)) COMPREPLY=( $(compgen -W \"$(compass __ids \(idOptions[option]!) \"${ctx[@]}\" 2>/dev/null)"
                + (option == "logged-by" ? " me" : "") + "\" -- \"$cur\") ); return;;"
        }.joined(separator: "\n")
        var script = """
        # compass completion for bash: source <(compass completions bash)
        _compass() {
          local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="${COMP_WORDS[1]}"
          if [ "$COMP_CWORD" -eq 1 ]; then
            COMPREPLY=( $(compgen -W "\(visible.map(\.name).joined(separator: " ")) help" -- "$cur") ); return
          fi
          local i ctx=()
          for ((i = 2; i < ${#COMP_WORDS[@]} - 1; i++)); do
            case "${COMP_WORDS[i]}" in --as|--log|--school) ctx+=("${COMP_WORDS[i]}" "${COMP_WORDS[i+1]}");; esac
          done
          case "$prev" in
        \(idCases)
          esac
          case "$cmd:$prev" in

        """
        for spec in visible {
            for option in spec.options {
                if let choices = option.choices ?? (option.suggestions.isEmpty ? nil : option.suggestions) {
                    script += "    \(spec.name):--\(option.name)) COMPREPLY=( $(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\") ); return;;\n"
                } else if option.value != nil, idOptions[option.name] == nil {
                    script += "    \(spec.name):--\(option.name)) COMPREPLY=( $(compgen -f -- \"$cur\") ); return;;\n"
                }
            }
        }
        script += """
          esac
          if [[ "$cur" != -* ]]; then
            case "$cmd" in
              attachment) if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=( $(compgen -W "get" -- "$cur") ); return; fi
                 COMPREPLY=( $(compgen -W "$(compass __ids interaction "${ctx[@]}" 2>/dev/null)" -- "$cur") ); return;;
              show|delete-interaction) COMPREPLY=( $(compgen -W "$(compass __ids interaction "${ctx[@]}" 2>/dev/null)" -- "$cur") ); return;;
              help) COMPREPLY=( $(compgen -W "\(visible.map(\.name).joined(separator: " "))" -- "$cur") ); return;;
              completions) COMPREPLY=( $(compgen -W "bash zsh fish" -- "$cur") ); return;;
              import) COMPREPLY=( $(compgen -f -- "$cur") ); return;;
            esac
          fi
          local opts=""
          case "$cmd" in

        """
        for spec in visible {
            script += "    \(spec.name)) opts=\"\(spec.options.map { "--" + $0.name }.joined(separator: " "))\";;\n"
        }
        script += """
          esac
          COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
        }
        complete -F _compass compass

        """
        return script
    }

    static func fish() -> String {
        var script = "# compass completion for fish: compass completions fish | source\ncomplete -c compass -f\n"
        for spec in visible {
            script += "complete -c compass -n '__fish_use_subcommand' -a \(spec.name) -d \(quoted(spec.summary))\n"
            for option in spec.options {
                var line = "complete -c compass -n '__fish_seen_subcommand_from \(spec.name)' -l \(option.name) -d \(quoted(option.help))"
                if let choices = option.choices ?? (option.suggestions.isEmpty ? nil : option.suggestions) { line += " -r -a \(quoted(choices.joined(separator: " ")))" }
                if let kind = idOptions[option.name] { line += " -r -a '(compass __ids \(kind) 2>/dev/null)'" }
                script += line + "\n"
            }
        }
        return script
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'" }

    /// `compass man`: a man page in roff.
    static func man(_ inv: Invocation) {
        func roff(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        }
        var page = ".TH COMPASS 1 \"\" \"compass \(CompassVersion.current)\" \"User Commands\"\n"
        page += ".SH NAME\ncompass \\- an event-sourced log of a family's college recruiting\n"
        page += ".SH SYNOPSIS\n.B compass\n.I COMMAND\n[\\fIoptions\\fR]\n"
        page += ".SH DESCRIPTION\nEvery action of a recruiting family is appended as one event to a JSON\\-lines log; every view is rebuilt by replaying it.\n"
        page += ".SH COMMANDS\n"
        for spec in visible {
            page += ".SS \(roff(spec.name))\(spec.positionals.map { " " + $0 }.joined())\n\(roff(spec.summary))\n"
            for option in spec.options {
                page += ".TP\n.B \\-\\-\(roff(option.name))\(option.value.map { " \\fI\(roff($0))\\fR" } ?? "")\n\(roff(option.help))\n"
            }
            for example in spec.examples { page += ".PP\n.nf\ncompass \(roff(example))\n.fi\n" }
        }
        page += ".SH ENVIRONMENT\n.TP\n.B COMPASS_LOG\nthe log (default ./events.jsonl)\n.TP\n.B COMPASS_USER\nthe viewer or actor\n"
        page += ".TP\n.B COMPASS_TZ, TZ\nthe time zone\n.TP\n.B NO_COLOR\nno colour when set to anything\n"
        page += ".SH EXIT STATUS\n0 success; 1 a domain error or a log with problems; 2 a usage error; 128+N stopped by signal N.\n"
        inv.console.out(page)
    }

    /// `compass __ids school|coach|interaction|member|document`: the ids of the viewer's own
    /// family, one a line (nothing when there is no viewer or log, or for a kind it does not
    /// know: completion must never fail loudly).
    static func ids(_ inv: Invocation) {
        guard let context = try? ReadContext(inv), let family = context.state.family(of: context.viewer.userId) else { return }
        var ids: [String] = []
        switch inv.arguments.positionals[0] {
        case "school": ids = Array(family.schools.keys)
        case "coach":
            // After `--school S`, that school's coaches.
            let school = inv.arguments.value("school")
            ids = Array(family.coaches.keys).filter { id in school == nil || family.coaches[id]?.schoolId == school }
        case "interaction": family.forEachVisibleInteraction(to: context.viewer) { ids.append($0.logged.interactionId) }
        case "member", "user": ids = family.memberIds
        case "document": ids = context.views.documents().map(\.documentId)
        default: return
        }
        inv.console.out(ids.sorted().map { $0 + "\n" }.joined())
    }
}
