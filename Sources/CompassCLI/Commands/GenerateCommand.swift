import CompassCore
import CompassStore

/// `compass generate`: a valid synthetic log on stdout, the same bytes for the same seed.
enum GenerateCommand {
    static func run(_ inv: Invocation) throws {
        let args = inv.arguments
        let families = try args.value("families").map { v throws in try inv.integer(v, option: "--families", minimum: 1) } ?? 3
        let events = try args.value("events").map { v throws in try inv.integer(v, option: "--events", minimum: 0) } ?? 1000
        // Each family starts with a line of its own: more families than events cannot be met
        // (and would only make empty families in memory).
        guard families <= max(events, 1) else {
            throw CLIError.usage("--families \(families) is more than --events \(events): each family needs at least one event")
        }
        let seed = try args.value("seed").map { v throws in try inv.integer(v, option: "--seed", minimum: 0) } ?? 1
        let generator = HistoryGenerator(families: Int(families), events: Int(events), seed: UInt64(seed))
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        let meter = ProgressMeter.forTerminal("generating", inv)
        var written = 0
        generator.generate { line in
            buffer += line
            buffer.append(0x0A)
            written += 1
            if written % 4096 == 0 { meter?.events(written, of: Int(events)) }
            if buffer.count >= 1 << 20 {
                inv.console.out(bytes: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        meter?.finish()
        inv.console.out(bytes: buffer)
    }
}
