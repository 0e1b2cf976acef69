/// Every `compass` command and the options it accepts.
enum CommandCatalog {
    static let common: [OptionSpec] = [
        OptionSpec(name: "log", value: "PATH", help: "the event log (default $COMPASS_LOG, else ./events.jsonl)"),
        OptionSpec(name: "as", value: "USER", help: "who is acting or viewing (default $COMPASS_USER)"),
        OptionSpec(name: "now", value: "RFC3339", help: "the clock (default: the real clock)"),
        OptionSpec(name: "tz", value: "IANA", help: "time zone for dates people read (default UTC)"),
        OptionSpec(name: "json", value: nil, help: "machine output: one JSON document on stdout"),
        OptionSpec(name: "help", value: nil, help: "show this help"),
    ]

    static let timeTravel: [OptionSpec] = [
        OptionSpec(name: "as-of", value: "RFC3339", help: "replay only events recorded at or before this time"),
        OptionSpec(name: "at-seq", value: "N", help: "replay only events with seq ≤ N"),
    ]

    static let append: [OptionSpec] = [
        OptionSpec(name: "event-id", value: "ID", help: "event id for an idempotent retry"),
        OptionSpec(name: "expect-seq", value: "N", help: "fail with a conflict unless the log's last seq is N"),
        OptionSpec(name: "expect-version", value: "N", help: "fail with a conflict unless your family has exactly N events"),
    ]

    static let listFilters: [OptionSpec] = [
        OptionSpec(name: "search", value: "Q", help: "subject or content contains Q (case-insensitive)"),
        OptionSpec(name: "type", value: "TYPE", help: "email|phone_call|text|in_person_visit|virtual_meeting|camp|showcase|tweet|dm"),
        OptionSpec(name: "direction", value: "D", help: "outbound|inbound"),
        OptionSpec(name: "sentiment", value: "S", help: "very_positive|positive|neutral|negative"),
        OptionSpec(name: "period", value: "DAYS", help: "7|14|30|90: only the last N days"),
        OptionSpec(name: "logged-by", value: "USER|me", help: "parents only: who logged it"),
    ]

    static func spec(_ name: String, _ summary: String, positionals: [String] = [], _ options: [OptionSpec]) -> CommandSpec {
        CommandSpec(name: name, summary: summary, positionals: positionals, options: options + common)
    }

    static let all: [CommandSpec] = [
        spec("replay", "Replay the log: counts by type, members, live interactions and every problem.", timeTravel),
        spec("interactions", "The interactions list with analytics, for one viewer.", listFilters + timeTravel),
        spec("analytics", "Total, outbound, inbound and this week's interactions, with the list's filters.", listFilters + timeTravel),
        spec("show", "One interaction's detail page.", positionals: ["ID"], [
            OptionSpec(name: "csv", value: nil, help: "the CSV export (athletes only)"),
        ] + timeTravel),
        spec("export", "The filtered list as CSV (or --json).", listFilters + timeTravel),
        spec("activity", "The activity timeline: interactions, status changes and documents.", [
            OptionSpec(name: "type", value: "T", help: "interaction|school_status_change|document_upload"),
            OptionSpec(name: "range", value: "R", help: "all|week|month|quarter (default all)"),
            OptionSpec(name: "search", value: "Q", help: "title or description contains Q (case-insensitive)"),
            OptionSpec(name: "page", value: "N", help: "page number (default 1)"),
            OptionSpec(name: "page-size", value: "N", help: "items per page (default 20)"),
        ] + timeTravel),
        spec("follow", "Print the 10 most recent activity items, then new ones as they are appended.", [
            OptionSpec(name: "interval", value: "MS", help: "how often to look for new bytes (default 100)"),
        ]),
        spec("audit", "The recruiting history: every event and every rejected line.", [
            OptionSpec(name: "entity", value: "ID", help: "only what touches this member, school, coach, interaction or document"),
            OptionSpec(name: "actor", value: "USER", help: "only what this user did"),
            OptionSpec(name: "since", value: "RFC3339", help: "only events recorded at or after this time"),
            OptionSpec(name: "until", value: "RFC3339", help: "only events recorded at or before this time"),
        ] + timeTravel),
        spec("verify", "Check seq, ids, the prev chain, the tail and every rule; print the head hash.", [
            OptionSpec(name: "expect-head", value: "HEX", help: "fail unless the head hash is HEX"),
        ]),
        spec("add-member", "Add a member to a family (the first member creates it).", [
            OptionSpec(name: "user", value: "ID", help: "the new member's user id"),
            OptionSpec(name: "name", value: "NAME", help: "full name"),
            OptionSpec(name: "role", value: "player|parent", help: "athlete (player) or parent"),
            OptionSpec(name: "family", value: "ID", help: "family id for a new family (default f-USER)"),
        ] + append),
        spec("add-school", "Add a school to the family's list.", [
            OptionSpec(name: "name", value: "NAME", help: "school name"),
            OptionSpec(name: "school", value: "ID", help: "school id (default: from the name)"),
            OptionSpec(name: "status", value: "S", help: "initial status, e.g. interested"),
        ] + append),
        spec("add-coach", "Add a coach of one of the family's schools.", [
            OptionSpec(name: "school", value: "ID", help: "the coach's school"),
            OptionSpec(name: "first", value: "F", help: "first name"),
            OptionSpec(name: "last", value: "L", help: "last name"),
            OptionSpec(name: "role", value: "head|assistant|recruiting", help: "coach role"),
            OptionSpec(name: "coach", value: "ID", help: "coach id (default: from the name)"),
        ] + append),
        spec("log-interaction", "Log an email, call, visit or message with a coach (athletes only).", [
            OptionSpec(name: "type", value: "T", help: "email|phone_call|text|in_person_visit|virtual_meeting|camp|showcase|tweet|dm"),
            OptionSpec(name: "direction", value: "D", help: "outbound|inbound"),
            OptionSpec(name: "school", value: "ID", help: "the school"),
            OptionSpec(name: "coach", value: "ID", help: "the coach"),
            OptionSpec(name: "other-coach", value: "NAME", help: "a coach not on the list"),
            OptionSpec(name: "event", value: "ID", help: "the recruiting event (camp, showcase) it belongs to"),
            OptionSpec(name: "occurred-at", value: "RFC3339", help: "when it happened (default: now)"),
            OptionSpec(name: "subject", value: "S", help: "subject (≤ 500)"),
            OptionSpec(name: "content", value: "C", help: "notes (≤ 10,000)"),
            OptionSpec(name: "sentiment", value: "S", help: "very_positive|positive|neutral|negative"),
            OptionSpec(name: "interest", value: "y,n,y,n,n,y", help: "the six interest-calibration answers"),
            OptionSpec(name: "attach", value: "PATH", help: "attach a file (≤ 10 MB; pdf, jpg, png, gif, txt, doc, docx)", repeatable: true),
            OptionSpec(name: "interaction", value: "ID", help: "interaction id (default: next i-N)"),
            OptionSpec(name: "new-coach", value: "\"FIRST LAST\"", help: "a coach not on the list yet, added at --school in the same batch"),
            OptionSpec(name: "coach-role", value: "head|assistant|recruiting", help: "the new coach's role"),
        ] + append),
        spec("delete-interaction", "Delete an interaction you logged (athletes only).", positionals: ["ID"], append),
        spec("change-status", "Change a school's recruiting status.", [
            OptionSpec(name: "school", value: "ID", help: "the school"),
            OptionSpec(name: "status", value: "S", help: "new status, e.g. offer_received"),
            OptionSpec(name: "notes", value: "N", help: "notes"),
        ] + append),
        spec("upload-document", "Record an uploaded document.", [
            OptionSpec(name: "title", value: "T", help: "title (≤ 200)"),
            OptionSpec(name: "doc-type", value: "D", help: "document type, e.g. transcript"),
            OptionSpec(name: "file", value: "PATH", help: "the file (its name and size are recorded)"),
            OptionSpec(name: "document", value: "ID", help: "document id (default: next d-N)"),
        ] + append),
        spec("import", "Validate a JSON-lines file of events and append them all, or nothing.", positionals: ["FILE"], [
            OptionSpec(name: "expect-seq", value: "N", help: "fail with a conflict unless the log's last seq is N"),
        ]),
        spec("report", "A self-contained HTML report (print it to PDF): analytics, 12 weeks, schools, interactions, activity.",
             listFilters + timeTravel),
        spec("schools", "The family's schools: status, interactions and last contact, with the 21/30-day gap flag.", timeTravel),
        spec("coaches", "The family's coaches and when each was last contacted.", [
            OptionSpec(name: "school", value: "ID", help: "only this school's coaches"),
        ] + timeTravel),
        spec("members", "The family's members.", timeTravel),
        spec("documents", "The documents you can see.", timeTravel),
        spec("notifications", "Inbound-contact alerts: unread count, then one line per alert.", [
            OptionSpec(name: "unread", value: nil, help: "only unread alerts"),
            OptionSpec(name: "mark-read", value: nil, help: "mark every alert read (appends NotificationsRead)"),
            OptionSpec(name: "alerts", value: "on|off", help: "turn your inbound alerts on or off (appends NotificationSettingsChanged)"),
        ] + timeTravel + append),
        spec("generate", "Write a valid synthetic log to stdout.", [
            OptionSpec(name: "families", value: "N", help: "number of families (default 3)"),
            OptionSpec(name: "events", value: "N", help: "number of events (default 1000)"),
            OptionSpec(name: "seed", value: "N", help: "random seed (default 1)"),
        ]),
    ]

    static func find(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// The top-level `compass --help` text.
    static var overview: String {
        var text = "usage: compass COMMAND [options]\n\nRecruiting Compass: an event-sourced log of a family's college recruiting.\n\ncommands:\n"
        let width = all.map(\.name.count).max() ?? 0
        for spec in all {
            text += "  " + spec.name + String(repeating: " ", count: width - spec.name.count + 2) + spec.summary + "\n"
        }
        text += "\nRun 'compass COMMAND --help' for a command's options.\n"
        return text
    }
}
