/// Rewrites a SPEC v2 log (one `seq` count and one `prev` chain for every family) as v3 (one
/// stream per family, SPEC §1.1). Pure: the store reads the old log and writes the new one.
///
/// Every line keeps its bytes but two values: `seq` renumbered within its family and `prev`
/// chained to its family's previous line (a line without `prev` keeps none). Order, `id`,
/// `type`, `at`, `actor`, `family` and `data` are as they were, byte for byte.
package enum LogMigration {
    /// A migrated log.
    package struct Outcome {
        /// The v3 log, every line ending in `\n`.
        package var newLog: [UInt8]
        /// The v2 head read: SHA-256 of the old log's last line.
        package var oldHead: String
        /// The v3 root written (SPEC §1.1).
        package var root: String
        /// How many lines, and how many families.
        package var lines: Int
        package var families: Int
        /// The replay of the new log (its state names the blobs to carry over).
        package var replayed: Replayer
    }

    /// Why a log was not migrated: the problems that make it fail `verify` as a v2 log (or, for
    /// a log that is not v2, why there is nothing to do).
    package struct Refusal: Error, Equatable {
        package var problems: [Problem]
    }

    /// Migrates `log` (its bytes, the last line ending in `\n`).
    ///
    /// - Throws: ``Refusal`` when the log does not verify as v2: a torn or unreadable line, a
    ///   `seq` or `prev` that breaks the one chain, or a line the rules refuse.
    package static func migrate(_ log: [UInt8]) throws(Refusal) -> Outcome {
        var ranges: [Range<Int>] = []
        let end = log.withUnsafeBufferPointer { LineSplitter.completeLines(in: $0, from: 0, to: $0.count, into: &ranges) }
        var problems: [Problem] = []
        if end < log.count { problems.append(Problem(line: ranges.count + 1, message: "torn last line", kind: .torn)) }
        var output: [UInt8] = []
        output.reserveCapacity(log.count + 64)
        var tape = JSONTape()
        // The v2 chain as it is checked (one for all lines), and each family's new stream.
        var lastSeq: Int64 = 0, previous = SHA256.emptyHex, sealed = false
        var streams: [String: (seq: Int64, head: String)] = [:]
        log.withUnsafeBufferPointer { buffer in
            for (index, range) in ranges.enumerated() {
                let number = index + 1
                let line = UnsafeBufferPointer(rebasing: buffer[range])
                let hash = SHA256.hex(line)
                defer { previous = hash }
                guard let base = line.baseAddress, tape.scan(line), let seqRange = tape.integerRange(ofKey: "seq", in: base),
                      let familyRange = tape.plainStringRange(ofKey: "family", in: base) else {
                    problems.append(Problem(line: number, message: "cannot migrate: not a readable line with seq and family", kind: .unreadable))
                    continue
                }
                let family = String(decoding: UnsafeBufferPointer(rebasing: line[familyRange]), as: UTF8.self)
                let seq = JSONTape.int64(base, seqRange.lowerBound, seqRange.upperBound) ?? 0
                if seq != lastSeq + 1 { problems.append(Problem(line: number, message: "seq \(seq), expected \(lastSeq + 1)", kind: .sequence)) }
                lastSeq = seq
                let prevRange = tape.plainStringRange(ofKey: "prev", in: base)
                if let prevRange {
                    sealed = true
                    if !line[prevRange].elementsEqual(previous.utf8) {
                        problems.append(Problem(line: number, message: "prev does not match line \(number - 1)", kind: .chain))
                    }
                } else if sealed {
                    problems.append(Problem(line: number, message: "missing field prev", kind: .chain))
                }
                // The line with its family's `seq` and `prev`, replaced from the right so the
                // earlier range stays where it is.
                let before = streams[family] ?? (0, SHA256.emptyHex)
                var replacements = [(seqRange, Array(String(before.seq + 1).utf8))]
                if let prevRange { replacements.append((prevRange, Array(before.head.utf8))) }
                var bytes = Array(line)
                for (range, value) in replacements.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
                    bytes.replaceSubrange(range, with: value)
                }
                streams[family] = (before.seq + 1, SHA256.hex(bytes))
                output += bytes
                output.append(0x0A)
            }
        }
        // The rules, on the new log: the same lines in the same order.
        var replayer = Replayer(problems: .all)
        replayer.consume(bytes: output)
        problems += replayer.problems
        guard problems.isEmpty else { throw Refusal(problems: problems.sorted { $0.line < $1.line }) }
        return Outcome(newLog: output, oldHead: ranges.isEmpty ? SHA256.emptyHex : previous, root: replayer.streams.root,
                       lines: ranges.count, families: replayer.streams.count, replayed: replayer)
    }
}
