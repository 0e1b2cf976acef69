import CompassCore
import CompassStore
import Foundation

/// Everything a command may touch outside the core: the parsed words, the environment,
/// the clock, the id source and the console. Tests pass fixed ones.
struct Invocation {
    var arguments: ParsedArguments
    var environment: [String: String]
    var console: Console
    /// The real clock, read only when `--now` is absent.
    var clock: () -> Timestamp
    /// Makes a lowercase UUID for a new event id.
    var makeId: () -> String
    var currentDirectory: String
    /// Every file operation of the log, its side files and attachments (tests inject faults).
    var fileSystem: FileSystem = POSIXFileSystem()
    /// Standard input, read whole (`--content -`, `import -`); tests pass fixed bytes.
    /// Reads standard input to its end, or until more than `limit` bytes came (then it stops:
    /// the caller refuses the input without holding all of it).
    var standardInput: (_ limit: Int) -> [UInt8] = { limit in
        var bytes: [UInt8] = []
        while bytes.count <= limit, let chunk = try? FileHandle.standardInput.read(upToCount: min(1 << 16, limit + 1 - bytes.count)),
              !chunk.isEmpty {
            bytes += chunk
        }
        return bytes
    }

    /// A path the user typed, made absolute against the current directory.
    func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : currentDirectory + "/" + path
    }

    /// `--log`, else `$COMPASS_LOG`, else `./events.jsonl`.
    var logPath: String {
        let path = arguments.value("log") ?? environment["COMPASS_LOG"] ?? "events.jsonl"
        return CompassStore.isDatabaseAddress(path) ? path : resolve(path)
    }

    /// The log path as the user typed it (for messages).
    var logPathForDisplay: String { CompassStore.displayAddress(arguments.value("log") ?? environment["COMPASS_LOG"] ?? "events.jsonl") }

    var json: Bool { arguments.has("json") }

    /// The one store every command goes through, as an app opens one: the log at `--log`, the
    /// command's clock and ids, the file system, the snapshot policy. With `mustExist` (reads,
    /// `verify`, `audit`, `erase`) a log that is not there is `no log at PATH` as the user typed
    /// it (a mistyped `--log` must not look like an empty log); the store decides what is there
    /// (a file, a folder, a database).
    func store(mustExist: Bool = true, clock: (@Sendable () -> Timestamp)? = nil, makeId: (@Sendable () -> String)? = nil,
               snapshots useSnapshots: Bool = true) throws -> CompassStore {
        var configuration = CompassStore.Configuration(snapshots: useSnapshots ? snapshots : nil)
        if let clock { configuration.clock = clock }
        if let makeId { configuration.makeId = makeId }
        configuration.fileSystem = fileSystem
        do {
            return try CompassStore(path: logPath, createIfMissing: !mustExist, configuration: configuration)
        } catch .noLog {
            throw CLIError.domain("no log at \(logPathForDisplay)")
        }
    }

    /// Snapshots for whole-log reads: `$COMPASS_SNAPSHOT_MIN_BYTES` new bytes (default 1 MiB)
    /// before one is written; `off` disables them.
    var snapshots: SnapshotPolicy? {
        let setting = environment["COMPASS_SNAPSHOT_MIN_BYTES"]
        if setting == "off" { return nil }
        let console = console
        return SnapshotPolicy(minimumNewBytes: setting.flatMap(Int.init) ?? SnapshotPolicy.defaultMinimumNewBytes,
                              afterOutput: { console.afterOutput($0) })
    }

    /// `--as`, else `$COMPASS_USER`, else a usage error.
    func viewer() throws -> String {
        guard let user = arguments.value("as") ?? environment["COMPASS_USER"], !user.isEmpty else {
            throw CLIError.usage("missing '--as USER' (or set COMPASS_USER)")
        }
        return user
    }

    /// `--now`, else `--as-of`, else the clock.
    func now() throws -> Timestamp {
        if let text = arguments.value("now") { return try time(text, option: "--now") }
        if let asOf = try cut().asOf { return asOf }
        return clock()
    }

    /// `--as-of` and `--at-seq`.
    func cut() throws -> ReplayCut {
        var cut = ReplayCut()
        if let text = arguments.value("as-of") { cut.asOf = try time(text, option: "--as-of") }
        if let text = arguments.value("at-seq") { cut.atSeq = try integer(text, option: "--at-seq", minimum: 0, maximum: Envelope.maxSeq) }
        return cut
    }

    /// `--tz`, else `$COMPASS_TZ`, else `$TZ` when it names an IANA zone, else UTC (SPEC §4).
    func timeZone() throws -> TimeZone {
        try chosenTimeZone()?.zone ?? TimeZone(secondsFromGMT: 0)!
    }

    /// The zone `--tz`, `$COMPASS_TZ` or `$TZ` names, with where it came from; nil when none is
    /// set (a local time then has no zone to be read in).
    func chosenTimeZone() throws -> (zone: TimeZone, name: String)? {
        let utc = TimeZone(secondsFromGMT: 0)!
        let given = arguments.value("tz").map { ($0, "--tz") } ?? environment["COMPASS_TZ"].flatMap { $0.isEmpty ? nil : ($0, "$COMPASS_TZ") }
        if let (name, source) = given {
            // Only a zone's offsets are read (DateText): UTC needs no time-zone database.
            if name == "UTC" { return (utc, name) }
            guard let zone = TimeZone(identifier: name) else {
                throw CLIError.usage("unknown time zone '\(TerminalText.escape(name))' for '\(source)' (expected an IANA name, e.g. America/Chicago or UTC)")
            }
            return (zone, name)
        }
        if let name = environment["TZ"].map({ $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }), !name.isEmpty {
            if name == "UTC" { return (utc, name) }
            if let zone = TimeZone(identifier: name) { return (zone, name) }
        }
        return nil
    }

    /// An RFC 3339 time; a local time without an offset (`2026-11-17T16:00`, seconds
    /// optional), read in the `--tz` zone; or a date (`2026-11-01`): midnight of that day in the
    /// time zone (SPEC §4).
    func time(_ text: String, option: String) throws -> Timestamp {
        if let time = Timestamp(rfc3339: text) { return time }
        if let midnight = try localMidnight(text) { return midnight }
        if let local = try localTime(text, option: option) { return local }
        throw CLIError.usage("invalid time '\(TerminalText.escape(text))' for '\(option)' (expected RFC 3339 between years 0000 and 9999, e.g. 2026-02-03T14:15:00Z, a local time with --tz, 2026-02-03T14:15, or a date, 2026-02-03)")
    }

    /// `YYYY-MM-DDTHH:MM[:SS]` read in the chosen zone; nil when the text is not such a time.
    /// Without a zone, a time that does not exist there (a spring-forward gap) or exists twice
    /// (a fall-back hour), it is a usage error that says what would be valid.
    func localTime(_ text: String, option: String) throws -> Timestamp? {
        let seconds = text.utf8.count == 16 ? ":00" : ""
        guard text.utf8.count == 16 || text.utf8.count == 19, let wall = Timestamp(rfc3339: text + seconds + "Z") else { return nil }
        let shown = TerminalText.escape(text)
        let full = TerminalText.escape(text + seconds)  // with an offset, RFC 3339 wants the seconds
        guard let (zone, name) = try chosenTimeZone() else {
            throw CLIError.usage("'\(option)' \(shown) has no offset: give the zone it is in with --tz (e.g. --tz America/Chicago), or an offset (\(full)-06:00)")
        }
        // The offsets the zone has around that wall-clock time; each is a reading when the
        // zone has it at the instant it gives.
        let day: Int64 = 86_400_000
        let offsets = Set([wall.millisecondsSinceEpoch - day, wall.millisecondsSinceEpoch + day].map {
            Int64(zone.secondsFromGMT(for: Timestamp(millisecondsSinceEpoch: $0).date)) * 1000
        }).sorted()
        let readings = offsets.filter { offset in
            Int64(zone.secondsFromGMT(for: Timestamp(millisecondsSinceEpoch: wall.millisecondsSinceEpoch - offset).date)) * 1000 == offset
        }
        func spelled(_ offset: Int64) -> String {
            let minutes = abs(offset) / 60_000
            return (offset < 0 ? "-" : "+") + String(format: "%02d:%02d", minutes / 60, minutes % 60)
        }
        let both = offsets.map(spelled).joined(separator: " or ")
        switch readings.count {
        case 1:
            let instant = Timestamp(millisecondsSinceEpoch: wall.millisecondsSinceEpoch - readings[0])
            guard Timestamp.validRange.contains(instant) else { return nil }
            return instant
        case 0:
            throw CLIError.usage("'\(option)' \(shown) does not exist in \(TerminalText.escape(name)): the clocks skip it (\(both)); give an offset, e.g. \(full)\(spelled(offsets.last ?? 0))")
        default:
            throw CLIError.usage("'\(option)' \(shown) happens twice in \(TerminalText.escape(name)) (\(both)); give the offset, e.g. \(full)\(spelled(offsets.first ?? 0))")
        }
    }

    /// `YYYY-MM-DD` as midnight in the time zone, or nil when the text is not a date.
    func localMidnight(_ text: String) throws -> Timestamp? {
        guard text.utf8.count == 10, let utcMidnight = Timestamp(rfc3339: text + "T00:00:00Z") else { return nil }
        let zone = try timeZone()
        // The offset at local midnight: taken at the UTC instant, then once more at the result.
        var offset = Int64(zone.secondsFromGMT(for: utcMidnight.date)) * 1000
        let first = Timestamp(millisecondsSinceEpoch: utcMidnight.millisecondsSinceEpoch - offset)
        offset = Int64(zone.secondsFromGMT(for: first.date)) * 1000
        let midnight = Timestamp(millisecondsSinceEpoch: utcMidnight.millisecondsSinceEpoch - offset)
        return Timestamp.validRange.contains(midnight) ? midnight : nil
    }

    /// A long text option: `-` reads standard input, `@FILE` a file, `@@…` is a literal `@…`.
    ///
    /// Text read from standard input or a file is read in bounded memory: more than a log line
    /// can hold (``Replayer/maxLineBytes``) is refused before it is all read.
    func longText(_ option: String) throws -> String? {
        guard let value = arguments.value(option) else { return nil }
        let limit = Replayer.maxLineBytes
        let tooLarge = "'--\(option)' is larger than \(limit) bytes, more than one log line can hold"
        if value == "-" {
            let bytes = standardInput(limit)
            guard bytes.count <= limit else { throw CLIError.domain(tooLarge + " (read from standard input)") }
            return String(decoding: bytes, as: UTF8.self)
        }
        if value.hasPrefix("@@") { return String(value.dropFirst()) }
        if value.hasPrefix("@"), value.count > 1 {
            let path = String(value.dropFirst())
            guard try AttachmentStore.describe(resolve(path), fs: fileSystem).size <= Int64(limit) else {
                throw CLIError.domain(tooLarge + " (\(TerminalText.escape(path)))")
            }
            guard let bytes = try fileSystem.readFile(resolve(path)) else {
                throw CLIError.io("cannot open \(TerminalText.escape(path)) for '--\(option)': no such file")
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return value
    }

    /// A progress callback for a long read, shown on stderr when it is a terminal; call
    /// `finish()` on the meter (the second value) when done.
    func readProgress(_ label: String) -> (ReadProgress?, ProgressMeter?) {
        guard let meter = ProgressMeter.forTerminal(label, self) else { return (nil, nil) }
        return ({ done, total, lines in meter.bytes(done, of: total, events: lines); return true }, meter)
    }

    /// `--limit N`: how many items a human list shows at most (nil: all).
    func limit() throws -> Int? {
        try arguments.value("limit").map { text throws in Int(try integer(text, option: "--limit", minimum: 1)) }
    }

    /// The largest value of a numeric option (SPEC §4): 2^31 − 1, so no arithmetic on it traps.
    static let maxOption: Int64 = Int64(Int32.max)

    /// A numeric option in `minimum … maximum` (SPEC §4: 1 … 2^31 − 1 unless said otherwise).
    func integer(_ text: String, option: String, minimum: Int64, maximum: Int64 = Invocation.maxOption) throws -> Int64 {
        guard let value = Int64(text), value >= minimum, value <= maximum else {
            throw CLIError.usage("invalid value '\(TerminalText.escape(text))' for '\(option)' (expected an integer from \(minimum) to \(maximum))")
        }
        return value
    }

    /// A value that must be one of a listed set.
    func choice(_ option: String, in allowed: [String]) throws -> String? {
        guard let value = arguments.value(option) else { return nil }
        guard allowed.contains(value) else {
            throw CLIError.usage("invalid value '\(TerminalText.escape(value))' for '--\(option)' (expected \(allowed.joined(separator: "|")))")
        }
        return value
    }
}
