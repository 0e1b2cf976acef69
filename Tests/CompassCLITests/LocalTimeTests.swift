import Foundation
import Testing
import CompassTestSupport

/// Times people type without an offset (SPEC §4, v3.1): read in the `--tz` zone (or
/// `$COMPASS_TZ`, or `$TZ`); with no zone, a usage error naming `--tz`; a time the zone skips
/// (spring forward) or has twice (fall back) is a usage error naming both offsets. Three zones
/// across their daylight-saving changes, and one without any.
@Suite struct LocalTimeTests {
    static func family() -> CLIHarness {
        let cli = CLIHarness()
        cli.seedFamily()
        return cli
    }

    /// The run of a `log-interaction` at a typed time, and the `occurredAt` it wrote.
    static func occurredAt(_ cli: CLIHarness, _ time: String, _ extra: [String] = [],
                           environment: [String: String] = [:]) -> (result: CLIHarness.Result, written: String?) {
        let result = cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "outbound",
                              "--occurred-at", time] + extra, environment: environment)
        guard result.status == 0, let line = cli.logText.split(separator: "\n").last,
              let range = line.range(of: #""occurredAt":"[^"]*""#, options: .regularExpression) else { return (result, nil) }
        return (result, String(line[range].dropFirst(#""occurredAt":""#.count).dropLast()))
    }

    @Test(arguments: [
        ("Asia/Tokyo", "2026-11-17T16:00", "2026-11-17T07:00:00.000Z"),
        ("Asia/Tokyo", "2026-11-17T16:00:30", "2026-11-17T07:00:30.000Z"),
        ("America/Chicago", "2026-07-01T09:00", "2026-07-01T14:00:00.000Z"),
        ("America/Chicago", "2026-12-01T09:00", "2026-12-01T15:00:00.000Z"),
        ("America/Chicago", "2026-03-08T03:30", "2026-03-08T08:30:00.000Z"),
        ("Europe/Berlin", "2026-06-01T12:00", "2026-06-01T10:00:00.000Z"),
        ("Europe/Berlin", "2026-10-25T03:30", "2026-10-25T02:30:00.000Z"),
        ("UTC", "2026-11-17T16:00", "2026-11-17T16:00:00.000Z"),
    ])
    func aLocalTimeIsReadInTheChosenZone(zone: String, typed: String, instant: String) {
        let cli = Self.family()
        #expect(Self.occurredAt(cli, typed, ["--tz", zone]).written == instant)
        // The same zone from the environment.
        #expect(Self.occurredAt(cli, typed, environment: ["COMPASS_TZ": zone]).written == instant)
        #expect(Self.occurredAt(cli, typed, environment: ["TZ": zone]).written == instant)
    }

    @Test func aLocalTimeWithoutAZoneIsAUsageErrorNamingTz() {
        let cli = Self.family()
        let result = Self.occurredAt(cli, "2026-11-17T16:00").result
        #expect(result.status == 2 && result.stderr.contains("--tz"), "\(result.stderr)")
        let now = cli.run(["interactions", "--as", "u-pat", "--now", "2026-11-17T16:00"])
        #expect(now.status == 2 && now.stderr.contains("--tz"))
    }

    @Test(arguments: [
        ("America/Chicago", "2026-03-08T02:30", "-06:00", "-05:00", "does not exist"),
        ("America/Chicago", "2026-11-01T01:30", "-06:00", "-05:00", "happens twice"),
        ("Europe/Berlin", "2026-03-29T02:30", "+01:00", "+02:00", "does not exist"),
        ("Europe/Berlin", "2026-10-25T02:30", "+01:00", "+02:00", "happens twice"),
    ])
    func aTimeTheZoneSkipsOrRepeatsNamesBothOffsets(zone: String, typed: String, one: String, other: String, says: String) {
        let cli = Self.family()
        let result = Self.occurredAt(cli, typed, ["--tz", zone]).result
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(says) && result.stderr.contains(one) && result.stderr.contains(other), "\(result.stderr)")
        // The example it gives is a time that is taken.
        let example = result.stderr.components(separatedBy: "e.g. ").last.map { String($0.prefix { !$0.isWhitespace }) } ?? ""
        #expect(Self.occurredAt(cli, example, ["--tz", zone]).written != nil, "the suggested \(example) is refused")
    }

    @Test func readCommandsTakeLocalTimesToo() {
        let cli = Self.family()
        let asOf = cli.run(["interactions", "--as", "u-pat", "--json", "--as-of", "2026-11-17T16:00", "--tz", "Asia/Tokyo"])
        #expect(asOf.status == 0, "\(asOf.stderr)")
    }
}
