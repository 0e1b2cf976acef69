import CompassCore
import CompassStore
import Foundation

/// `compass follow`: the dashboard's live feed. Prints the viewer's 10 most recent activity
/// items, then each new item the viewer may see as other processes append it, until
/// interrupted. Only bytes appended since the last read are read; the state is folded
/// incrementally, never replayed again.
enum FollowCommand {
    static func run(_ inv: Invocation) throws {
        let viewerId = try inv.viewer()
        let zone = try inv.timeZone()
        let fixedNow = try inv.arguments.value("now").map { text throws in try inv.time(text, option: "--now") }
        let interval = try inv.arguments.value("interval").map { text throws in
            try inv.integer(text, option: "--interval", minimum: 1, maximum: 86_400_000)
        } ?? 100
        Interruption.install()

        // The store's feed: committed complete lines only; a replaced log is read again and
        // only events the old one lacked come out, so nothing is lost or repeated.
        var feed = try inv.store(mustExist: false, snapshots: false).feed(for: viewerId)
        var printed: Set<String> = []
        var started = false
        var warnedWaiting = false
        var retry = ConnectionRetry(inv)
        while !Interruption.requested {
            // A database that restarts or fails over is waited for; the feed goes on after the
            // last line it delivered (its cursor keeps its place), so nothing is lost or repeated.
            let newEvents: [Event]
            do {
                newEvents = try feed.next()
                retry.succeeded()
            } catch {
                try retry.failed(error)
                continue
            }
            let now = fixedNow ?? inv.clock()
            if let viewer = try? Viewer(viewerId, in: feed.state) {
                let state = feed.state
                var fresh: [ActivityItem]
                if !started {
                    let all = ActivityViews.items(state, viewer: viewer, now: now, zone: zone)
                    printed.formUnion(all.map(\.id))
                    fresh = Array(all.prefix(10))
                    started = true
                } else {
                    fresh = newEvents.compactMap { ActivityViews.newItem(for: $0, in: state, viewer: viewer, now: now, zone: zone) }
                        .filter { !printed.contains($0.id) }
                    printed.formUnion(fresh.map(\.id))
                }
                fresh.sort { $0.seq < $1.seq }
                for item in fresh { emit(item, inv: inv) }
            } else if feed.isOpen, !started, feed.state.appliedCount > 0 {
                // The log has events and the viewer is not in it: the usual error, not a wait.
                // (A log just created has none yet: its first line may still be on its way. Once
                // following, a log being replaced may lack the viewer for a moment: wait then.)
                throw CLIError.domain("Unknown user \(viewerId)")
            } else if !warnedWaiting {
                let what = feed.isOpen ? "its first event" : "it to be created"
                inv.console.err("waiting for \(TerminalText.escape(inv.logPathForDisplay)): \(what)…\n")
                warnedWaiting = true
            }
            Interruption.wait(for: feed, milliseconds: interval)
        }
        throw Interruption.error
    }

    static func emit(_ item: ActivityItem, inv: Invocation) {
        if inv.json {
            inv.console.out(bytes: ActivityJSON.line(item))
        } else {
            inv.console.out(ActivityRendering.row(item, style: TextStyle(inv)))
        }
    }
}


