import Testing
@testable import CompassCore

@Suite struct JSONParserTests {
    @Test func parsesEveryKindKeepingKeyOrder() throws {
        let value = try #require(JSONParser.parse(#" {"b":1,"a":[true,false,null],"c":{"d":"x\u00e9\ud83d\udd25\n"},"e":-0.5e1} "#))
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.members.map(\.key) == ["b", "a", "c", "e"])
        #expect(object["b"] == .int(1))
        #expect(object["a"] == .array([.bool(true), .bool(false), .null]))
        #expect(object["c"] == .object(JSONObject([.init("d", .string("xé🔥\n"))])))
        #expect(object["e"] == .number(-5))
    }

    @Test func integersStayIntegersAndFractionsDoNot() {
        #expect(JSONParser.parse("12") == .int(12))
        #expect(JSONParser.parse("12.0") == .number(12))
        #expect(JSONParser.parse("1e2") == .number(100))
        #expect(JSONParser.parse("99999999999999999999") == .number(1e20))
    }

    @Test(arguments: [
        "", "{", "{\"a\":1,}", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"abc", "{\"a\":1}x",
        "{\"a\":1,\"a\":2}",          // duplicate key
        "\"\\ud800\"",                // lone high surrogate
        "\"\\udc00\"",                // lone low surrogate
        "\"\u{01}\"",                 // raw control character
        "\"\\x\"",                    // unknown escape
    ])
    func rejectsInvalidDocuments(text: String) {
        #expect(JSONParser.parse(text) == nil)
    }

    @Test func rejectsInvalidUTF8() {
        #expect(JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) == nil)
        #expect(JSONParser.parse([0x22, 0xFF, 0x22]) == nil)
    }

    @Test func limitsNestingDepth() {
        let ok = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(JSONParser.parse(ok) != nil)
        #expect(JSONParser.parse(deep) == nil)
    }

    @Test func writerEscapesOnlyQuotesBackslashesAndControls() {
        var w = JSONWriter()
        w.string("a\"b\\c/d\u{01}\n🔥é")
        #expect(w.string == #""a\"b\\c/d\u0001\n🔥é""#)
    }
}
