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

    @Test func comparesExactlyToTheMillisecond() throws {
        let a = try #require(Timestamp(rfc3339: "2026-01-01T00:00:00.001Z"))
        let b = try #require(Timestamp(rfc3339: "2026-01-01T00:00:00.0019Z"))
        #expect(a == b)
        #expect(a < Timestamp(rfc3339: "2026-01-01T00:00:00.002Z")!)
    }
}
