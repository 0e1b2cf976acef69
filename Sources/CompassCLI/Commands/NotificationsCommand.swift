import CompassCore
import CompassStore

/// `compass notifications`: inbound-contact alerts (SPEC §3.5). `--mark-read` and
/// `--alerts on|off` append first (through the store, like any append), then the list is shown.
enum NotificationsCommand {
    static func run(_ inv: Invocation) throws {
        let args = inv.arguments
        let alerts = try inv.choice("alerts", in: ["on", "off"])
        if args.has("mark-read") || alerts != nil {
            let actor = try inv.viewer()
            let now = try inv.now()
            let ids = IdSource(inv.makeId)
            let store = try inv.store(clock: { now }, makeId: { ids.next() })
            let expectVersion = try args.value("expect-version").map { text throws in
                try inv.integer(text, option: "--expect-version", minimum: 0, maximum: Envelope.maxSeq)
            }
            if let alerts {
                try store.append(.changeNotificationSettings(ChangeNotificationSettings(inboundAlerts: alerts == "on")), as: actor,
                                 idempotencyKey: args.value("event-id"), expectVersion: expectVersion)
            }
            if args.has("mark-read") {
                // `--event-id` names the one event appended (the settings change when both are asked);
                // read up to the last `seq` of the viewer's family (SPEC §3.5).
                try store.append(.markNotificationsRead(MarkNotificationsRead(upToSeq: try store.version(as: actor))), as: actor,
                                 idempotencyKey: alerts == nil ? args.value("event-id") : nil,
                                 expectVersion: alerts == nil ? expectVersion : nil)
            }
        }
        let context = try ReadContext(inv)
        let list = context.views.notifications(unreadOnly: args.has("unread"))
        if inv.json { return inv.console.out(bytes: LookupJSON.notifications(list)) }
        let s = context.style
        // What the command changed, said first: a parent who turned alerts off sees it took.
        var out = ""
        if let alerts { out += "Inbound alerts are now \(alerts) for you.\n" }
        if args.has("mark-read") { out += "Every alert is marked read.\n" }
        out += s.bold("\(list.unread) unread") + "\n"
        if list.items.isEmpty { out += s.dim(args.has("unread") ? "No unread alerts" : "No alerts yet") + "\n" }
        for item in list.items {
            let title = TerminalText.escape(item.title)
            let date = DateText.short(item.createdAt, in: context.zone)
            let open = "› compass show \(item.interactionId)"
            // The title gets what the marker, the date and the command leave; at narrow widths
            // the command goes on its own line.
            let room = s.width - 2 - 2 - Cells.width(date) - 2 - Cells.width(open)
            let head = (item.read ? "  " : "● ") + TextStyle.truncate(title, to: room >= 16 ? room : s.width - 4 - Cells.width(date)) + "  " + s.dim(date)
            let line = room >= 16 ? head + "  " + s.blue(open) : head + "\n    " + s.blue(open)
            out += (item.read ? line : s.bold(line)) + "\n"
        }
        context.show(out)
    }
}
