import Testing
@testable import CompassCore

/// The eight-at-a-time byte checks against their one-byte definitions: every byte value in
/// every lane of a word and in the tail, and random runs.
@Suite struct ByteClassTests {
    static func isLowerHex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) }

    static func check(_ bytes: [UInt8]) -> (id: Bool, hex: Bool) {
        bytes.withUnsafeBufferPointer { b in
            (ByteClass.allIdBytes(b.baseAddress!, count: b.count), ByteClass.allLowerHex(b.baseAddress!, count: b.count))
        }
    }

    @Test func everyByteValueInEveryPositionIsClassedAsOneByteAtATime() {
        for length in [1, 7, 8, 9, 16, 17] {
            for position in 0..<length {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = UInt8(value)
                    let (id, hex) = Self.check(bytes)
                    #expect(id == Identifier.isIdByte(UInt8(value)), "id, value \(value) at \(position) of \(length)")
                    #expect(hex == Self.isLowerHex(UInt8(value)), "hex, value \(value) at \(position) of \(length)")
                }
            }
        }
    }

    /// Calls `body` with runs of `a` of lengths around a word, one byte set to every value at
    /// every position from each start: the run, the start, the position and the value.
    static func everyByteInEveryLane(_ body: (_ bytes: inout [UInt8], _ start: Int, _ position: Int, _ value: UInt8) -> Void) {
        for length in [1, 7, 8, 9, 16, 17] {
            for start in [0, 1, 3] where start < length {
                for position in start..<length {
                    for value in 0...255 {
                        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                        bytes[position] = UInt8(value)
                        body(&bytes, start, position, UInt8(value))
                    }
                }
            }
        }
    }

    /// Where a run of id bytes stops, for every byte value in every lane and in the tail, and
    /// for runs that start past the first byte.
    @Test func anIdRunStopsAtItsFirstOtherByte() {
        Self.everyByteInEveryLane { bytes, start, position, value in
            let end = bytes.withUnsafeBufferPointer { ByteClass.idRunEnd($0.baseAddress!, from: start, to: $0.count) }
            #expect(end == (Identifier.isIdByte(value) ? bytes.count : position), "value \(value) at \(position) of \(bytes.count)")
        }
    }

    /// Where the search for a quote stops, for every byte value in every lane and in the tail
    /// (a quote there, or none before the end), from several starts, and behind a second quote.
    @Test func aQuoteSearchStopsAtTheFirstQuote() {
        Self.everyByteInEveryLane { bytes, start, position, value in
            if position + 1 < bytes.count, value % 7 == 0 || value == 0x22 { bytes[position + 1] = UInt8(ascii: "\"") }
            let end = bytes.withUnsafeBufferPointer { ByteClass.quoteIndex($0.baseAddress!, from: start, to: $0.count) }
            let first = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) ?? bytes.count
            #expect(end == first, "value \(value) at \(position) of \(bytes.count), from \(start)")
        }
    }

    @Test func randomRunsAgreeWithTheDefinitions() {
        var rng = SplitMix64(seed: 91)
        let alphabet = Array("0123456789abcdefABCXYZxyz_.:-/ \"\u{7F}".utf8) + [0x80, 0xC3, 0xFF, 0x00, 0x2C, 0x40, 0x5B, 0x60, 0x67, 0x7B]
        for _ in 0..<20_000 {
            let bytes = (0..<(1 + rng.below(40))).map { _ in alphabet[rng.below(alphabet.count)] }
            let (id, hex) = Self.check(bytes)
            #expect(id == bytes.allSatisfy(Identifier.isIdByte))
            #expect(hex == bytes.allSatisfy(Self.isLowerHex))
            let end = bytes.withUnsafeBufferPointer { ByteClass.idRunEnd($0.baseAddress!, from: 0, to: $0.count) }
            #expect(end == (bytes.firstIndex { !Identifier.isIdByte($0) } ?? bytes.count))
            let quote = bytes.withUnsafeBufferPointer { ByteClass.quoteIndex($0.baseAddress!, from: 0, to: $0.count) }
            #expect(quote == (bytes.firstIndex(of: UInt8(ascii: "\"")) ?? bytes.count))
        }
    }

    @Test func bytesCompareEqualOnlyWhenEveryByteIs() {
        var rng = SplitMix64(seed: 92)
        for _ in 0..<5_000 {
            let a = (0..<rng.below(30)).map { _ in UInt8(rng.below(4)) }
            var b = a
            if !b.isEmpty, rng.below(2) == 0 { b[rng.below(b.count)] ^= UInt8(1 + rng.below(3)) }
            let equal = a.withUnsafeBufferPointer { x in
                b.withUnsafeBufferPointer { y in x.isEmpty || ByteCompare.equal(x.baseAddress!, y.baseAddress!, count: x.count) }
            }
            #expect(equal == (a == b))
        }
    }

    /// Payload vocabularies are read from the field's bytes: each raw value spells its case,
    /// and nothing else spells any (a prefix, a longer word, another case of letters).
    @Test func everyVocabularyIsSpelledByItsRawValuesOnly() {
        func check<E: ByteSpelled & Equatable>(_ type: E.Type) {
            for value in E.allCases {
                let raw = Array(value.rawValue.utf8)
                #expect(raw.withUnsafeBufferPointer { E.spelled(by: $0) } == value)
                for wrong in [Array(raw.dropLast()), raw + [0x73], Array(value.rawValue.uppercased().utf8), [0x20] + raw, []] where wrong != raw {
                    #expect(wrong.withUnsafeBufferPointer { E.spelled(by: $0) }.map { $0.rawValue != String(decoding: wrong, as: UTF8.self) } != true,
                            "\(String(decoding: wrong, as: UTF8.self)) as \(E.self)")
                }
            }
        }
        check(MemberRole.self)
        check(CoachRole.self)
        check(InteractionType.self)
        check(Direction.self)
        check(Sentiment.self)
        check(ErasureScope.self)
    }
}
