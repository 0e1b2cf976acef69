// Every ```swift example of a doc comment in Sources is code the compiler checked.
import Foundation
import Testing

@Suite struct DocExamplesTests {
    /// The package's root folder.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each example of the doc comments of `text`, its lines without `///` and trimmed.
    static func examples(in text: String) -> [[String]] {
        var examples: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("///") else { current = nil; continue }
            let body = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
            if current == nil, body == "```swift" { current = []; continue }
            if current != nil, body == "```" { examples.append(current!); current = nil; continue }
            if current != nil, !body.isEmpty { current!.append(body) }
        }
        return examples
    }

    @Test func everyDocCommentExampleIsCompiledInDocExamples() throws {
        let compiled = try String(contentsOf: Self.root.appendingPathComponent("Tests/CompassCLITests/DocExamples.swift"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let sources = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources").path)!
        var checked = 0
        for case let path as String in sources where path.hasSuffix(".swift") {
            let text = try String(contentsOf: Self.root.appendingPathComponent("Sources/" + path), encoding: .utf8)
            for example in Self.examples(in: text) where !example.isEmpty {
                let found = compiled.indices.contains { start in
                    start + example.count <= compiled.count && Array(compiled[start..<start + example.count]) == example
                }
                #expect(found, "the example in \(path) is not in DocExamples.swift as written:\n\(example.joined(separator: "\n"))")
                checked += 1
            }
        }
        #expect(checked >= 8)
    }
}
