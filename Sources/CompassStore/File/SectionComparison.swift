import CompassCore
import Foundation

/// `verify`'s comparison of a snapshot's family sections with the ones its replay would write,
/// made while the log's prefix is read again, in order, when a section holds its texts' bytes;
/// a section that keeps them as ranges of the log is encoded from the replay's state alone,
/// and when every section does, the log is not read again at all.
///
/// The replay left every subject and content in the log (``Replayer/textsStayInLog``): copying
/// them into the arenas took the folding thread, which every other thread waits for, about a
/// tenth of its time. Here the prefix is read once more in large blocks, and each worker takes
/// a share of the families: a family's rows are encoded as the block holding their texts goes
/// by (``SectionEncoder``), and what is encoded is compared with the stored section and hashed
/// a part at a time (two families' parts hashed together), so neither a whole section nor the
/// texts are ever held. A row whose texts are not in the block at hand (a line across two
/// blocks) has them read on their own.
package struct SectionComparison {
    /// What one family's section came to.
    struct Outcome {
        var length: Int
        var digest: [UInt8]
        /// Whether every byte is the stored section's, and it has no more.
        var same: Bool
        /// The most bytes of the section compared at once (tests hold it near ``partLimit``).
        var largestPart = 0
        /// Bytes of the section hashed together with another family's (tests hold it to most).
        var pairedBytes = 0
    }

    /// Bytes of the log read at a time (smaller in tests, so lines fall across blocks).
    package static let blockSize = 4 << 20
    /// Encoded bytes gathered before they are compared and hashed (two families' together).
    static let partSize = 64 << 10
    /// The most a family gathers waiting for another's part (then it is compared alone): with
    /// the row that passes it, the most of a section held at once.
    static let partLimit = 4 * partSize

    let log: (fd: Int32, path: String)
    let snapshot: (fd: Int32, path: String)
    /// Where the replay stopped: the texts are all before it.
    let prefix: Int
    let blockSize: Int
    let fs: FileSystem

    /// Every family's outcome, in the order given; `stored` is where each family's stored
    /// section is in the snapshot file.
    func compare(_ families: [Family], stored: [Range<Int>]) throws(StoreError) -> [Outcome] {
        // Four shares a core, each block's taken by whichever core is free: a core that was
        // away (the header's encoding runs meanwhile) does not hold the others up.
        let workers = 4 * max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        // The families dealt out by size, the largest first, each to the least loaded share.
        var dealt = [[Int]](repeating: [], count: workers), load = [Int](repeating: 0, count: workers)
        for index in families.indices.sorted(by: { families[$0].interactions.count > families[$1].interactions.count }) {
            let worker = load.indices.min { load[$0] < load[$1] }!
            dealt[worker].append(index)
            load[worker] += families[index].interactions.count + 1
        }
        // Each stored section says first whether it keeps its texts as ranges of the log (then
        // no row needs the log's bytes) or holds them (a byte that is neither is compared, and
        // differs from what is encoded).
        var ranges: [Bool] = [], first: [UInt8] = []
        for section in stored {
            guard !section.isEmpty else { ranges.append(false); continue }
            try Self.read(snapshot, section.lowerBound..<(section.lowerBound + 1), into: &first, fs: fs)
            ranges.append(first[0] == 1)
        }
        let shares = dealt.filter { !$0.isEmpty }.map {
            Share(self, checks: $0.map { Check(encoder: SectionEncoder(families[$0], ranges: ranges[$0]), stored: stored[$0]) })
        }
        if !ranges.contains(false) {
            // Nothing to read from the log: every section is encoded from the state alone.
            let none = LogWindow(UnsafeBufferPointer(start: nil, count: 0), at: 0)
            for result in Parallel.mapEach(shares, { share in Result { () throws(StoreError) in try share.advance(in: none, last: true) } }) {
                try result.get()
            }
        } else {
            try compareReadingTheLog(shares)
        }
        return outcomes(families, dealt: dealt, shares: shares)
    }

    /// Advances every share through the log's prefix, read again in blocks, until each has
    /// encoded and compared all its families.
    private func compareReadingTheLog(_ shares: [Share]) throws(StoreError) {
        // Two blocks: the next is read on another thread while the workers take the current one.
        var (current, next) = (Block(count: min(blockSize, max(prefix, 1))), Block(count: min(blockSize, max(prefix, 1))))
        var start = 0, end = min(prefix, blockSize)
        try Self.read(log, start..<end, into: &current.bytes, fs: fs)
        repeat {
            let following = end..<min(prefix, end + blockSize)
            let (log, fs, reader) = (self.log, self.fs, next)
            let (read, results) = Parallel.both({ Result { () throws(StoreError) in try Self.read(log, following, into: &reader.bytes, fs: fs) } }) {
                let busy = shares.filter { !$0.open.isEmpty }
                return current.bytes.withUnsafeBufferPointer { buffer in
                    let window = LogWindow(UnsafeBufferPointer(rebasing: buffer[0..<(end - start)]), at: start)
                    return Parallel.mapEach(busy) { share in
                        Result { () throws(StoreError) in try share.advance(in: window, last: end == prefix) }
                    }
                }
            }
            for result in results { try result.get() }
            try read.get()
            (current, next) = (next, current)
            (start, end) = (following.lowerBound, following.upperBound)
        } while shares.contains(where: { !$0.open.isEmpty }) && start < prefix
    }

    /// Every family's outcome, in the order given.
    private func outcomes(_ families: [Family], dealt: [[Int]], shares: [Share]) -> [Outcome] {
        var outcomes = [Outcome?](repeating: nil, count: families.count)
        for (indices, share) in zip(dealt.filter { !$0.isEmpty }, shares) {
            for (index, check) in zip(indices, share.checks) {
                outcomes[index] = Outcome(length: check.length, digest: check.digest, same: check.same && check.finished,
                                          largestPart: check.largestPart, pairedBytes: check.pairedBytes)
            }
        }
        return outcomes.map { $0! }
    }

    /// A block of the log's bytes, read on one thread and then read by the workers.
    private final class Block: @unchecked Sendable {
        var bytes: [UInt8]
        init(count: Int) { bytes = [UInt8](repeating: 0, count: count) }
    }

    /// One worker's families and buffers; only that worker touches it while a block is read.
    private final class Share: @unchecked Sendable {
        let comparison: SectionComparison
        var checks: [Check]
        /// The families not finished, in order.
        var open: [Int]
        /// A family with a part ready to hash, waiting for another's to hash with it.
        var ready: Int?
        var scratch: [UInt8] = [], held: [UInt8] = [], heldOther: [UInt8] = []

        init(_ comparison: SectionComparison, checks: [Check]) {
            self.comparison = comparison
            self.checks = checks
            open = Array(checks.indices)
        }

        /// How far a family went on its turn.
        private enum Turn {
            /// Its whole section is encoded and compared (or found different).
            case done
            /// Its next row's texts are in a later block.
            case waitsForBlock
            /// It has a part ready and no other family has one to hash with it: the others
            /// take their turns, and the first to have a part hashes the two together, then
            /// this one goes on.
            case waitsForPartner
        }

        /// Every open family as far as `window` takes it, the families taking turns so their
        /// parts meet in pairs for hashing.
        func advance(in window: LogWindow, last: Bool) throws(StoreError) {
            var waiting: [Int] = [], turns = open, next = 0
            while next < turns.count {
                let index = turns[next]
                next += 1
                switch try advance(index, in: window, last: last) {
                case .done: break
                case .waitsForBlock: waiting.append(index)
                case .waitsForPartner: turns.append(index)
                }
            }
            open = waiting
        }

        /// Encodes a family as far as `window` takes it, or until it has a part ready and no
        /// other family's to hash with (it goes on at its next turn: ready, it does not wait again).
        private func advance(_ index: Int, in window: LogWindow, last: Bool) throws(StoreError) -> Turn {
            let prefix = comparison.prefix
            var current = window
            while true {
                // A part is made of ``partSize`` bytes; the family whose part waits for another's
                // goes on up to ``partLimit``.
                let limit = ready == index ? SectionComparison.partLimit : SectionComparison.partSize
                let step = checks[index].encoder.encode(window: current, limit: limit)
                if step == .finished {
                    // Its last part, hashed with the part another family has ready; or, when
                    // none has and it is a part's size, it waits for one first, as any part does.
                    let other = ready.flatMap { $0 == index ? nil : $0 }
                    if ready == nil && checks[index].encoder.pendingCount >= SectionComparison.partSize {
                        ready = index
                        return .waitsForPartner
                    }
                    if ready == index || other != nil { ready = nil }
                    try compare(index, and: other)
                    if checks[index].same { checks[index].finish() }
                    return .done
                }
                let pending = checks[index].encoder.pendingCount
                if pending >= SectionComparison.partSize {
                    if let other = ready, other != index {
                        ready = nil
                        try compare(index, and: other)  // (a family found different stops at its next turn)
                    } else if ready == nil {
                        ready = index
                        return .waitsForPartner
                    } else if pending >= SectionComparison.partLimit {
                        // No other family's part came meanwhile (a share of one large family):
                        // this one is compared alone, so no section is ever held whole.
                        ready = nil
                        try compare(index, and: nil)
                    }
                }
                guard checks[index].same else { return .done }  // no need to go on
                if step == .full { continue }  // what it held is compared (now or on the next turn)
                guard case .needs(let range) = step else { return .done }
                if window.range.contains(range.lowerBound) && range.upperBound <= window.range.upperBound {
                    current = window
                } else if range.lowerBound >= window.range.upperBound && !last {
                    return .waitsForBlock
                } else {
                    // Texts across the block's end, or (never from a replay, whose rows are in
                    // log order) before it: read on their own. Beyond the prefix, no replay put them.
                    guard range.upperBound <= prefix, range.count <= Replayer.maxLineBytes else {
                        checks[index].same = false
                        return .done
                    }
                    try SectionComparison.read(comparison.log, range, into: &scratch, fs: comparison.fs)
                    current = scratch.withUnsafeBufferPointer { LogWindow(UnsafeBufferPointer(rebasing: $0[0..<range.count]), at: range.lowerBound) }
                }
            }
        }

        /// Compares what a family (and `other`, when given) encoded since the last time with
        /// its stored section's next bytes, and hashes it (the two together).
        private func compare(_ index: Int, and other: Int?) throws(StoreError) {
            let comparison = self.comparison
            try checks[index].encoder.take { (bytes: UnsafeBufferPointer<UInt8>) throws(StoreError) in
                checks[index].same = try checks[index].matches(bytes, held: &held, comparison: comparison)
                guard let other else {
                    if checks[index].same { checks[index].hash.update(bytes) }
                    return
                }
                try checks[other].encoder.take { (otherBytes: UnsafeBufferPointer<UInt8>) throws(StoreError) in
                    checks[other].same = try checks[other].matches(otherBytes, held: &heldOther, comparison: comparison)
                    switch (checks[index].same, checks[other].same) {
                    case (true, true):
                        // Taken out of the array: two `inout` elements of one array at once overlap.
                        var (a, b) = (checks[index].hash, checks[other].hash)
                        (checks[index].hash, checks[other].hash) = (SHA256(), SHA256())
                        SHA256.update(&a, bytes, &b, otherBytes)
                        (checks[index].hash, checks[other].hash) = (a, b)
                        checks[index].pairedBytes += bytes.count
                        checks[other].pairedBytes += otherBytes.count
                    case (true, false): checks[index].hash.update(bytes)
                    case (false, true): checks[other].hash.update(otherBytes)
                    case (false, false): break
                    }
                }
            }
        }
    }

    /// Reads `range` of a file into the start of `buffer` (grown as needed); a file that ends
    /// before the range does is an error (the log or snapshot changed under `verify`).
    static func read(_ file: (fd: Int32, path: String), _ range: Range<Int>, into buffer: inout [UInt8], fs: FileSystem) throws(StoreError) {
        guard try fs.read(file.fd, range, into: &buffer, path: file.path) else {
            throw .io(path: file.path, message: "\(file.path) ended before byte \(range.upperBound) while verify read it")
        }
    }

    /// One family's comparison so far.
    private struct Check {
        let encoder: SectionEncoder
        let stored: Range<Int>
        /// Bytes encoded (and compared, while they are the same).
        var length = 0
        var hash = SHA256()
        var same = true
        var finished = false
        var digest: [UInt8] = []
        var largestPart = 0
        var pairedBytes = 0

        init(encoder: SectionEncoder, stored: Range<Int>) {
            self.encoder = encoder
            self.stored = stored
        }

        /// Whether `bytes`, the next of the section, are the stored section's next bytes
        /// (read into `held`); counts them either way.
        mutating func matches(_ bytes: UnsafeBufferPointer<UInt8>, held: inout [UInt8], comparison: SectionComparison) throws(StoreError) -> Bool {
            let compared = length
            length += bytes.count
            largestPart = max(largestPart, bytes.count)
            guard same, compared + bytes.count <= stored.count else { return false }
            guard !bytes.isEmpty else { return true }
            let start = stored.lowerBound + compared
            try SectionComparison.read(comparison.snapshot, start..<(start + bytes.count), into: &held, fs: comparison.fs)
            return held.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
        }

        mutating func finish() {
            finished = true
            same = same && length == stored.count
            digest = hash.finalize()
        }
    }
}
