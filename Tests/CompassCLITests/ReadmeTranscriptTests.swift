import Foundation
import Testing
import CompassTestSupport

/// Issue 27: the README's transcripts are what the tool prints. Every `$ command` line of the
/// README, in order, runs in one bash session from a copy of the package's samples (with the
/// built `compass` first on the PATH and the README's `COMPASS_LOG`), and its output must be the
/// lines the README shows under it, byte for byte.
@Suite struct ReadmeTranscriptTests {
    struct Step {
        var command: String
        var expected: String
    }

    /// The transcript steps: in code blocks, a `$ ` line and the lines up to the next one.
    static func steps(_ readme: String) -> [Step] {
        var steps: [Step] = []
        var inBlock = false, capturing = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
                capturing = false
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2)), expected: ""))
                capturing = true
            } else if capturing {
                steps[steps.count - 1].expected += line + "\n"
            }
        }
        return steps
    }

    @Test func everyReadmeTranscriptReproducesByteForByte() throws {
        let readme = try String(contentsOfFile: Binary.packageRoot + "/README.md", encoding: .utf8)
        var steps = Self.steps(readme)
        // A block ends its transcript at the closing fence: drop the fence's own text, if any.
        #expect(steps.count >= 20)
        let folder = NSTemporaryDirectory() + "readme-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: Binary.packageRoot + "/events-samples", toPath: folder + "/events-samples")
        // The import example's file: ten good lines, then the two the README shows rejected.
        var batch = (1...10).map { #"{"type":"SchoolAdded","actor":"u-pat","data":{"schoolId":"s-batch-\#($0)","name":"Batch \#($0)"}}"# + "\n" }.joined()
        batch += "{not json\n"
        batch += #"{"type":"InteractionLogged","actor":"u-pat","data":{"interactionId":"i-batch","schoolId":"s-ucla","type":"email","direction":"inbound"}}"# + "\n"
        try Data(batch.utf8).write(to: URL(fileURLWithPath: folder + "/batch.jsonl"))
        let marker = "::readme-step::"
        var script = "cd '\(folder)'\nexport COMPASS_LOG=events-samples/family.jsonl COLUMNS=80\nunset COMPASS_USER COMPASS_TZ TZ NO_COLOR\n"
        script += "compass() { '\(Binary.path)' \"$@\"; }\nswift() { shift 2; compass \"$@\"; }\nexport -f compass swift\n"
        for (index, step) in steps.enumerated() {
            script += "echo '\(marker)\(index)'\n\(step.command) 2>&1\n"
        }
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = URL(fileURLWithPath: Binary.path).deletingLastPathComponent().path + ":" + (env["PATH"] ?? "")
        let output = try Binary.tool("/bin/bash", ["-c", script], environment: env)
        let parts = output.components(separatedBy: marker).dropFirst()
        for part in parts {
            guard let newline = part.firstIndex(of: "\n"), let index = Int(part[..<newline]) else { continue }
            steps[index].command = steps[index].command  // (kept for the message)
            let printed = String(part[part.index(after: newline)...])
            #expect(printed == steps[index].expected, "README step: $ \(steps[index].command)\n--- printed:\n\(printed)--- README:\n\(steps[index].expected)")
        }
        #expect(parts.count == steps.count)
    }
}
