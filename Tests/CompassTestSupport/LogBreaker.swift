import CompassCore

/// Breaks a log's lines as storage, transfer and hand edits break them, for tests that hold
/// two ways of reading a log equal on logs that are not clean.
package enum LogBreaker {
    /// `bytes` with up to a dozen random breaks: bits flipped, bytes inserted or overwritten with
    /// JSON's own, lines cut short, repeated, swapped, dropped or padded with white space, a
    /// letter after a quote written as its `\u` escape; the last line torn one time in four.
    package static func broken(_ bytes: [UInt8], rng: inout SplitMix64) -> [UInt8] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for _ in 0..<(1 + rng.below(12)) where !lines.isEmpty {
            let i = rng.below(lines.count)
            let n = lines[i].count
            switch rng.below(9) {
            case 0: if n > 0 { lines[i][rng.below(n)] ^= UInt8(1 << rng.below(8)) }
            case 1: lines.insert(lines[i], at: rng.below(lines.count))
            case 2: lines.swapAt(i, rng.below(lines.count))
            case 3: lines.remove(at: i)
            case 4: if n > 0 { lines[i].removeLast(rng.below(min(40, n))) }
            case 5:  // a letter after a quote written as its `\u` escape
                if let q = lines[i].indices.filter({ lines[i][$0] == 0x22 && $0 + 1 < n && (0x61...0x7A).contains(lines[i][$0 + 1]) }).last {
                    lines[i].replaceSubrange((q + 1)...(q + 1), with: Array("\\u00\(String(lines[i][q + 1], radix: 16))".utf8))
                }
            case 6: if n > 0 { lines[i].insert(UInt8(rng.below(256)), at: rng.below(n)) }
            case 7: lines[i] = Array(" \t".utf8) + lines[i] + Array(" ".utf8)
            default: if n > 0 { lines[i][rng.below(n)] = [0x22, 0x5C, 0x7B, 0x7D, 0x2C, 0x3A, 0x30, 0xC3, 0x00][rng.below(9)] }
            }
        }
        var log = Array(lines.joined(separator: [0x0A]))
        if rng.below(4) != 0 { log.append(0x0A) }
        return log
    }
}
