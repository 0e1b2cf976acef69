// compass-bench: the baselines `bench/run.sh` compares `compass` against.
//
//   compass-bench decode FILE        Foundation JSONDecoder, live interactions by direction and type
//   compass-bench appends N FOLDER   in-process appends through CompassStore (fsync each) vs a raw write+fsync loop
//   compass-bench hammer LOG N W     N appends by worker W (one process of a concurrent-writers test)
//   compass-bench stages FILE        one core: time per line of each stage of preparing it (fastest of 3), and of the fold
//   compass-bench snapshot-check LOG verify's comparison of LOG's snapshot (covering the whole log) with the state its
//                                    replay holds, alone (fastest of 5)
//   compass-bench observers LOG|ADDRESS VIEWER N [ROUNDS]
//                                    N observations of VIEWER's interactions on one warm store: the time to each first
//                                    value, resident memory per observation, and after they all end
//   compass-bench history LOG VIEWER SEQ N
//                                    VIEWER's audit and their interactions at SEQ (time travel), each by a new store (an
//                                    app's first call) N times: p50 and max per call
//   compass-bench library-snapshot LOG the snapshot an app's store (default configuration) writes beside LOG
//   compass-bench retained FILE      resident memory after replaying FILE against the peak during the replay
//   compass-bench pg-load ADDRESS FAMILIES WRITERS SECONDS [zipf]
//                                    appenders on a PostgreSQL store, each with its own connection: appends/s, p50/p99
//   compass-bench pg-lag ADDRESS FAMILIES WRITERS SECONDS [MEMBER REQUESTER]
//                                    the same load with a store-wide feed: delivery lag after the append's acknowledgement
//                                    (p50/p99, every event delivered once, waiting up to 30 s after the load); with MEMBER, erases them halfway and reports
//                                    the erasure's time and other families' append latency while it ran
//   compass-bench projection-lag ADDRESS TARGET FAMILIES WRITERS SECONDS [nice]
//                                    WRITERS athletes append interactions to a PostgreSQL store while a projector keeps
//                                    TARGET's tables: lag from an acknowledged append to its row committed (p50/p99),
//                                    and rows written per appended line
import CompassCLI
import CompassCore
import CompassStore
import Foundation

#if canImport(Glibc)
/// `getrusage`'s "this process" (an enum case in Glibc, a plain constant on Darwin).
let rusageSelf = RUSAGE_SELF.rawValue
#else
let rusageSelf = RUSAGE_SELF
#endif

#if canImport(Glibc)
import Glibc
#endif

struct Line: Decodable {
    struct Data: Decodable {
        var interactionId: String?
        var direction: String?
        var type: String?
    }
    var type: String
    var family: String
    var data: Data
}

/// The fastest of three runs (on a shared machine the minimum is the steadiest figure).
func fastest(_ body: () throws -> Void) rethrows -> Double {
    try (0..<3).map { _ in try seconds(body) }.min()!
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

let args = CommandLine.arguments
switch args.count > 1 ? args[1] : "" {
case "decode":
    let data = try Data(contentsOf: URL(fileURLWithPath: args[2]))
    let decoder = JSONDecoder()
    var logged: [String: (String, String)] = [:]
    var deleted: Set<String> = []
    for line in data.split(separator: 0x0A) {
        guard let event = try? decoder.decode(Line.self, from: line), let id = event.data.interactionId else { continue }
        if event.type == "InteractionLogged" { logged[event.family + "/" + id] = (event.data.direction ?? "", event.data.type ?? "") }
        if event.type == "InteractionDeleted" { deleted.insert(event.family + "/" + id) }
    }
    var counts: [String: Int] = [:]
    for (key, value) in logged where !deleted.contains(key) { counts["\(value.0) \(value.1)", default: 0] += 1 }
    for key in counts.keys.sorted() { print(key, counts[key]!) }

case "stages":
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: args[2])))
    var ranges: [Range<Int>] = []
    var start = 0
    while let end = bytes[start...].firstIndex(of: 0x0A) { ranges.append(start..<end); start = end + 1 }
    bytes.withUnsafeBufferPointer { all in
        var tape = JSONTape()
        var valid = 0
        let scan = fastest { for r in ranges where tape.scan(UnsafeBufferPointer(rebasing: all[r])) { valid += 1 } }
        let parse = fastest { for r in ranges { _ = JSONParser.parse(UnsafeBufferPointer(rebasing: all[r])) } }
        let hash = fastest { for r in ranges { _ = SHA256.hex(UnsafeBufferPointer(rebasing: all[r])) } }
        // The envelope read from each line's tape (scanned again: the scan is timed above).
        var envelopeTape = JSONTape()
        let envelope = fastest {
            for r in ranges {
                let line = UnsafeBufferPointer(rebasing: all[r])
                if envelopeTape.scan(line), EnvelopeReader.isObject(envelopeTape) { _ = try? EnvelopeReader.decode(envelopeTape, line.baseAddress!) }
            }
        } - scan
        let drafts = ranges.compactMap { r -> EventDraft? in
            let line = UnsafeBufferPointer(rebasing: all[r])
            guard envelopeTape.scan(line), EnvelopeReader.isObject(envelopeTape),
                  let decoded = try? EnvelopeReader.decode(envelopeTape, line.baseAddress!),
                  case .object(let object)? = JSONParser.parse(line), case .object(let data)? = object["data"] else { return nil }
            var draft = decoded.draft
            draft.data = data
            return draft
        }
        let payload = fastest { for d in drafts { _ = try? Rules.payloadIgnoringState(d, sanitizing: false) } }
        var reused = JSONTape()
        let prepare = fastest { for r in ranges { _ = PreparedLine(UnsafeBufferPointer(rebasing: all[r]), keepingPayload: false, tape: &reused) } }
        var replayer = Replayer()
        let prepared = ranges.map { PreparedLine(UnsafeBufferPointer(rebasing: all[$0]), keepingPayload: false) }
        let fold = seconds { for line in prepared { replayer.consume(prepared: line) } }
        let n = Double(ranges.count)
        print(String(format: "%d lines (%d valid), per line: scan %.2f µs, scan+tree %.2f µs, SHA-256 %.2f µs, envelope %.2f µs, payload %.2f µs, prepare (all of it) %.2f µs, fold %.2f µs",
                     ranges.count, valid, scan / n * 1e6, parse / n * 1e6, hash / n * 1e6, envelope / n * 1e6, payload / n * 1e6,
                     prepare / n * 1e6, fold / n * 1e6))
        _ = consume prepared
        withExtendedLifetime(replayer) {}
    }

case "snapshot-check":
    // The replay verify makes (texts left in the log), once; then only the comparison, timed.
    let path = args[2]
    // Through the door, as verify reads: a replay that leaves its texts in the log and does not
    // resume from the snapshot it is then compared with.
    let store = try CompassStore(path: path, createIfMissing: false, configuration: .init(snapshots: nil))
    var options = CompassStore.ReadOptions(problems: .summary)
    options.readsNoTexts = true
    let replayer = try store.replay(options)
    guard try store.storedSnapshotMatches(replayer) != nil else {
        print("compass-bench: \(path) has no snapshot beside it")
        exit(1)
    }
    let snapshot = replayer.snapshot
    var same = false
    let time = try (0..<5).map { _ in
        try seconds { same = try store.storedSnapshotMatches(replayer) == true }
    }.min()!
    let opening = (0..<5).map { _ in seconds { _ = SnapshotStream(snapshot) } }.min()!
    print(String(format: "snapshot check: %.3f s (fastest of 5), %@; of which the header and ids, on one core: %.3f s",
                 time, same ? "the same" : "DIFFERENT", opening))

case "observers":
    // N observations of one store (an app's screens), as issue 57 §3 counts them; ROUNDS times
    // on the same store (each round's figures), to tell memory kept per round from memory
    // the process took once (runtime caches, thread stacks).
    func residentMB() -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) / 1024
    }
    let store = try CompassStore(path: args[2], createIfMissing: false)
    let viewer = args[3], count = Int(args[4]) ?? 15
    let rounds = args.count > 5 ? max(1, Int(args[5]) ?? 1) : 1
    _ = try store.interactions(as: viewer)  // warm, as an app's first screen leaves it
    final class Firsts: @unchecked Sendable {
        let lock = NSLock()
        var milliseconds: [Double] = []
    }
    for round in 1...rounds {
        let before = residentMB()
        let firsts = Firsts()
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<count {
            let started = DispatchTime.now().uptimeNanoseconds
            let stream = store.observe(as: viewer) { try $0.interactions(as: viewer).items.count }
            tasks.append(Task.detached {
                do {
                    for try await _ in stream {
                        firsts.lock.withLock { firsts.milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6) }
                        break
                    }
                } catch {}
            })
        }
        while firsts.lock.withLock({ firsts.milliseconds.count }) < count { usleep(10_000) }
        let during = residentMB()
        for task in tasks { task.cancel() }
        usleep(1_500_000)
        let after = residentMB()
        let sorted = firsts.lock.withLock { firsts.milliseconds }.sorted()
        print(String(format: "%@%d observations: first value p50 %.1f ms, max %.1f ms; RSS %.0f MB warm, %.0f MB observing (%.1f MB each), %.0f MB after they ended",
                     rounds > 1 ? "round \(round): " : "", count, sorted[sorted.count / 2], sorted.last ?? 0, before, during,
                     (during - before) / Double(count), after))
    }

case "history":
    // A family's audit and a time travel through the library, as an app calls them, each on a
    // store opened for the call (issue 57 §4).
    let (log, viewer, seq, runs) = (args[2], args[3], Int64(args[4]) ?? 1, max(1, Int(args[5]) ?? 20))
    func perCall(_ body: (CompassStore) throws -> Void) throws -> [Double] {
        try (0..<runs).map { _ in
            let store = try CompassStore(path: log, createIfMissing: false)
            let started = DispatchTime.now().uptimeNanoseconds
            try body(store)
            return Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        }.sorted()
    }
    var entries = 0, items = 0
    let audit = try perCall { entries = try $0.audit(as: viewer).count }
    let travel = try perCall { items = try $0.interactions(as: viewer, atSeq: seq).items.count }
    print(String(format: "audit (%d entries): p50 %.1f ms, max %.1f ms; interactions at seq %lld (%d items): p50 %.1f ms, max %.1f ms",
                 entries, audit[runs / 2], audit.last!, seq, items, travel[runs / 2], travel.last!))

case "library-snapshot":
    // The snapshot an app's store writes beside LOG (its default configuration), for comparing
    // with the tool's.
    let store = try CompassStore(path: args[2], createIfMissing: false)
    _ = try store.state()
    let size = (try? FileManager.default.attributesOfItem(atPath: args[2] + ".snapshot")[.size] as? Int) ?? 0
    print("library snapshot: \(size) bytes")

case "retained":
    // Resident memory after the replay (the state, and whatever the allocator keeps) against
    // the peak during it: how much the replay needs beyond what it keeps.
    func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
    let before = residentBytes()
    let replayer = try CompassStore(path: args[2], createIfMissing: false, configuration: .init(snapshots: nil)).replay()
    let retained = residentBytes() - before
    var usage = rusage()
    getrusage(rusageSelf, &usage)
    let peak = Int(usage.ru_maxrss) * 1024 - before
    print(String(format: "resident after replay %.0f MB, peak during it %.0f MB, ratio %.2f (%d lines)",
                 Double(retained) / 1e6, Double(peak) / 1e6, Double(peak) / Double(max(1, retained)), replayer.linesRead))
    withExtendedLifetime(replayer) {}

case "appends":
    let count = Int(args[2]) ?? 200
    let folder = args[3]
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // In-process appends through the store an app holds: a second apart, numbered ids.
    let ticks = Ticks()
    let start = Timestamp(rfc3339: "2026-01-01T00:00:00Z")!
    let store = try CompassStore(path: folder + "/appends.jsonl", configuration: .init(
        clock: { start.adding(seconds: Int64(ticks.value)) }, makeId: { "bench-\(ticks.next())" }, snapshots: nil))
    try store.append(.addMember(AddMember(userId: "u-p", fullName: "Pat", role: .parent, newFamily: "fam")), as: "u-p")
    try store.append(.addSchool(AddSchool(name: "UCLA", schoolId: "s-1")), as: "u-p")
    // The raw loop writes the same number of lines of the same size, write(2) + fsync each, to a
    // file in the same folder. The two alternate in rounds of 50, so drift in the disk's speed
    // over the run falls on both alike.
    func note(_ n: Int) -> Command { .changeStatus(ChangeStatus(schoolId: "s-1", newStatus: "contacted", notes: "Bench note \(n)")) }
    try store.append(note(0), as: "u-p")
    let probeLine = try String(contentsOfFile: folder + "/appends.jsonl", encoding: .utf8).split(separator: "\n").last ?? ""
    let line = [UInt8](repeating: UInt8(ascii: "x"), count: probeLine.utf8.count) + [0x0A]
    let fd = open(folder + "/raw.jsonl", O_WRONLY | O_CREAT | O_APPEND, 0o644)
    var appendTime = 0.0, rawTime = 0.0
    var n = 1
    while n < count {
        let round = min(50, count - n)
        appendTime += try seconds {
            for k in 0..<round { try store.append(note(n + k), as: "u-p") }
        }
        rawTime += seconds {
            for _ in 0..<round {
                line.withUnsafeBytes { _ = write(fd, $0.baseAddress!, $0.count) }
                fsync(fd)
            }
        }
        n += round
    }
    close(fd)
    let measured = count - 1
    print(String(format: "appends %d: compass %.0f/s, raw write+fsync %.0f/s, ratio %.2f",
                 measured, Double(measured) / appendTime, Double(measured) / rawTime, rawTime / appendTime))

case "first-read":
    // An app's first read: a new store on the log, one viewer's interactions list.
    let store = try CompassStore(path: args[2], createIfMissing: false)
    let started = Date()
    let list = try store.interactions(as: args[3])
    print(String(format: "first interactions(as:) %.3f s, %d items", Date().timeIntervalSince(started), list.items.count))

case "feeds":
    // A store with N change feeds on it (each has made its first read), then its peak RSS.
    let store = try CompassStore(path: args[2], createIfMissing: false)
    let count = Int(args[3]) ?? 4
    _ = try store.interactions(as: args[4])
    let streams = (0..<count).map { _ in store.changes(every: .milliseconds(50)) }
    let tasks = streams.map { stream in Task { for await _ in stream {} } }
    try await Task.sleep(for: .seconds(3))
    var usage = rusage()
    getrusage(rusageSelf, &usage)
    print("store with \(count) feeds: peak RSS \(usage.ru_maxrss / 1024) MB")
    for task in tasks { task.cancel() }

case "pg-load":
    // W appenders, each its own store (own connection), append to random families of F for S
    // seconds; families are made first (one parent each). Uniform, or Zipf (s = 1) with "zipf".
    let address = args[2]
    let families = Int(args[3]) ?? 1000, writers = Int(args[4]) ?? 8, duration = Double(args[5]) ?? 10
    let zipf = args.count > 6 && args[6] == "zipf"
    if let mode = ProcessInfo.processInfo.environment["COMPASS_PG_NOTIFY"] { CompassStore.measureDatabaseNotifications(mode) }
    let setup = try CompassStore(path: address)
    let existing = Set(try setup.state().members.keys)
    for index in 0..<families where !existing.contains("u-bench-\(index)") {
        try setup.append(.addMember(AddMember(userId: "u-bench-\(index)", fullName: "Parent \(index)", role: .parent, newFamily: "bench-fam-\(index)")),
                         as: "u-bench-\(index)")
    }
    // Zipf over the families: P(k) ∝ 1/k, by inverting the cumulative weights.
    let weights = (1...families).map { 1.0 / Double($0) }
    let total = weights.reduce(0, +)
    var sums: [Double] = []
    var running = 0.0
    for weight in weights { running += weight / total; sums.append(running) }
    let cumulative = sums
    final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var latencies: [Double] = []
        var failures = 0
        /// The appenders' stores, kept open until the server's CPU is read (a backend's time
        /// leaves /proc with it).
        var stores: [CompassStore] = []
    }
    let tally = Tally()
    let deadline = Date().addingTimeInterval(duration)
    let threads = (0..<writers).map { writer in
        Thread {
            guard let store = try? CompassStore(path: address) else { return }
            var rng = SplitMix64(seed: UInt64(writer + 1))
            var mine: [Double] = []
            var failed = 0
            while Date() < deadline {
                let family: Int
                if zipf {
                    let u = Double(rng.below(1_000_000)) / 1_000_000
                    family = cumulative.firstIndex { $0 >= u } ?? families - 1
                } else {
                    family = rng.below(families)
                }
                let started = DispatchTime.now().uptimeNanoseconds
                do {
                    try store.append(.changeNotificationSettings(ChangeNotificationSettings(inboundAlerts: rng.below(2) == 0)), as: "u-bench-\(family)")
                    mine.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
                } catch {
                    failed += 1
                }
            }
            tally.lock.lock()
            tally.latencies += mine
            tally.failures += failed
            tally.stores.append(store)
            tally.lock.unlock()
        }
    }
    // Where the cores go during the load: this process (the appenders), the server's processes
    // (`postgres`: backends, WAL writer, checkpointer), and the machine as a whole (/proc).
    func serverSeconds() -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = 0.0
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                  stat[stat.index(after: open)..<close] == "postgres" else { continue }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            total += (Double(fields[11]) ?? 0) / ticks + (Double(fields[12]) ?? 0) / ticks  // utime, stime
        }
        return total
    }
    func ownSeconds() -> Double {
        var usage = rusage()
        getrusage(rusageSelf, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
    func machineBusyAndTotal() -> (Double, Double) {
        let line = ((try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? "").split(separator: "\n").first ?? ""
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard values.count >= 5 else { return (0, 0) }
        let idle = values[3] + values[4]
        let all = values.reduce(0, +)
        return (all - idle, all)
    }
    let (serverBefore, ownBefore, machineBefore) = (serverSeconds(), ownSeconds(), machineBusyAndTotal())
    let wallStarted = Date()
    for thread in threads { thread.start() }
    while threads.contains(where: { !$0.isFinished }) { usleep(50_000) }
    let wall = Date().timeIntervalSince(wallStarted)
    let (serverAfter, ownAfter, machineAfter) = (serverSeconds(), ownSeconds(), machineBusyAndTotal())
    let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
    let sorted = tally.latencies.sorted()
    func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
    print(String(format: "%d writers, %d families%@: %.0f appends/s, p50 %.1f ms, p99 %.1f ms, %d failed",
                 writers, families, zipf ? " (zipf)" : "", Double(sorted.count) / duration, percentile(0.5), percentile(0.99), tally.failures))
    let appends = Double(max(1, sorted.count))
    let busy = (machineAfter.0 - machineBefore.0) / max(1, machineAfter.1 - machineBefore.1)
    print(String(format: "  CPU over %.1f s on %.0f cores: the appenders' process %.1f s (%.0f%% of the cores, %.0f µs an append), the server's processes %.1f s (%.0f%%, %.0f µs an append); the machine %.0f%% busy",
                 wall, cores, ownAfter - ownBefore, 100 * (ownAfter - ownBefore) / (wall * cores), 1e6 * (ownAfter - ownBefore) / appends,
                 serverAfter - serverBefore, 100 * (serverAfter - serverBefore) / (wall * cores), 1e6 * (serverAfter - serverBefore) / appends,
                 100 * busy))

case "projection-lag":
    let address = args[2], target = args[3]
    let families = Int(args[4]) ?? 200, writers = Int(args[5]) ?? 32, duration = Double(args[6]) ?? 10
    // "nice": the appender threads run at nice 10, as if they were app servers on other machines
    // (Linux: a thread's own nice value).
    let niceWriters = args.count > 7 && args[7] == "nice"
    let setup = try CompassStore(path: address)
    let existing = Set(try setup.state().members.keys)
    for index in 0..<families where !existing.contains("u-lagp-\(index)") {
        try setup.append(.addMember(AddMember(userId: "u-lagp-\(index)", fullName: "Parent \(index)", role: .parent, newFamily: "lag-fam-\(index)")),
                         as: "u-lagp-\(index)")
        try setup.append(.addMember(AddMember(userId: "u-laga-\(index)", fullName: "Athlete \(index)", role: .player)), as: "u-lagp-\(index)")
        try setup.append(.addSchool(AddSchool(name: "School \(index)", schoolId: "s-lag")), as: "u-lagp-\(index)")
    }
    let projector = try Projector(source: try CompassStore(path: address), target: target)
    _ = try projector.project()
    final class Acks: @unchecked Sendable {
        let lock = NSLock()
        var pending: [(family: String, seq: Int64, at: UInt64)] = []
        var lags: [Double] = []
        var lines: Int64 = 0
        var rows = 0
    }
    let acks = Acks()
    let deadline = Date().addingTimeInterval(duration)
    let threads = (0..<writers).map { writer in
        Thread {
            #if canImport(Glibc)
            // who 0 is the calling thread on Linux.
            if niceWriters { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
            #endif
            guard let store = try? CompassStore(path: address) else { return }
            var rng = SplitMix64(seed: UInt64(writer + 1))
            while Date() < deadline {
                let family = rng.below(families)
                guard let receipt = try? store.append(.logInteraction(LogInteraction(type: .email, direction: .outbound, schoolId: "s-lag",
                                                                                   subject: "lag \(writer)")), as: "u-laga-\(family)") else { continue }
                let now = DispatchTime.now().uptimeNanoseconds
                acks.lock.withLock { acks.pending.append(("lag-fam-\(family)", receipt.seq, now)) }
            }
        }
    }
    let feed = try setup.feed()
    var passes: [Double] = [], reads: [Double] = [], waits: [Double] = []
    for thread in threads { thread.start() }
    while threads.contains(where: { !$0.isFinished }) || acks.lock.withLock({ !acks.pending.isEmpty }) {
        let passStart = DispatchTime.now().uptimeNanoseconds
        let summary = try projector.project()
        let committed = DispatchTime.now().uptimeNanoseconds
        passes.append(Double(committed - passStart) / 1e6)
        let held = try projector.committedSeqs()
        reads.append(Double(DispatchTime.now().uptimeNanoseconds - committed) / 1e6)
        acks.lock.withLock {
            acks.lines += summary.lines
            acks.rows += summary.rowsWritten
            acks.pending.removeAll { ack in
                guard let seq = held[ack.family], seq >= ack.seq else { return false }
                acks.lags.append(Double(committed > ack.at ? committed - ack.at : 0) / 1e6)  // projected before the writer saw its ack: 0
                return true
            }
        }
        if !threads.contains(where: { !$0.isFinished }), Date() > deadline.addingTimeInterval(30) { break }
        let waitStart = DispatchTime.now().uptimeNanoseconds
        feed.wait(upTo: .milliseconds(200))
        waits.append(Double(DispatchTime.now().uptimeNanoseconds - waitStart) / 1e6)
    }
    let sorted = acks.lags.sorted()
    func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
    print(String(format: "%d writers, %d families: %d appends projected, lag p50 %.0f ms, p99 %.0f ms; %.2f rows written per line; %d never projected",
                 writers, families, sorted.count, percentile(0.5), percentile(0.99), Double(acks.rows) / Double(max(1, acks.lines)), acks.pending.count))
    print(String(format: "%d passes, median %.0f ms, longest %.0f ms; checkpoint reads median %.0f ms; waits median %.0f ms",
                 passes.count, passes.sorted()[passes.count / 2], passes.max() ?? 0, reads.sorted()[reads.count / 2], waits.sorted()[waits.count / 2]))

case "pg-lag":
    let address = args[2]
    let families = Int(args[3]) ?? 1000, writers = Int(args[4]) ?? 32, duration = Double(args[5]) ?? 10
    let erased = args.count > 7 ? (member: args[6], requester: args[7]) : nil
    let setup = try CompassStore(path: address)
    let existing = Set(try setup.state().members.keys)
    for index in 0..<families where !existing.contains("u-bench-\(index)") {
        try setup.append(.addMember(AddMember(userId: "u-bench-\(index)", fullName: "Parent \(index)", role: .parent, newFamily: "bench-fam-\(index)")),
                         as: "u-bench-\(index)")
    }
    final class Clocks: @unchecked Sendable {
        let lock = NSLock()
        var acknowledged: [String: UInt64] = [:]
        var delivered: [String: UInt64] = [:]
        var duplicates = 0
        var appends: [(start: UInt64, end: UInt64)] = []
        var erasure: (start: UInt64, end: UInt64)?
    }
    let clocks = Clocks()
    // Event ids of this run only: a second run on the same store would otherwise retry the
    // first run's ids, acknowledged without a new line, and never delivered.
    let run = getpid()
    let feed = setup.changes()
    let reader = Task.detached {
        for await event in feed where event.id.hasPrefix("lag-") {
            let now = DispatchTime.now().uptimeNanoseconds
            clocks.lock.withLock {
                if clocks.delivered[event.id] != nil { clocks.duplicates += 1 }
                clocks.delivered[event.id] = now
            }
        }
    }
    usleep(500_000)  // the feed has read the store
    let deadline = Date().addingTimeInterval(duration)
    let threads = (0..<writers).map { writer in
        Thread {
            guard let store = try? CompassStore(path: address) else { return }
            var rng = SplitMix64(seed: UInt64(writer + 1))
            var n = 0
            while Date() < deadline {
                n += 1
                let family = rng.below(families), id = "lag-\(run)-\(writer)-\(n)"
                let start = DispatchTime.now().uptimeNanoseconds
                guard (try? store.append(.changeNotificationSettings(ChangeNotificationSettings(inboundAlerts: n % 2 == 0)),
                                         as: "u-bench-\(family)", idempotencyKey: id)) != nil else { continue }
                let end = DispatchTime.now().uptimeNanoseconds
                clocks.lock.withLock {
                    clocks.acknowledged[id] = end
                    clocks.appends.append((start, end))
                }
            }
        }
    }
    for thread in threads { thread.start() }
    if let erased {
        usleep(UInt32(duration * 500_000))
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try setup.erase(member: erased.member, as: erased.requester)
        clocks.lock.withLock { clocks.erasure = (start, DispatchTime.now().uptimeNanoseconds) }
    }
    while threads.contains(where: { !$0.isFinished }) { usleep(50_000) }
    // The last appends' deliveries: until every acknowledged one is delivered, or 30 s pass.
    let catchUp = Date().addingTimeInterval(30)
    while Date() < catchUp, clocks.lock.withLock({ clocks.acknowledged.keys.contains { clocks.delivered[$0] == nil } }) { usleep(100_000) }
    reader.cancel()
    clocks.lock.withLock {
        let lags = clocks.acknowledged.compactMap { id, ack in clocks.delivered[id].map { Double($0 > ack ? $0 - ack : 0) / 1e6 } }.sorted()
        let missing = clocks.acknowledged.keys.filter { clocks.delivered[$0] == nil }.count
        func q(_ values: [Double], _ p: Double) -> Double { values.isEmpty ? 0 : values[min(values.count - 1, Int(Double(values.count) * p))] }
        let latencies = clocks.appends.map { Double($0.end - $0.start) / 1e6 }.sorted()
        print(String(format: "%d writers, %d families: %.0f appends/s, append p99 %.1f ms; feed lag p50 %.1f ms, p99 %.1f ms, max %.1f ms; %d not delivered, %d delivered twice",
                     writers, families, Double(latencies.count) / duration, q(latencies, 0.99), q(lags, 0.5), q(lags, 0.99), lags.last ?? 0,
                     missing, clocks.duplicates))
        if let erasure = clocks.erasure {
            let during = clocks.appends.filter { $0.start < erasure.end && $0.end > erasure.start }.map { Double($0.end - $0.start) / 1e6 }.sorted()
            print(String(format: "erasure of %@: %.1f ms; %d appends of other families overlapped it, their p99 %.1f ms, max %.1f ms",
                         erased!.member, Double(erasure.end - erasure.start) / 1e6, during.count, q(during, 0.99), during.last ?? 0))
        }
    }

case "pg-read":
    // An app's first read on a PostgreSQL store, RUNS times: a new store (connection), then
    // one viewer's interactions list; p50 and p99 of each.
    let address = args[2], user = args[3], runs = Int(args[4]) ?? 50
    var connects: [Double] = [], reads: [Double] = []
    var items = 0
    for _ in 0..<runs {
        var store: CompassStore?
        connects.append(try seconds { store = try CompassStore(path: address) } * 1000)
        reads.append(try seconds { items = try store!.interactions(as: user).items.count } * 1000)
    }
    func p(_ values: [Double], _ q: Double) -> Double { let s = values.sorted(); return s[min(s.count - 1, Int(Double(s.count) * q))] }
    print(String(format: "%@: %d items; connect p50 %.1f ms p99 %.1f ms; first interactions(as:) p50 %.1f ms p99 %.1f ms",
                 user, items, p(connects, 0.5), p(connects, 0.99), p(reads, 0.5), p(reads, 0.99)))
    // On a warm connection (a server's pool): the store has served another family first.
    var warm: [Double] = []
    for _ in 0..<runs {
        let store = try CompassStore(path: address)
        _ = try store.interactions(as: args.count > 5 ? args[5] : user)
        warm.append(try seconds { items = try store.interactions(as: user).items.count } * 1000)
    }
    print(String(format: "%@ on a warm connection: first interactions(as:) p50 %.1f ms p99 %.1f ms", user, p(warm, 0.5), p(warm, 0.99)))

case "hammer":
    // One of several processes appending to the same log at once; the family (parent u-pat,
    // school s-1, family fam) must already exist.
    let count = Int(args[3]) ?? 500
    let worker = args[4]
    let ticks = Ticks()
    let store = try CompassStore(path: args[2], createIfMissing: false, configuration: .init(
        clock: { Timestamp(rfc3339: "2026-01-01T00:00:00Z")! }, makeId: { "w\(worker)-\(ticks.next())" }, snapshots: nil))
    for n in 0..<count {
        try store.append(.changeStatus(ChangeStatus(schoolId: "s-1", newStatus: "contacted", notes: "w\(worker)-\(n)")), as: "u-pat")
    }

default:
    FileHandle.standardError.write(Data("usage: compass-bench decode FILE | appends N FOLDER | hammer LOG N WORKER | first-read LOG USER | feeds LOG N USER | stages FILE | retained FILE\n".utf8))
    exit(2)
}

/// A counter the store's clock and id source share (from 0; `next()` returns it, then counts on).
final class Ticks: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func next() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
}
