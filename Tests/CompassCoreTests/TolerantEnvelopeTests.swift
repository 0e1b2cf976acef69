import Testing
@testable import CompassCore

/// Erasure's tolerant reading of a line the parser refuses (SPEC §5): the top-level and
/// `data` keys' string values, however the rest of the line is broken.
@Suite struct TolerantEnvelopeTests {
    static func scan(_ text: String) -> TolerantEnvelope? {
        Array(text.utf8).withUnsafeBufferPointer { TolerantEnvelope($0) }
    }

    @Test func readsEveryValueOfADuplicatedKeyAndTheDataObjectsKeys() throws {
        let line = try #require(Self.scan(#"{"actor":"a","family":"f","actor":"b","data":{"userId":"u","n":{"actor":"deep"},"userId":"v"},"x":[1,"actor"]}"#))
        #expect(line.values("actor") == ["a", "b"])
        #expect(line.values("family") == ["f"])
        #expect(line.data["userId"] == ["u", "v"])
        #expect(line.data["actor"] == nil && line.values("x").isEmpty)
    }

    @Test func aValueThatDoesNotDecodeIsLeftOutAndTheRestIsRead() throws {
        let line = try #require(Self.scan(#"{"actor":"\ud800","family":"f\u0041","type":"T\"q","data":{"name":"\udc00x"}}"#))
        #expect(line.values("actor").isEmpty)
        #expect(line.values("family") == ["fA"])
        #expect(line.first("type") == "T\"q")
        #expect(line.data["name"] == nil)
    }

    @Test func deepNestingIsSkippedWithoutRecursion() throws {
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        let line = try #require(Self.scan(#"{"data":{"d":\#(deep)},"actor":"a"}"#))
        #expect(line.values("actor") == ["a"])
    }

    @Test func aLineThatIsNoObjectOrIsCutOffGivesWhatWasRead() {
        #expect(Self.scan(#"["actor","a"]"#) == nil)
        #expect(Self.scan("") == nil)
        #expect(Self.scan(#"{"actor":"a","family":"f"#)?.values("actor") == ["a"])
        #expect(Self.scan(#"{"actor":"a","family":"f"#)?.values("family").isEmpty == true)
        // Brackets and quotes inside strings do not count.
        #expect(Self.scan(#"{"x":"}{[\"","actor":"a"}"#)?.values("actor") == ["a"])
    }
}
