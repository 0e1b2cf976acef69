import Foundation
import Testing
import CompassTestSupport

/// Issue 27: every shell block of the README runs, as written, from a fresh temporary folder
/// (its own `HOME`, a copy of the samples, the built `compass` on the PATH), each with
/// `set -euo pipefail`: a command that fails fails the test. ARCHITECTURE.md has no shell
/// blocks (the test checks that too).
///
/// What a test cannot do itself is stood in for, and only that: `swift build` copies the
/// binary already built, `swift run compass` runs it, `swift test` is this run, `apt-get` is
/// the machine's setup, `bash bench/run.sh` is minutes long (CI runs `--smoke` itself); the
/// files a user brings (`offer.pdf`, `transcript.pdf`, `history.jsonl`) are made; the
/// PostgreSQL block runs against a fresh database of the test's server (skipped, loudly,
/// without one).
@Suite struct ReadmeBlockTests {
    /// The bodies of the ```sh blocks.
    static func shellBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```sh" || line == "```bash" {
                current = ""
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current! += line + "\n"
            }
        }
        return blocks
    }

    @Test func everyShellBlockOfTheReadmeRunsFromAFreshFolder() throws {
        let readme = try String(contentsOfFile: Binary.packageRoot + "/README.md", encoding: .utf8)
        let architecture = try String(contentsOfFile: Binary.packageRoot + "/ARCHITECTURE.md", encoding: .utf8)
        #expect(Self.shellBlocks(architecture).isEmpty)
        let blocks = Self.shellBlocks(readme)
        #expect(blocks.count >= 5)
        let database = try PostgresStoreTests.database()
        for (index, block) in blocks.enumerated() {
            var body = block
            if body.contains("postgresql://") {
                guard let database else {
                    print("⚠️  README block \(index + 1) (PostgreSQL) SKIPPED: no server")
                    continue
                }
                body = body.replacingOccurrences(of: "postgresql://compass@db.internal/compass", with: database)
            }
            let folder = NSTemporaryDirectory() + "readme-block-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder + "/home", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try FileManager.default.copyItem(atPath: Binary.packageRoot + "/events-samples", toPath: folder + "/events-samples")
            try FileManager.default.copyItem(atPath: Binary.packageRoot + "/events-samples/family.jsonl", toPath: folder + "/history.jsonl")
            try FileManager.default.copyItem(atPath: Binary.packageRoot + "/events-samples/family.jsonl.attachments",
                                             toPath: folder + "/history.jsonl.attachments")
            for name in ["offer.pdf", "transcript.pdf"] {
                try Data("%PDF-1.4 \(name)\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            }
            let binary = Binary.path
            let script = """
                set -euo pipefail
                cd '\(folder)'
                swift() {
                  case "$1" in
                    run) shift 2; '\(binary)' "$@" ;;
                    build) mkdir -p .build/release; cp '\(binary)' .build/release/compass ;;
                    test) echo "(swift test: this run)" ;;
                  esac
                }
                apt-get() { echo "(apt-get: the machine's setup)"; }
                bash() { if [ "${1:-}" = bench/run.sh ]; then echo "(bench/run.sh: minutes long)"; else command bash "$@"; fi; }
                \(body)
                """
            var env = ProcessInfo.processInfo.environment
            env["HOME"] = folder + "/home"
            env["PATH"] = URL(fileURLWithPath: binary).deletingLastPathComponent().path + ":" + (env["PATH"] ?? "")
            for name in ["COMPASS_LOG", "COMPASS_USER", "COMPASS_TZ"] { env[name] = nil }
            let result = try Binary.runProgram("/bin/bash", ["-c", script], environment: env)
            #expect(result.status == 0, "README block \(index + 1) failed:\n\(body)\n--- stderr:\n\(result.stderr)")
            // The blocks did their work, not just exit 0.
            if body.contains("\"Arizona State\"") { #expect(result.stdout.contains("s-arizona-state") && result.stdout.contains("i-1"), "\(result.stdout)") }
            if body.contains("compass --version") {
                #expect(FileManager.default.isExecutableFile(atPath: folder + "/home/.local/bin/compass"))
                #expect(FileManager.default.fileExists(atPath: folder + "/home/.local/share/man/man1/compass.1"))
            }
            if body.contains("compass db init") { #expect(result.stdout.contains("s-boise-state") && result.stdout.contains("ok"), "\(result.stdout)") }
        }
    }
}
