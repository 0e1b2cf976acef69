import CompassCore

/// Every `compass` command and the options it accepts: the one table that drives parsing,
/// listed values, help and examples.
enum CommandCatalog {
    static let log = OptionSpec(name: "log", value: "PATH", help: "the event log (default $COMPASS_LOG, else ./events.jsonl)")
    static let viewer = OptionSpec(name: "as", value: "USER", help: "who is acting or viewing (default $COMPASS_USER)")
    static let now = OptionSpec(name: "now", value: "RFC3339", help: "the clock (default: the real clock)")
    static let tz = OptionSpec(name: "tz", value: "IANA", help: "time zone for dates people read and type (default $COMPASS_TZ, else $TZ, else UTC)")
    static let json = OptionSpec(name: "json", value: nil, help: "machine output: one JSON document on stdout")
    static let help = OptionSpec(name: "help", value: nil, help: "show this help (also -h)")
    static let color = OptionSpec(name: "color", value: "WHEN", help: "colour: auto (a terminal without NO_COLOR or TERM=dumb), always, never",
                                  choices: ["auto", "always", "never"])
    static func limit(_ what: String) -> OptionSpec { OptionSpec(name: "limit", value: "N", help: "show at most N \(what)") }

    /// What a read command takes: the log, the viewer, the clock, the zone, JSON, colour.
    static let reading: [OptionSpec] = [log, viewer, now, tz, json, color]
    /// What an append takes.
    static let writing: [OptionSpec] = [log, viewer, now, tz, json]

    /// A school's statuses as the web app and this tool name them (SPEC §2: any slug is valid;
    /// these are completed, and a typo close to one of them is refused).
    static let statuses = [
        "researching", "contacted", "interested", "camp_invite", "official_visit_invited", "official_visit_scheduled",
        "visit_scheduled", "visiting", "offer_received", "recruited", "committed", "declined", "not_pursuing", "not_interested",
    ]

    static let timeTravel: [OptionSpec] = [
        OptionSpec(name: "as-of", value: "TIME", help: "replay only events recorded at or before this time (RFC 3339 or YYYY-MM-DD)"),
        OptionSpec(name: "at-seq", value: "N", help: "replay each family's events with seq ≤ N"),
    ]

    static let append: [OptionSpec] = [
        OptionSpec(name: "event-id", value: "ID", help: "event id for an idempotent retry"),
        OptionSpec(name: "expect-version", value: "N", help: "fail with a conflict unless your family's last seq is N"),
    ]

    static let interactionTypes = InteractionType.allCases.map(\.rawValue)
    static let directions = Direction.allCases.map(\.rawValue)
    static let sentiments = Sentiment.allCases.map(\.rawValue)

    static let listFilters: [OptionSpec] = [
        OptionSpec(name: "search", value: "Q", help: "subject or content contains Q (case-insensitive)"),
        OptionSpec(name: "type", value: "TYPE", help: interactionTypes.joined(separator: "|"), choices: interactionTypes),
        OptionSpec(name: "direction", value: "D", help: "outbound|inbound", choices: directions),
        OptionSpec(name: "sentiment", value: "S", help: sentiments.joined(separator: "|"), choices: sentiments),
        OptionSpec(name: "period", value: "DAYS", help: "7|14|30|90: only the last N days", choices: ["7", "14", "30", "90"]),
        OptionSpec(name: "logged-by", value: "USER|me", help: "parents only: who logged it"),
    ]

    static func spec(_ name: String, _ summary: String, positionals: [String] = [], _ options: [OptionSpec],
                     examples: [String] = []) -> CommandSpec {
        CommandSpec(name: name, summary: summary, positionals: positionals, options: options + [help], examples: examples)
    }

    static let all: [CommandSpec] = [
        spec("replay", "Replay the log: counts by type, members, live interactions and every problem.", [log, json] + timeTravel,
             examples: ["replay --log events.jsonl", "replay --json --at-seq 40"]),
        spec("interactions", "The interactions list with analytics, for one viewer.", reading + listFilters + timeTravel + [limit("interactions")],
             examples: ["interactions --as u-maya --period 14", "interactions --as u-pat --logged-by u-leo --search camp --json"]),
        spec("analytics", "Total, outbound, inbound and this week's interactions, with the list's filters.", reading + listFilters + timeTravel,
             examples: ["analytics --as u-pat --direction inbound --json"]),
        spec("show", "One interaction's detail page.", positionals: ["ID"], reading + [
            OptionSpec(name: "csv", value: nil, help: "the CSV export (athletes only)"),
        ] + timeTravel, examples: ["show i-41 --as u-maya", "show i-41 --as u-maya --csv > i-41.csv"]),
        spec("export", "The filtered list as CSV (or --json); with --stream, the family's lines as a log of their own.",
             [log, viewer, now, tz, json] + listFilters + timeTravel + [
                OptionSpec(name: "stream", value: nil, help: "the family's lines, byte for byte: a log that verifies alone (parents)"),
                OptionSpec(name: "family", value: "F", help: "with --stream and no --as: this family (an operator)"),
                OptionSpec(name: "all-families", value: nil, help: "with --stream and no --as: every family, as one log (an operator)"),
                OptionSpec(name: "output", value: "PATH", help: "with --stream: write a new file, its attachments beside it", short: "o"),
             ], examples: ["export --as u-pat --type email > emails.csv", "export --stream --as u-pat -o lopez.jsonl"]),
        spec("activity", "The activity timeline: interactions, status changes and documents.", reading + [
            OptionSpec(name: "type", value: "T", help: "interaction|school_status_change|document_upload", choices: ActivityType.allCases.map(\.rawValue)),
            OptionSpec(name: "range", value: "R", help: "all|week|month|quarter (default all)", choices: ActivityRange.allCases.map(\.rawValue)),
            OptionSpec(name: "search", value: "Q", help: "title or description contains Q (case-insensitive)"),
            OptionSpec(name: "page", value: "N", help: "page number (default 1)"),
            OptionSpec(name: "page-size", value: "N", help: "items per page (default 20)"),
            limit("items"),
        ] + timeTravel, examples: ["activity --as u-pat --range month", "activity --as u-maya --type interaction --page 2"]),
        spec("follow", "Print the 10 most recent activity items, then new ones as they are appended.", [log, viewer, now, tz, json, color,
            OptionSpec(name: "interval", value: "MS", help: "the longest wait between reads when no change wakes it (default 100; inotify or NOTIFY wake it at once)"),
        ], examples: ["follow --as u-pat"]),
        spec("audit", "The recruiting history: every event and every rejected line.", [log, viewer, tz, json, color,
            OptionSpec(name: "entity", value: "ID", help: "only what touches this member, school, coach, interaction or document"),
            OptionSpec(name: "actor", value: "USER", help: "only what this user did"),
            OptionSpec(name: "since", value: "TIME", help: "only events recorded at or after this time (RFC 3339 or YYYY-MM-DD)"),
            OptionSpec(name: "until", value: "TIME", help: "only events recorded at or before this time (RFC 3339 or YYYY-MM-DD)"),
            limit("entries"),
        ] + timeTravel, examples: ["audit --as u-pat --entity s-ucla", "audit --actor u-leo --since 2026-01-01"]),
        spec("verify", "Check seq, ids, the prev chain, the tail and every rule; print the head hash.", [log, json,
            OptionSpec(name: "expect-head", value: "HEX", help: "fail unless the head hash is HEX (a head kept from earlier)"),
        ], examples: ["verify", "verify --expect-head 75949b25…"]),
        spec("add-member", "Add a member to the family of --as, or start a new family with --family.", writing + [
            OptionSpec(name: "user", value: "ID", help: "the new member's user id"),
            OptionSpec(name: "name", value: "NAME", help: "full name"),
            OptionSpec(name: "role", value: "athlete|parent", help: "athlete or parent (an athlete is stored as player)",
                       choices: MemberRole.allCases.map(\.rawValue), aliases: ["athlete": MemberRole.player.rawValue]),
            OptionSpec(name: "family", value: "ID", help: "a family id not in the log yet: start it (you are its first member)"),
        ] + append, examples: ["add-member --user u-pat --name \"Pat Lopez\" --role parent --family f-lopez",
                              "add-member --as u-pat --user u-maya --name \"Maya Lopez\" --role player"]),
        spec("add-school", "Add a school to the family's list.", writing + [
            OptionSpec(name: "name", value: "NAME", help: "school name"),
            OptionSpec(name: "school", value: "ID", help: "school id (default: from the name)"),
            OptionSpec(name: "status", value: "S", help: "initial status, e.g. interested", suggestions: statuses),
        ] + append, examples: ["add-school --as u-pat --name \"Arizona State\" --status interested"]),
        spec("add-coach", "Add a coach of one of the family's schools.", writing + [
            OptionSpec(name: "school", value: "ID", help: "the coach's school"),
            OptionSpec(name: "first", value: "F", help: "first name"),
            OptionSpec(name: "last", value: "L", help: "last name"),
            OptionSpec(name: "role", value: "head|assistant|recruiting", help: "coach role", choices: CoachRole.allCases.map(\.rawValue)),
            OptionSpec(name: "coach", value: "ID", help: "coach id (default: from the name)"),
        ] + append, examples: ["add-coach --as u-pat --school s-ucla --first Jane --last Doe --role head"]),
        spec("log-interaction", "Log an email, call, visit or message with a coach (athletes only).", writing + [
            OptionSpec(name: "type", value: "T", help: interactionTypes.joined(separator: "|"), choices: interactionTypes),
            OptionSpec(name: "direction", value: "D", help: "outbound|inbound", choices: directions),
            OptionSpec(name: "school", value: "ID", help: "the school"),
            OptionSpec(name: "coach", value: "ID", help: "the coach"),
            OptionSpec(name: "other-coach", value: "NAME", help: "a coach not on the list"),
            OptionSpec(name: "event", value: "ID", help: "the recruiting event (camp, showcase) it belongs to"),
            OptionSpec(name: "occurred-at", value: "TIME", help: "when it happened, RFC 3339 or YYYY-MM-DD (default: when logged)"),
            OptionSpec(name: "subject", value: "S", help: "subject (≤ 500)"),
            OptionSpec(name: "content", value: "C", help: "notes (≤ 10,000); - reads standard input, @FILE a file (@@ for a literal @)"),
            OptionSpec(name: "sentiment", value: "S", help: sentiments.joined(separator: "|"), choices: sentiments),
            OptionSpec(name: "interest", value: "y,n,y,n,n,y", help: "the six interest-calibration answers"),
            OptionSpec(name: "attach", value: "PATH", help: "attach files (each ≤ 10 MB; pdf, jpg, png, gif, txt, doc, docx)", repeatable: true,
                       takesSeveral: true),
            OptionSpec(name: "interaction", value: "ID", help: "interaction id (default: next i-N)"),
            OptionSpec(name: "new-coach", value: "\"FIRST LAST\"", help: "a coach not on the list yet, added at --school in the same batch"),
            OptionSpec(name: "coach-role", value: "head|assistant|recruiting", help: "the new coach's role", choices: CoachRole.allCases.map(\.rawValue)),
        ] + append, examples: ["log-interaction --as u-maya --school s-ucla --coach c-doe --type email --direction inbound --subject \"Camp invite\"",
                              "log-interaction --as u-maya --school s-ucla --type phone_call --direction outbound --content - < notes.txt"]),
        spec("delete-interaction", "Delete an interaction you logged (athletes only).", positionals: ["ID"], writing + append,
             examples: ["delete-interaction i-3 --as u-maya"]),
        spec("change-status", "Change a school's recruiting status.", writing + [
            OptionSpec(name: "school", value: "ID", help: "the school"),
            OptionSpec(name: "status", value: "S", help: "new status, e.g. offer_received", suggestions: statuses),
            OptionSpec(name: "notes", value: "N", help: "notes; - reads standard input, @FILE a file"),
        ] + append, examples: ["change-status --as u-pat --school s-asu --status offer_received --notes \"Decide by Feb 1\""]),
        spec("upload-document", "Record an uploaded document.", writing + [
            OptionSpec(name: "title", value: "T", help: "title (≤ 200)"),
            OptionSpec(name: "doc-type", value: "D", help: "document type, e.g. transcript"),
            OptionSpec(name: "file", value: "PATH", help: "the file: stored beside the log; its name, size and SHA-256 are recorded"),
            OptionSpec(name: "document", value: "ID", help: "document id (default: next d-N)"),
        ] + append, examples: ["upload-document --as u-maya --title Transcript --doc-type transcript --file transcript.pdf"]),
        spec("import", "Validate a JSON-lines file of events and append them all, or nothing.", positionals: ["FILE"], [log, now, json,
            OptionSpec(name: "expect-version", value: "N", help: "fail with a conflict unless the lines' one family's last seq is N"),
            OptionSpec(name: "restore", value: nil,
                       help: "append whole family streams byte for byte (export --stream's file, erasures included) into a store without those families"),
        ], examples: ["import history.jsonl", "import - < history.jsonl", "import --restore lopez.jsonl"]),
        spec("report", "A self-contained HTML report (print it to PDF): analytics, 12 weeks, schools, interactions, activity.",
             [log, viewer, now, tz] + listFilters + timeTravel, examples: ["report --as u-pat > report.html"]),
        spec("schools", "The family's schools: status, interactions and last contact, with the 21/30-day gap flag.", reading + timeTravel,
             examples: ["schools --as u-pat"]),
        spec("coaches", "The family's coaches and when each was last contacted.", reading + [
            OptionSpec(name: "school", value: "ID", help: "only this school's coaches"),
        ] + timeTravel, examples: ["coaches --as u-maya --school s-ucla"]),
        spec("members", "The family's members.", reading + timeTravel, examples: ["members --as u-leo"]),
        spec("documents", "The documents you can see.", reading + timeTravel, examples: ["documents --as u-pat"]),
        spec("notifications", "Inbound-contact alerts: unread count, then one line per alert.", reading + [
            OptionSpec(name: "unread", value: nil, help: "only unread alerts"),
            OptionSpec(name: "mark-read", value: nil, help: "mark every alert read (appends NotificationsRead)"),
            OptionSpec(name: "alerts", value: "on|off", help: "turn your inbound alerts on or off (appends NotificationSettingsChanged)", choices: ["on", "off"]),
        ] + timeTravel + append, examples: ["notifications --as u-pat --unread", "notifications --as u-pat --mark-read"]),
        spec("erase", "Make the log forget a member (or the whole family) for good; the chain still proves the old head.", [log, viewer, now, json,
            OptionSpec(name: "member", value: "USER", help: "erase this member of your family (a parent, or the member)"),
            OptionSpec(name: "family", value: nil, help: "erase your whole family (parents only)"),
            OptionSpec(name: "dry-run", value: nil, help: "print what would be erased; change nothing"),
            OptionSpec(name: "event-id", value: "ID", help: "the id of the ErasureRecorded event (default: a new UUID)"),
        ], examples: ["erase --as u-pat --member u-leo --dry-run", "erase --as u-maya --member u-maya", "erase --as u-pat --family"]),
        spec("migrate", "Rewrite a v2 log (one chain for all families) as v3 (one stream per family) into a new file.",
             positionals: ["OLD", "NEW"], [json], examples: ["migrate events.jsonl events-v3.jsonl"]),
        spec("db", "Create (init) or upgrade (init, migrate) the store's tables in a PostgreSQL database (idempotent).",
             positionals: ["init|migrate"], [log],
             examples: ["db init --log postgresql://compass@localhost/compass", "db migrate --log postgresql://compass@localhost/compass"]),
        spec("project", "Keep the read models as tables in a PostgreSQL database, per-role by row-level security (SPEC §6).", [log,
            OptionSpec(name: "to", value: "URL", help: "the database to keep the tables in (postgresql://USER@HOST/DB)"),
            OptionSpec(name: "once", value: nil, help: "bring the tables up to date, print what was projected, exit"),
            OptionSpec(name: "rebuild", value: nil, help: "build the tables anew beside the old ones, then swap them in"),
            OptionSpec(name: "check", value: nil, help: "compare the tables with a fresh fold; name each family that differs (exit 1)"),
        ], examples: ["project --to postgresql://compass@localhost/app", "project --once --to postgresql://compass@localhost/app",
                      "project --check --to postgresql://compass@localhost/app"]),
        spec("sync", "Sync this device's store of your family with the family's store (SPEC §7); a missing --log is cloned.", [log, viewer,
            OptionSpec(name: "remote", value: "URL|PATH", help: "the family's store: a postgresql:// address or a log file"),
        ], examples: ["sync --log phone.jsonl --remote postgresql://compass@db.internal/compass --as u-maya",
                      "sync --log laptop.jsonl --remote family.jsonl --as u-pat"]),
        spec("generate", "Write a valid synthetic log to stdout.", [
            OptionSpec(name: "families", value: "N", help: "number of families (default 3)"),
            OptionSpec(name: "events", value: "N", help: "number of events (default 1000)"),
            OptionSpec(name: "seed", value: "N", help: "random seed (default 1)"),
        ], examples: ["generate --families 200 --events 1000000 --seed 1 > big.jsonl"]),
        spec("attachment", "Write an interaction's attachment to a file under its original name.", positionals: ["get", "ID", "NAME"],
             [log, viewer, now,
              OptionSpec(name: "output", value: "PATH", help: "where to write it (default: NAME in this folder; an existing file is not replaced)", short: "o")],
             examples: ["attachment get i-41 camp-schedule.pdf --as u-maya", "attachment get i-41 stats.png -o ~/Desktop/stats.png --as u-pat"]),
        spec("document", "Write a document's stored file (uploaded with --file) under its file name.", positionals: ["get", "ID"],
             [log, viewer, now,
              OptionSpec(name: "output", value: "PATH", help: "where to write it (default: its file name in this folder; an existing file is not replaced)", short: "o")],
             examples: ["document get d-1 --as u-pat", "document get d-2 -o ~/Desktop/transcript.pdf --as u-maya"]),
        spec("completions", "Print a shell completion script (bash, zsh or fish).", positionals: ["SHELL"], [],
             examples: ["completions bash > ~/.local/share/bash-completion/completions/compass", "completions fish | source"]),
        spec("man", "Print the manual page (roff).", [], examples: ["man | man -l -"]),
        spec("__ids", "The ids of the viewer's family, for completion.", positionals: ["KIND"],
             [log, viewer, OptionSpec(name: "school", value: "ID", help: "coaches of this school only")]),
        spec("help", "Show the help of a command.", positionals: ["COMMAND"], [], examples: ["help log-interaction"]),
    ]

    static func find(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// The top-level `compass --help` text.
    static func overview(width: Int = 80) -> String {
        var text = "usage: compass COMMAND [options]\n\n"
            + TextStyle.wrap("Recruiting Compass: an event-sourced log of a family's college recruiting.", width: width).joined(separator: "\n")
            + "\n\ncommands:\n"
        text += ArgumentParser.table(all.filter { !$0.name.hasPrefix("__") }.map { ($0.name, $0.summary) }, width: width)
        text += "\n" + TextStyle.wrap("Run 'compass help COMMAND' (or 'compass COMMAND -h') for a command's options and examples.",
                                      width: width).joined(separator: "\n") + "\n"
        return text
    }
}
