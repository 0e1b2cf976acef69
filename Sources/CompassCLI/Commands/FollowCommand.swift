#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CompassCore
import Foundation

/// Set by SIGINT/SIGTERM; `follow` checks it between polls.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0

/// `compass follow`: the dashboard's live feed. Prints the viewer's 10 most recent activity
/// items, then each new item the viewer may see as other processes append it, until
/// interrupted. Only bytes appended since the last read are read; the state is folded
/// incrementally, never replayed again.
enum FollowCommand {
    static func run(_ inv: Invocation) throws(CLIError) {
        let viewerId = try inv.viewer()
        let zone = try inv.timeZone()
        let fixedNow = try inv.arguments.value("now").map { text throws(CLIError) in try inv.time(text, option: "--now") }
        let interval = try inv.arguments.value("interval").map { text throws(CLIError) in try inv.integer(text, option: "--interval", minimum: 1) } ?? 100
        signal(SIGINT) { _ in stopRequested = 1 }
        signal(SIGTERM) { _ in stopRequested = 1 }
        signal(SIGPIPE, SIG_IGN)
        // A parent may have spawned us with signals blocked (Foundation's Process does): unblock ours.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)

        let sink = AppliedEvents()
        var replayer = Replayer(observer: { outcome, _ in
            if case .applied(_, let event) = outcome { sink.events.append(event) }
        })
        var tail = LogTail(path: inv.logPath)
        var printed: Set<String> = []
        var started = false
        var warnedWaiting = false
        while stopRequested == 0 {
            try tail.poll(into: &replayer)
            let newEvents = sink.events
            sink.events.removeAll()
            let now = fixedNow ?? inv.clock()
            if let viewer = try? Viewer(viewerId, in: replayer.state) {
                let state = replayer.state
                var fresh: [ActivityItem]
                if !started {
                    let all = ActivityViews.items(state, viewer: viewer, now: now, zone: zone)
                    printed.formUnion(all.map(\.id))
                    fresh = Array(all.prefix(10))
                    started = true
                } else {
                    fresh = newEvents.compactMap { item(for: $0, state: state, viewer: viewer, now: now, zone: zone) }
                        .filter { !printed.contains($0.id) }
                    printed.formUnion(fresh.map(\.id))
                }
                fresh.sort { $0.seq < $1.seq }
                for item in fresh { emit(item, inv: inv) }
            } else if !warnedWaiting {
                inv.console.err("waiting for \(viewerId) to join a family in \(inv.logPathForDisplay)…\n")
                warnedWaiting = true
            }
            usleep(useconds_t(interval * 1000))
        }
    }

    /// The item a newly applied event adds to the viewer's timeline, if any. An interaction
    /// deleted before it was printed is not printed.
    static func item(for event: Event, state: CompassState, viewer: Viewer, now: Timestamp, zone: TimeZone) -> ActivityItem? {
        guard event.family == viewer.family, let family = state.families[event.family] else { return nil }
        switch event.payload {
        case .interactionLogged(let logged):
            guard let record = family.liveInteraction(logged.interactionId), viewer.sees(actor: record.loggedBy) else { return nil }
            return ActivityViews.item(for: record, family: family, now: now, zone: zone)
        case .schoolStatusChanged, .documentUploaded:
            return ActivityViews.items(state, viewer: viewer, now: now, zone: zone).first { $0.seq == event.seq && $0.type != .interaction }
        default:
            return nil
        }
    }

    static func emit(_ item: ActivityItem, inv: Invocation) {
        if inv.json {
            inv.console.out(bytes: ActivityJSON.line(item))
        } else {
            inv.console.out(ActivityRendering.row(item, style: TextStyle(inv)))
        }
    }
}

/// Collects the events a replayer applies during one poll.
final class AppliedEvents {
    var events: [Event] = []
}

/// Reads a growing log from where it last stopped, passing only complete lines on; a torn
/// last line waits until its `\n` arrives. A log that does not exist yet is waited for.
struct LogTail {
    let path: String
    private var fd: Int32 = -1
    private var pending: [UInt8] = []

    init(path: String) { self.path = path }

    mutating func poll(into replayer: inout Replayer) throws(CLIError) {
        if fd < 0 {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 { return }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw .io("cannot read \(path): \(POSIX.lastError)") }
            if n == 0 { break }
            pending += chunk[0..<n]
        }
        guard let lastNewline = pending.lastIndex(of: 0x0A) else { return }
        var start = 0
        pending.withUnsafeBufferPointer { buffer in
            while start <= lastNewline {
                let end = buffer[start...lastNewline].firstIndex(of: 0x0A)!
                replayer.consume(line: UnsafeBufferPointer(rebasing: buffer[start..<end]), terminated: true)
                start = end + 1
            }
        }
        pending.removeSubrange(0..<start)
    }
}
