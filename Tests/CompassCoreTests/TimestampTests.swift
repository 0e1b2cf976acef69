import Testing
@testable import CompassCore

@Suite struct TimestampTests {
    @Test(arguments: [
        ("2026-02-03T14:15:00Z", "2026-02-03T14:15:00.000Z"),
        ("2026-02-03T14:15:00.5Z", "2026-02-03T14:15:00.500Z"),
        ("2026-02-03T14:15:00.123456789Z", "2026-02-03T14:15:00.123Z"),  // extra digits truncated
        ("2026-02-03T09:15:00-05:00", "2026-02-03T14:15:00.000Z"),
        ("2026-02-03T23:30:00+05:30", "2026-02-03T18:00:00.000Z"),
        ("2024-02-29T00:00:00z", "2024-02-29T00:00:00.000Z"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
        ("2000-01-01t00:00:00Z", "2000-01-01T00:00:00.000Z"),
    ])
    func parsesAndWritesTheOutputForm(input: String, output: String) throws {
        let time = try #require(Timestamp(rfc3339: input))
        #expect(time.rfc3339 == output)
        #expect(Timestamp(rfc3339: output) == time)
    }

    @Test(arguments: [
        "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-02-03T24:00:00Z", "2026-02-03T14:60:00Z", "2026-02-03T14:15:60Z", "2026-02-03 14:15:00Z",
        "2026-02-03T14:15:00", "2026-02-03T14:15:00.Z", "2026-02-03", "2026-02-03T14:15:00+0500",
        "2026-02-03T14:15:00Z ", "", "yesterday",
    ])
    func rejectsImpossibleOrMalformedTimes(input: String) {
        #expect(Timestamp(rfc3339: input) == nil)
    }

    @Test func civilFieldsRoundTripAcrossCenturies() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let (y, m, d) = CivilTime.civilFromDays(days)
            #expect(CivilTime.daysFromCivil(year: y, month: m, day: d) == days)
        }
    }

    /// The fast reader of the written form against the general parser: random times across the
    /// four-digit years, written, then each byte of each changed to every byte that matters to
    /// the form (digits, separators, their lowercase, neighbours in the table). Both read the
    /// same time, or both refuse.
    @Test func theWrittenFormIsReadAsTheGeneralParserReadsIt() {
        var rng = SplitMix64(seed: 24)
        let bytesThatMatter = Array("0123456789-T:.Zzt/;+ \u{7F}".utf8) + [0x00, 0x2F, 0x3A, 0x3B, 0x80, 0xB0, 0xFF]
        var read = 0, refused = 0
        func agree(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { b in
                let general = Timestamp.parseAnyForm(b)
                #expect(Timestamp.parse(b) == general, "\(String(decoding: bytes, as: UTF8.self))")
                if general == nil { refused += 1 } else { read += 1 }
            }
        }
        let lowest = Timestamp.validRange.lowerBound.millisecondsSinceEpoch, highest = Timestamp.validRange.upperBound.millisecondsSinceEpoch
        for round in 0..<400 {
            let time = Timestamp(millisecondsSinceEpoch: lowest + Int64(rng.below(Int(highest - lowest + 1))))
            let written = Array(time.rfc3339.utf8)
            #expect(written.withUnsafeBufferPointer { Timestamp.parse($0) } == time)
            guard round < 40 else { continue }
            for position in written.indices {
                for byte in bytesThatMatter where byte != written[position] {
                    var changed = written
                    changed[position] = byte
                    agree(changed)
                }
            }
        }
        // Fields at and past their limits, written in the form.
        for (month, day) in [(2, 28), (2, 29), (2, 30), (4, 30), (4, 31), (12, 31), (0, 1), (13, 1), (1, 0), (1, 32)] {
            for year in [0, 1900, 2000, 2023, 2024, 9999] {
                for (hour, minute, second) in [(0, 0, 0), (23, 59, 59), (24, 0, 0), (0, 60, 0), (0, 0, 60), (99, 99, 99)] {
                    func pad(_ value: Int, _ width: Int) -> String { String(repeating: "0", count: width - String(value).count) + String(value) }
                    agree(Array("\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).999Z".utf8))
                }
            }
        }
        #expect(read > 1_000 && refused > 10_000)  // both answers, many times
    }

    @Test func comparesExactlyToTheMillisecond() throws {
        let a = try #require(Timestamp(rfc3339: "2026-01-01T00:00:00.001Z"))
        let b = try #require(Timestamp(rfc3339: "2026-01-01T00:00:00.0019Z"))
        #expect(a == b)
        #expect(a < Timestamp(rfc3339: "2026-01-01T00:00:00.002Z")!)
    }
}
