import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// Issue 56: the primary of a real pg_auto_failover formation (a monitor, a primary and a
/// synchronous standby on loopback, started by `.ci/formation.sh`) dies under eight writers,
/// three times, the old primary rejoining as the standby each time, and its PostgreSQL alone
/// crashes once (its keeper starts it again). Every
/// acknowledged append is stored exactly once, every chain verifies, and the feeds (`compass
/// follow` and an app's) deliver each line once and never one the store does not keep.
///
/// Runs where `COMPASS_FORMATION` names the formation's folder (`.ci/run` starts one); counted
/// as skipped elsewhere, and a failure when `COMPASS_REQUIRE_FORMATION=1` and none is named.
@Suite(.serialized, .enabled(if: Formation.named != nil, "no pg_auto_failover formation (COMPASS_FORMATION; .ci/run starts one)"))
struct FailoverTests {
    @Test func acknowledgedAppendsSurviveThreeFailoversAndACrashUnderEightWriters() async throws {
        let formation = try #require(Formation.named)
        let address = try formation.freshDatabase()
        let families = 4, writersPerFamily = 2
        let setup = try CompassStore(path: address)
        for family in 0..<families {
            try setup.append(.addMember(AddMember(userId: "u-p\(family)", fullName: "Parent \(family)", role: .parent, newFamily: "fam-\(family)")),
                             as: "u-p\(family)")
            try setup.append(.addMember(AddMember(userId: "u-k\(family)", fullName: "Player \(family)", role: .player)), as: "u-p\(family)")
            try setup.append(.addSchool(AddSchool(name: "UCLA", schoolId: "s-ucla")), as: "u-p\(family)")
        }

        // `compass follow` on one family, and an app's store-wide feed in this process.
        let printed = NSTemporaryDirectory() + "failover-follow-\(UUID().uuidString).out"
        FileManager.default.createFile(atPath: printed, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: printed) }
        let follow = try ReliabilityTests.start(["follow", "--as", "u-p0", "--json", "--log", address, "--interval", "100"],
                                                output: FileHandle(forWritingAtPath: printed)!)
        defer { if follow.isRunning { kill(follow.processIdentifier, SIGKILL) } }
        let delivered = Locked<[String]>([])
        let feed = try CompassStore(path: address).changes(every: .milliseconds(100))
        let reader = Task.detached { for await event in feed { delivered.mutate { $0.append(event.id) } } }
        defer { reader.cancel() }

        // Eight writers, two per family: four app servers' stores and four `compass` command
        // lines. Each retries its event's id until it is acknowledged.
        let acknowledged = Locked<[(id: String, at: ContinuousClock.Instant)]>([])
        let stopping = Locked(false)
        let unacknowledged = Locked<[String]>([])
        let writers = (0..<families * writersPerFamily).map { writer in
            Thread {
                let family = writer % families
                var store = try? CompassStore(path: address)
                var n = 0
                while !stopping.value {
                    n += 1
                    let id = "w\(writer)-\(n)"
                    let command = Command.logInteraction(LogInteraction(type: .email, direction: .outbound, schoolId: "s-ucla", subject: id))
                    let giveUp = ContinuousClock.now + .seconds(120)
                    var done = false
                    while !done, ContinuousClock.now < giveUp {
                        if writer < families {
                            // An app server's store in this process.
                            if store == nil { store = try? CompassStore(path: address) }
                            done = store.map { (try? $0.append(command, as: "u-k\(family)", idempotencyKey: id)) != nil } ?? false
                        } else {
                            // `compass log-interaction --event-id`, a process per try.
                            done = PostgresStoreTests.spawnAndWait([Binary.path, "log-interaction", "--log", address, "--as", "u-k\(family)",
                                "--school", "s-ucla", "--type", "email", "--direction", "outbound", "--subject", id, "--event-id", id]) == 0
                        }
                        if done { acknowledged.mutate { $0.append((id, ContinuousClock.now)) } } else { usleep(50_000) }
                    }
                    if !done { unacknowledged.mutate { $0.append(id) } }
                }
            }
        }
        for writer in writers { writer.start() }
        defer { stopping.value = true }

        var pauses: [Duration] = []
        try await Task.sleep(for: .seconds(3))
        // Three failovers, and between the first two a crash of the primary's PostgreSQL alone
        // (its keeper starts it again: the node serves what it committed before the crash).
        for round in ["node", "postmaster", "node", "node"] {
            let before = acknowledged.value.count
            let killedAt = ContinuousClock.now
            let node = round == "node" ? try formation.killPrimary() : try formation.killPostmaster()
            // The pause: the longest wait for an acknowledgment from the kill on (appends in
            // flight may still be acknowledged just after it, their commits on the standby).
            var pause: Duration?
            for _ in 0..<1200 where pause == nil {
                try await Task.sleep(for: .milliseconds(50))
                let times = acknowledged.value.map(\.at).filter { $0 > killedAt }
                guard let last = times.last, last - killedAt > .seconds(1), ContinuousClock.now - last < .seconds(1),
                      times.count > 50 else { continue }
                pause = zip([killedAt] + times, times).map { $1 - $0 }.max()
            }
            pauses.append(try #require(pause, "appends did not resume within 60 s of killing \(node)"))
            try await Task.sleep(for: .seconds(2))
            #expect(acknowledged.value.count > before)
            if round == "node" { try formation.rejoin(node) }
            try formation.waitHealthy()
            try await Task.sleep(for: .seconds(2))
        }
        stopping.value = true
        while writers.contains(where: { !$0.isFinished }) { try await Task.sleep(for: .milliseconds(20)) }

        #expect(unacknowledged.value.isEmpty, "appends never acknowledged in 120 s: \(unacknowledged.value)")

        // Every acknowledged append is stored exactly once, and every chain verifies.
        let ids = acknowledged.value.map(\.id)
        let store = try CompassStore(path: address)
        let state = try store.state()
        for id in ids { #expect(state.eventIds.contains(id), "acknowledged \(id) is missing after the failovers") }
        let counted = try PostgresConnection(address).run("SELECT count(*), count(DISTINCT event_id) FROM events WHERE event_id LIKE 'w%'")
        let (lines, distinct) = (Int(counted[0, 0] ?? "") ?? -1, Int(counted[0, 1] ?? "") ?? -2)
        #expect(lines == distinct && lines >= ids.count, "\(lines) lines for \(distinct) ids, \(ids.count) acknowledged")
        var logged = 0
        for family in state.families.values { logged += family.interactions.count }
        #expect(logged == lines, "every stored line is one interaction: nothing written twice under two ids")
        #expect(try store.verify().ok)
        let stored = Set(try PostgresConnection(address).run("SELECT event_id FROM events WHERE event_id LIKE 'w%'").rows.compactMap { $0[0] })

        // The feeds: each line once, none the store lost.
        for _ in 0..<200 where !Set(delivered.value).isSuperset(of: stored) { try await Task.sleep(for: .milliseconds(100)) }
        let fed = delivered.value.filter { $0.hasPrefix("w") }
        #expect(Set(fed) == stored, "the app's feed delivered \(Set(fed).count) of \(stored.count) lines")
        #expect(fed.count == Set(fed).count, "the app's feed delivered a line twice")
        let family0 = stored.filter { id in Int(String(id.dropFirst().prefix { $0 != "-" }))! % families == 0 }
        var followed: [String] = []
        for _ in 0..<200 {
            followed = Self.printedIds(printed).filter { $0.hasPrefix("w") }
            if Set(followed).isSuperset(of: family0) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(follow.isRunning, "compass follow died in a failover")
        #expect(Set(followed) == family0, "follow printed \(Set(followed).count) of fam-0's \(family0.count) lines")
        #expect(followed.count == Set(followed).count, "follow printed a line twice")
        kill(follow.processIdentifier, SIGTERM)
        follow.waitUntilExit()

        let seconds = pauses.map { String(format: "%.1f s", Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) }
        print("failover: \(ids.count) appends acknowledged by 8 writers through 3 failovers and a crash, none lost or doubled; "
              + "pauses \(seconds.joined(separator: ", "))")
    }

    /// The descriptions (here, the event ids) of the timeline items `compass follow --json`
    /// printed, in order.
    static func printedIds(_ path: String) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["description"] as? String
        }
    }
}

/// CI requires the failover suite to run when it says a formation is there.
@Suite struct FormationRequirementTests {
    @Test func aRequiredFormationIsNamed() {
        #expect(ProcessInfo.processInfo.environment["COMPASS_REQUIRE_FORMATION"] != "1" || Formation.named != nil,
                "COMPASS_REQUIRE_FORMATION is set but COMPASS_FORMATION names no formation with a url file")
    }
}

/// The formation `.ci/formation.sh up DIR` started, driven through the same script.
struct Formation: Sendable {
    let directory: String
    let url: String

    /// The formation named by `COMPASS_FORMATION`, once its folder holds the URL (`.ci/run`
    /// starts it while the tests build: waited for up to 5 minutes, unless it failed).
    static let named: Formation? = {
        guard let directory = ProcessInfo.processInfo.environment["COMPASS_FORMATION"] else { return nil }
        for _ in 0..<3000 {
            if let url = try? String(contentsOfFile: directory + "/url", encoding: .utf8) {
                return Formation(directory: directory, url: url.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if FileManager.default.fileExists(atPath: directory + ".failed") { return nil }
            usleep(100_000)
        }
        return nil
    }()

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".ci/formation.sh").path

    /// A new, initialized database in the formation; its multi-host address.
    func freshDatabase() throws -> String {
        let name = "compass_failover_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection(url).run("CREATE DATABASE \(name)")
        let address = url.replacingOccurrences(of: "/compass?", with: "/\(name)?")
        // The standby replays the new database a moment after the primary made it; until then
        // libpq, asked the standby first, stops at its "does not exist".
        for _ in 0..<100 {
            if (try? CompassStore.initializeDatabase(address)) != nil { return address }
            usleep(100_000)
        }
        _ = try CompassStore.initializeDatabase(address)
        return address
    }

    /// SIGKILLs the primary's keeper and postmaster; the node's name.
    func killPrimary() throws -> String { try run("kill-primary") }
    /// SIGKILLs the primary's postmaster only; the node's name.
    func killPostmaster() throws -> String { try run("kill-postmaster") }
    /// Starts a killed node again: it rejoins as the standby.
    func rejoin(_ node: String) throws { _ = try run("rejoin", node) }
    /// Waits until one node is primary and the other a synchronous secondary.
    func waitHealthy() throws { _ = try run("wait") }

    private func run(_ arguments: String...) throws -> String {
        // Spawned and waited for by pid, its output into a file: a keeper the script leaves
        // running would hold a pipe open.
        let path = NSTemporaryDirectory() + "formation-\(UUID().uuidString).out"
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: path + ".err") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, path + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let words = ["/bin/bash", Self.script, arguments[0], directory] + arguments.dropFirst()
        var argv = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        var status: Int32 = 0
        guard posix_spawn(&pid, "/bin/bash", &actions, nil, &argv, environ) == 0 else { throw POSIXError(.ENOEXEC) }
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        guard status == 0 else {
            let said = (try? String(contentsOfFile: path + ".err", encoding: .utf8)) ?? ""
            throw FormationError(description: "formation.sh \(arguments.joined(separator: " ")) failed (\(status)): \(said)")
        }
        let output = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A formation script that failed, with what it said.
struct FormationError: Error, CustomStringConvertible {
    let description: String
}
