import Testing
@testable import CompassCore
import CompassTestSupport

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

/// The tape parser against the first, tree-building parser (kept in the test support as
/// ``ReferenceJSONParser``): on every input both accept, or both reject, and build the same tree.
@Suite struct JSONParserDifferentialTests {
    static let fragments: [[UInt8]] = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud83d", "\\ude00", "\\udc00", "\\ud800", "\\n", "\\/",
        "\\x", "0", "-", "-0", "1", "12", "1.5", "1e9", "1E+2", "1e-", ".", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1e999", "true", "false",
        "null", "nul", " ", "\t", "\r", "\n", "a", "é", "e\u{301}", "🔥", "\"k\"", "\"k\":", "\"seq\":1,",
        "\"é\":1,", "\"e\u{301}\":2", "\"\\u00e9\":3,", "\"\\u0065\":4",
    ].map { Array($0.utf8) } + [[0xC3], [0xC3, 0xA9], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xF0, 0x9F, 0x94, 0xA5], [0xC0, 0xAF], [0xFF], [0x00], [0x1F], [0x7F], [0xEF, 0xBB, 0xBF], [0xE2, 0x82]]

    /// Random byte strings made of JSON-shaped fragments: most invalid, some valid.
    static var fragmentSoup: Gen<[UInt8]> { Gen { rng, size in
        var bytes: [UInt8] = []
        for _ in 0..<(1 + rng.below(size * 2 + 2)) { bytes += fragments[rng.below(fragments.count)] }
        return bytes
    } }

    /// Valid documents written with random white space and escapes, sometimes mutated.
    static var documents: Gen<[UInt8]> { Gen { rng, size in
        func text(_ rng: inout SplitMix64) -> String {
            let pieces = ["a", "k", "é", "e\u{301}", "🔥", "\\n", "\\u00e9", "\\ud83d\\udd25", "\\\"", "\\\\", "\\/", " "]
            return (0..<rng.below(4)).map { _ in pieces[rng.below(pieces.count)] }.joined()
        }
        func value(_ rng: inout SplitMix64, depth: Int) -> String {
            let ws = [" ", "", "\n", "\t", "\r\n"][rng.below(5)]
            switch depth > 3 ? rng.below(4) : rng.below(7) {
            case 0: return ["0", "-1", "12", "-0", "1.25", "2e3", "9223372036854775808", "-9223372036854775808"][rng.below(8)]
            case 1: return ["true", "false", "null"][rng.below(3)]
            case 2, 3: return "\"" + text(&rng) + "\""
            case 4, 5:
                let members = (0..<rng.below(5)).map { _ in "\(ws)\"\(text(&rng))\"\(ws):\(ws)\(value(&rng, depth: depth + 1))" }
                return "{" + members.joined(separator: ",") + ws + "}"
            default:
                return "[" + (0..<rng.below(5)).map { _ in ws + value(&rng, depth: depth + 1) }.joined(separator: ",") + "]"
            }
        }
        var bytes = Array(value(&rng, depth: 0).utf8)
        if rng.below(3) == 0, !bytes.isEmpty {
            for _ in 0..<(1 + rng.below(3)) { bytes[rng.below(bytes.count)] = fragments[rng.below(fragments.count)].first ?? 0x20 }
        }
        return bytes
    } }

    static func agree(_ bytes: [UInt8]) -> String? {
        let tape = JSONParser.parse(bytes)
        let reference = ReferenceJSONParser.parse(bytes)
        guard tape == reference else {
            return "tape parser gave \(String(describing: tape)), reference \(String(describing: reference))"
        }
        return nil
    }

    @Test func agreesOnFragmentSoup() {
        let property = Property("tape parser == reference parser (fragments)", seed: 71, maxSize: 60, Self.fragmentSoup,
                                describe: { String(decoding: $0, as: UTF8.self).debugDescription })
        #expect(property.check(iterations: 20_000, Self.agree) == nil)
    }

    @Test func agreesOnGeneratedDocuments() {
        let property = Property("tape parser == reference parser (documents)", seed: 72, Self.documents,
                                describe: { String(decoding: $0, as: UTF8.self).debugDescription })
        var accepted = 0
        #expect(property.check(iterations: 5_000) { bytes in
            if JSONParser.parse(bytes) != nil { accepted += 1 }
            return Self.agree(bytes)
        } == nil)
        #expect(accepted > 2_000)  // the generator is not only producing garbage
    }

    @Test func agreesOnMutatedLogLines() {
        var rng = SplitMix64(seed: 73)
        let lines = Sealed.lines(LogGen.history(maxFamilies: 2).sample(seed: 74, size: 60))
        for _ in 0..<5_000 {
            var line = lines[rng.below(lines.count)]
            for _ in 0..<rng.below(3) where !line.isEmpty { line[rng.below(line.count)] ^= UInt8(1 << rng.below(8)) }
            #expect(Self.agree(line) == nil)
        }
    }

    @Test func rejectsDuplicateKeysInLargeObjectsToo() {
        let keys = (0..<100).map { "\"k\($0)\":\($0)" }
        #expect(JSONParser.parse("{" + keys.joined(separator: ",") + "}") != nil)
        #expect(JSONParser.parse("{" + keys.joined(separator: ",") + ",\"k7\":0}") == nil)
        #expect(JSONParser.parse("{" + keys.joined(separator: ",") + ",\"k\\u0037\":0}") == nil)
    }

    /// The scanner skips the pairwise check for a key whose fingerprint bit is new: a repeat
    /// is still found at every position, written plainly or with escapes on either side.
    @Test func findsARepeatedKeyAtEveryPositionOfSmallObjects() {
        for count in 1...40 {
            let keys = (0..<count).map { "\"key\($0)\":\($0)" }
            #expect(JSONParser.parse("{" + keys.joined(separator: ",") + "}") != nil)
            for repeated in 0..<count {
                let plain = "{" + keys.joined(separator: ",") + ",\"key\(repeated)\":0}"
                let escapedLater = "{" + keys.joined(separator: ",") + ",\"\\u006bey\(repeated)\":0}"
                let escapedFirst = "{\"\\u006bey\(repeated)\":0," + keys.joined(separator: ",") + "}"
                #expect(JSONParser.parse(plain) == nil, "\(plain)")
                #expect(JSONParser.parse(escapedLater) == nil, "\(escapedLater)")
                #expect(JSONParser.parse(escapedFirst) == nil, "\(escapedFirst)")
            }
        }
    }
}

/// The envelope read from the tape (`EnvelopeReader`, through ``PreparedLine``) against the
/// reference decoder on the built tree (`ReferenceEnvelope` and the payload's rules on the tree).
@Suite struct EnvelopeReaderTests {
    /// What replay makes of a line, as compared: content, event, readable fields, keys.
    struct Read: Equatable, CustomStringConvertible {
        var content: PreparedLine.Content
        var event: Event
        var seq: Int64?
        var at: Timestamp?
        var prev: LineHead?
        var family: String?
        var keys: LineKeys?

        var description: String { "\(content) \(event) seq \(seq as Any) at \(at as Any) prev \(prev as Any) family \(family as Any)" }
    }

    static func prepared(_ line: [UInt8], keepingPayload: Bool) -> Read {
        var tape = JSONTape()
        let read = line.withUnsafeBufferPointer { PreparedLine($0, keepingPayload: keepingPayload, tape: &tape) }
        return Read(content: read.content, event: read.event, seq: read.readableSeq, at: read.readableAt, prev: read.prev,
                    family: read.readableFamily, keys: read.keys)
    }

    /// The line read through the built tree, field by field.
    static func reference(_ line: [UInt8], keepingPayload: Bool) -> Read {
        guard let value = JSONParser.parse(line) else {
            let blank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            return Read(content: blank ? .blank : .invalid, event: .none)
        }
        guard case .object(let object) = value else { return Read(content: .invalid, event: .none) }
        var seq: Int64?, prev: String?, family: String?, at: Timestamp?
        if case .int(let number)? = object["seq"], (1...Envelope.maxSeq).contains(number) { seq = number }
        if case .string(let text)? = object["prev"] { prev = text }
        if case .string(let text)? = object["family"], Identifier.isValid(text) { family = text }
        do {
            var draft = try ReferenceEnvelope.decode(object)
            // Without kept payloads, `prev` is the line's, not also the event's.
            if !keepingPayload { draft.prev = nil }
            let payload = Result { () throws(EventError) in try Rules.payloadIgnoringState(draft, sanitizing: false) }
            let keys = LineKeys(id: draft.id, actor: draft.actor, family: draft.family, result: payload)
            let decoded = PreparedLine.Content.decoded(draft, payload, keepingPayload: keepingPayload)
            return Read(content: decoded.content, event: decoded.event, seq: seq, at: draft.at, prev: prev.map(LineHead.text),
                        family: family, keys: keys)
        } catch {
            if ReferenceEnvelope.isErasureOutsideStreams(object) { return Read(content: .erasedOutsideStreams, event: .none) }
            if case .string(let text)? = object["at"] { at = Timestamp(rfc3339: text) }
            return Read(content: .badEnvelope(error), event: .none, seq: seq, at: at, prev: prev.map(LineHead.text), family: family)
        }
    }

    /// A line with every envelope field left out in turn, or given a value of every kind (and
    /// some of its own kind that break its rule).
    static func everyFieldOfEveryKind() -> [[UInt8]] {
        let fields: [(String, String)] = [
            ("seq", "1"), ("id", #""e-1""#), ("type", #""SchoolAdded""#), ("at", #""2026-01-01T00:00:00Z""#), ("actor", #""u""#),
            ("family", #""f""#), ("data", #"{"schoolId":"s","name":"n"}"#), ("v", "1"),
            ("prev", #""0000000000000000000000000000000000000000000000000000000000000000""#),
        ]
        let values = ["null", "5", "-1", "0", "1.5", "1e3", "true", #""x""#, #""""#, "{}", "[]", #""2026-01-01""#, #""e 1""#]
        var lines: [[UInt8]] = []
        for index in fields.indices {
            for value in [nil] + values.map(Optional.some) {
                let members = fields.enumerated().compactMap { other, field -> String? in
                    guard other == index else { return "\"\(field.0)\":\(field.1)" }
                    return value.map { "\"\(field.0)\":\($0)" }
                }
                lines.append(Array(("{" + members.joined(separator: ",") + "}").utf8))
            }
        }
        return lines
    }

    @Test func readsEveryLineAsTheReferenceOnTheTreeDoes() {
        var rng = SplitMix64(seed: 0xE4)
        var lines = Sealed.lines(LogGen.history(maxFamilies: 2).sample(seed: 75, size: 80))
        lines += LogGen.adversarial().sample(seed: 76, size: 40).lines
        lines += [
            #"{"seq":1,"id":"e-1","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{"schoolId":"s","name":"n"},"v":1}"#,
            #"{"seq":1,"id":"e-1","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{},"prev":null}"#,
            #"{"seq":0,"id":"e-1","type":"Nope","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{}}"#,
            #"{"seq":1,"id":"e\u002d1","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{}}"#,
            #"{"seq":1,"id":"e-1","type":"SchoolAdded","at":"2026-13-01T00:00:00Z","actor":"u","family":"f","data":{}}"#,
            #"{"extra":[1,2],"seq":1,"id":"e-1","type":"SchoolAdded","at":"2026-01-01T00:00:00+02:00","actor":"u","family":"f","data":{"x":{"y":1}}}"#,
            // Envelope keys and values written with escapes: read by what they decode to.
            #"{"s\u0065q":1,"id":"e-1","typ\u0065":"School\u0041dded","at":"2026-01-01T00:00:00\u005a","actor":"\u0075","family":"f","data":{"schoolId":"s","name":"n"},"prev":"\u0030000000000000000000000000000000000000000000000000000000000000"}"#,
            #"{"seq":1,"id":"e-1","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{},"v":null,"prev":"ABCDEF0000000000000000000000000000000000000000000000000000000000"}"#,
            #"{"seq":9007199254740992,"id":"e-1","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{}}"#,
            #"{"seq":18446744073709551616,"id":"e-1","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{}}"#,
            #"{"seq":1,"id":"e-1","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{},"v":2.0}"#,
            #"{"type":"Erased","actor":"-","data":{"was":"0000000000000000000000000000000000000000000000000000000000000000"}}"#,
            #"{"type":"Erased","actor":"\u002d","data":{"w\u0061s":"0000000000000000000000000000000000000000000000000000000000000000"}}"#,
            // Payload keys written with escapes: read by what they decode to (an object with a
            // key that is not plain gives no key filter, so every lookup searches it).
            #"{"seq":1,"id":"e-1","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{"schoolId":"s","n\u0061me":"UCLA"}}"#,
            #"{"seq":1,"id":"e-1","type":"InteractionLogged","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{"\u0069nteractionId":"i-1","schoolId":"s","type":"email","direction":"inbound","conten\u0074":"hi","subject":"x"}}"#,
            #"{"seq":1,"id":"e-1","type":"InteractionLogged","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":{"interactionId":"i-1","schoolId":"s","type":"email","direction":"inbound","sentiment":"positive","\u0069nterestAnswers":[true,true,false,false,true,true]}}"#,
            #"[1,2]"#, #"42"#, #"{}"#, "", "  ",
        ].map { Array($0.utf8) }
        lines += Self.everyFieldOfEveryKind()
        var decoded = 0
        for round in 0..<4 {
            for original in lines {
                var line = original
                if round > 0 {
                    for _ in 0..<round where !line.isEmpty { line[rng.below(line.count)] ^= UInt8(1 << rng.below(8)) }
                }
                for keepingPayload in [true, false] {
                    let read = Self.prepared(line, keepingPayload: keepingPayload)
                    #expect(read == Self.reference(line, keepingPayload: keepingPayload),
                            "\(keepingPayload ? "kept" : "not kept"): \(String(decoding: line, as: UTF8.self))")
                    if case .badEnvelope = read.content {} else if read.keys != nil { decoded += 1 }
                }
            }
        }
        #expect(decoded > lines.count)  // not vacuous: most lines have a readable envelope
    }
}

/// What `import` makes of a line against the reference: the built tree, the reference envelope
/// decoder with import's defaults, and the payload built from the draft (markup stripped).
@Suite struct ImportDecoderTests {
    static let now = Timestamp(rfc3339: "2026-03-01T00:00:00Z")!

    /// The draft (its `data` only where the payload did not build) and payload, or the message.
    static func reference(_ line: [UInt8]) -> String {
        guard let value = JSONParser.parse(line) else {
            return line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } ? "blank" : "problem invalid JSON"
        }
        guard case .object(let object) = value else { return "problem invalid JSON" }
        do {
            var draft = try ReferenceEnvelope.decode(object, defaults: ImportDefaults(makeId: { ImportDecoder.missingId }, at: now))
            draft.prev = nil  // checked, not kept: sealing writes an imported line's own
            let payload = Result { () throws(EventError) in try Rules.payloadIgnoringState(draft, sanitizing: true) }
            if payload.succeeded { draft.data = JSONObject() }
            return "draft \(draft) \(payload)"
        } catch {
            return "problem \(error.message)"
        }
    }

    static func decoded(_ line: [UInt8]) -> String {
        var tape = JSONTape()
        switch line.withUnsafeBufferPointer({ ImportDecoder.decode($0, at: now, sanitizing: true, tape: &tape) }) {
        case .blank: return "blank"
        case .problem(let error): return "problem \(error.message)"
        case .draft(let draft, let payload): return "draft \(draft) \(payload)"
        }
    }

    @Test func readsEveryLineAsTheReferenceOnTheTreeDoes() {
        var rng = SplitMix64(seed: 0x1D)
        var lines = Sealed.lines(LogGen.history(maxFamilies: 2).sample(seed: 77, size: 80))
        lines += LogGen.adversarial().sample(seed: 78, size: 40).lines
        // Export-shaped lines: envelope fields left out for import's defaults.
        lines += [
            #"{"type":"SchoolAdded","actor":"u-pat","data":{"schoolId":"s-rice","name":"<b>Rice</b>"}}"#,
            #"{"id":"web-1","type":"InteractionLogged","actor":"u-maya","at":"2026-02-01T10:00:00Z","data":{"interactionId":"i-7","schoolId":"s-ucla","type":"email","direction":"inbound","subject":"<b>Hi</b>"}}"#,
            #"{"actor":"u-maya","data":{}}"#, "   ", "", #"{oops"#, #"[1]"#,
            #"{"seq":null,"id":"e-1","type":"SchoolAdded","at":"2026-01-01T00:00:00Z","actor":"u","data":{"schoolId":"s","name":"n"}}"#,
            #"{"id":"e-1","type":"SchoolAdded","at":null,"actor":"u","family":null,"data":{"schoolId":"s","name":"n"}}"#,
        ].map { Array($0.utf8) }
        lines += EnvelopeReaderTests.everyFieldOfEveryKind()
        // An app's lines: a history's without `seq` and `prev`, then also without `id`, `at` or `family`.
        let history = Sealed.lines(LogGen.history(maxFamilies: 2).sample(seed: 79, size: 60))
        for (index, line) in history.enumerated() {
            lines.append(Self.leavingOut(["seq", "prev"] + [["id"], ["at"], ["family"], []][index % 4], of: line))
        }
        for round in 0..<4 {
            for original in lines {
                var line = original
                if round > 0 {
                    for _ in 0..<round where !line.isEmpty { line[rng.below(line.count)] ^= UInt8(1 << rng.below(8)) }
                }
                #expect(Self.decoded(line) == Self.reference(line), "\(String(decoding: line, as: UTF8.self))")
            }
        }
    }

    /// A line's top-level fields but `names` (the line as the generator writes it: a flat
    /// envelope with `data` the one object).
    static func leavingOut(_ names: [String], of line: [UInt8]) -> [UInt8] {
        guard case .object(let object)? = JSONParser.parse(line) else { return line }
        var writer = JSONWriter()
        writer.value(.object(JSONObject(object.members.filter { !names.contains($0.key) })))
        return writer.bytes
    }
}

/// The scanner's run of plain string bytes, read sixteen bytes at a time with SSE2 on x86-64,
/// held to the portable Swift reading eight at a time (the one off x86-64).
@Suite struct PlainRunTests {
    /// Where each reading stops, from `start`, in `bytes`.
    static func ends(_ bytes: [UInt8], from start: Int) -> (fast: Int, portable: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            let p = buffer.baseAddress!
            return (JSONTape.plainRunEnd(p, from: start, to: buffer.count), JSONTape.portablePlainRunEnd(p, from: start, to: buffer.count))
        }
    }

    /// Every byte value at every place of a run of 40 plain bytes, read from each start.
    @Test func everyByteStopsTheRunWhereThePortableReadingStops() {
        for value in 0...255 {
            for place in 0..<40 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 40)
                bytes[place] = UInt8(value)
                for start in 0...place {
                    let (fast, portable) = Self.ends(bytes, from: start)
                    #expect(fast == portable, "byte \(value) at \(place), from \(start)")
                }
            }
        }
    }

    /// Runs of every length to 80 with stops of each kind scattered in them.
    @Test func randomRunsEndWhereThePortableReadingEnds() {
        var rng = SplitMix64(seed: 0x5EE2)
        let stops: [UInt8] = [0x22, 0x5C, 0x00, 0x0A, 0x1F, 0x80, 0xC3, 0xFF]
        for _ in 0..<4_000 {
            let length = Int(rng.next() % 81)
            let bytes = (0..<length).map { _ in rng.next() % 24 == 0 ? stops[Int(rng.next() % 8)] : UInt8(0x20 + rng.next() % 95) }
            for start in 0...length {
                let (fast, portable) = Self.ends(bytes, from: start)
                #expect(fast == portable)
                // Plain bytes up to it, and there a stop or fewer than eight bytes left.
                #expect(bytes[start..<fast].allSatisfy { !stops.contains($0) })
                #expect(fast == length || stops.contains(bytes[fast]) || length - fast < 8)
            }
        }
    }
}
