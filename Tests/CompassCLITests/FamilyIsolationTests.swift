import CompassTestSupport
import Foundation
import Testing
@testable import CompassCLI
@testable import CompassCore
@testable import CompassStore

/// A member of family A never sees an id, name or text that exists only in family B, in any
/// read command, even when passing B's ids on purpose.
@Suite struct FamilyIsolationTests {
    static func forms(_ text: String) -> [String] {
        var w = JSONWriter()
        w.string(text)
        return [String(w.string.dropFirst().dropLast()), text.replacingOccurrences(of: "\"", with: "\"\"")]
    }

    @Test func noReadCommandLeaksAnotherFamily() {
        let property = Property("family isolation in every read command", seed: 21, maxSize: 25, LogGen.history(maxFamilies: 2),
                                shrink: LogShrink.candidates, describe: LogShrink.describe)
        var followChecks = 0
        let failure = property.check(iterations: 15) { events in
            let families = Set(events.map(\.family))
            guard families.count == 2 else { return nil }
            let cli = CLIHarness()
            cli.now = "2026-02-15T12:00:00Z"
            cli.write("events.jsonl", Sealed.text(events))
            let alone = CLIHarness()  // the same family with no other family in the log
            for family in families.sorted() {
                let mine = events.filter { $0.family == family }
                let theirs = events.filter { $0.family != family }
                alone.now = cli.now
                alone.write("events.jsonl", Sealed.text(mine))
                let own = FamilyText.freeText(mine).sorted().joined(separator: "\u{0}")
                let foreign = FamilyText.freeText(theirs).filter { $0.count >= 4 && !own.contains($0) }
                let theirInteractions = theirs.compactMap { if case .interactionLogged(let i) = $0.payload { i.interactionId } else { nil } }
                let theirUsers = theirs.compactMap { if case .memberJoined(let m) = $0.payload { m.userId } else { nil } }
                for viewer in mine.compactMap({ if case .memberJoined(let m) = $0.payload { m } else { nil } }) {
                    var outputs: [String] = []
                    var aloneOutputs: [String] = []
                    var commands = ["interactions --json", "interactions", "analytics --json", "export", "export --json",
                                    "activity --json --page-size 1000", "activity", "audit --json", "audit",
                                    "schools --json", "schools", "coaches --json", "coaches", "members --json", "members",
                                    "documents --json", "documents", "notifications --json", "notifications"]
                    for id in theirInteractions.prefix(3) {
                        commands.append("audit --entity \(id)")
                        commands.append("activity --search \(id)")
                    }
                    for user in theirUsers.prefix(2) { commands.append("audit --actor \(user)") }
                    if viewer.role == .parent { commands += theirUsers.prefix(2).map { "interactions --json --logged-by \($0)" } }
                    for command in commands {
                        let result = cli.run(CLIHarness.words(command) + ["--as", viewer.userId])
                        if result.status != 0 { return "\(command) as \(viewer.userId) failed: \(result.stderr)" }
                        outputs.append(result.stdout)
                        aloneOutputs.append(alone.run(CLIHarness.words(command) + ["--as", viewer.userId]).stdout)
                    }
                    for id in theirInteractions where !mine.contains(where: { if case .interactionLogged(let i) = $0.payload { i.interactionId == id } else { false } }) {
                        let shown = cli.run(["show", id, "--as", viewer.userId, "--json"])
                        if shown.status != 1 || shown.stderr != "error: Interaction not found\n" { return "show \(id) of another family as \(viewer.userId): \(shown.stdout)" }
                    }
                    let visible = try? InteractionViews.list(Sealed.replay(Sealed.bytes(events)).state, viewer: Viewer(viewer.userId, in: Sealed.replay(Sealed.bytes(events)).state), query: InteractionQuery(), now: Timestamp(rfc3339: cli.now)!)
                    for item in visible?.items ?? [] {
                        outputs.append(cli.run(["show", item.id, "--as", viewer.userId, "--json"]).stdout)
                        if viewer.role == .player { outputs.append(cli.run(["show", item.id, "--as", viewer.userId, "--csv"]).stdout) }
                    }
                    if followChecks < 3 {
                        followChecks += 1
                        outputs.append(Self.followOutput(log: cli.logPath, viewer: viewer.userId))
                    }
                    // A leak is text of the other family that shows up only because that family is in the log.
                    let all = outputs.joined(separator: "\n")
                    let baseline = aloneOutputs.joined(separator: "\n")
                    if let leak = foreign.first(where: { text in Self.forms(text).contains { all.contains($0) && !baseline.contains($0) } }) {
                        return "\(viewer.userId) of \(family) sees \"\(leak)\" of another family"
                    }
                }
            }
            return nil
        }
        #expect(failure == nil, Comment(rawValue: failure ?? ""))
    }

    /// What `compass follow --json` prints at start for a viewer (the process is then stopped).
    static func followOutput(log: String, viewer: String) -> String {
        guard let (process, collector) = try? FollowTests.startFollow(log: log, as: viewer) else { return "" }
        usleep(400_000)
        process.terminate()
        process.waitUntilExit()
        return collector.lines.joined(separator: "\n")
    }
}
