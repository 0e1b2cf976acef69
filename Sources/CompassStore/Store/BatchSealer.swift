import CompassCore
import Dispatch

/// A batch's encoded lines sealed into the bytes to write, each family's chain on its own
/// core.
///
/// A line's `prev` is its own family's previous line's hash (SPEC §1.1), so the chains of
/// different families do not wait on each other. Every sealed line is its unsealed bytes plus
/// a suffix of fixed length, so each line's place in the output is known before any hash is:
/// the families are sealed and hashed in parallel, each into its own lines' bytes.
struct BatchSealer {
    /// `,"prev":"` + 64 hex digits + `"}`: what sealing adds to an unsealed line.
    static let suffixBytes = 9 + 64 + 2
    /// Below this many lines (or with one family) the batch is sealed on the calling thread.
    static let minimumParallel = 256

    /// The bytes to write: every line and its `\n`.
    private(set) var output: [UInt8] = []
    /// Each line's bytes in ``output``, without its `\n`.
    private(set) var lines: [Range<Int>] = []
    /// Each line's `prev`: its family's previous line's hash (kept as words: no string a line).
    private(set) var prevs: [LineHash] = []
    /// Each line's hash.
    private(set) var hashes: [LineHash] = []
    /// Each family of the batch with its last line's hash, hex.
    private(set) var heads: [(family: String, hash: String)] = []

    /// Seals `unsealed` (lines of `families`, in order); `head` gives a family's hash before
    /// the batch (64 lowercase hex digits). Throws the first line that would be longer than
    /// `maxLineBytes`, before sealing any.
    init(unsealed: [[UInt8]], families: (Int) -> String, head: (String) -> String,
         maxLineBytes: Int = Replayer.maxLineBytes) throws(EventError) {
        let count = unsealed.count
        var lines: [Range<Int>] = []
        lines.reserveCapacity(count)
        var groupOf: [String: Int] = [:]
        var groups: [[Int]] = []
        var start = 0
        for index in 0..<count {
            let length = unsealed[index].count + Self.suffixBytes
            guard length <= maxLineBytes else {
                throw EventError("Event too large: \(length) bytes (a log line is at most \(maxLineBytes) bytes)")
            }
            lines.append(start..<start + length)
            start += length + 1
            let family = families(index)
            if let group = groupOf[family] {
                groups[group].append(index)
            } else {
                groupOf[family] = groups.count
                groups.append([index])
                heads.append((family, head(family)))
            }
        }
        let firsts = heads.map { family, hash in
            var hash = hash
            guard let words = hash.withUTF8({ LineHash(hex: $0) }) else { preconditionFailure("a family's head is 64 hex digits: \(family)") }
            return words
        }
        guard count > 0 else { return }
        // (Every place is written by sealing; a family's head stands in until then.)
        var prevs = [LineHash](repeating: firsts[0], count: count)
        var hashes = [LineHash](repeating: firsts[0], count: count)
        output = [UInt8](unsafeUninitializedCapacity: start) { buffer, initialized in
            prevs.withUnsafeMutableBufferPointer { prevs in
                hashes.withUnsafeMutableBufferPointer { hashes in
                    unsealed.withUnsafeBufferPointer { unsealed in
                        let work = Work(output: buffer.baseAddress!, lines: lines, unsealed: unsealed, groups: groups,
                                        firsts: firsts, prevs: prevs.baseAddress!, hashes: hashes.baseAddress!)
                        if groups.count == 1 || count < Self.minimumParallel {
                            for group in groups.indices { work.seal(group: group) }
                        } else {
                            DispatchQueue.concurrentPerform(iterations: groups.count) { work.seal(group: $0) }
                        }
                    }
                }
            }
            initialized = start
        }
        for group in groups.indices { heads[group].hash = hashes[groups[group].last!].hex }
        self.lines = lines
        self.prevs = prevs
        self.hashes = hashes
    }

    /// The lines of decided events: encoded without `prev` on every core, then sealed (`head`:
    /// each family's hash before them).
    static func lines(of events: [Event], head: (String) -> String) throws(StoreError) -> BatchSealer {
        let unsealed = Parallel.map(events, EventEncoder.unsealedLine)
        do throws(EventError) {
            return try BatchSealer(unsealed: unsealed, families: { events[$0].family }, head: head)
        } catch {
            throw .rejected(error)
        }
    }

    /// What the workers share; each family's lines are written by one worker only.
    private struct Work: @unchecked Sendable {
        let output: UnsafeMutablePointer<UInt8>
        let lines: [Range<Int>]
        let unsealed: UnsafeBufferPointer<[UInt8]>
        let groups: [[Int]]
        let firsts: [LineHash]
        let prevs: UnsafeMutablePointer<LineHash>
        let hashes: UnsafeMutablePointer<LineHash>

        /// Writes and hashes one family's lines in order, each chained to the one before.
        func seal(group: Int) {
            var prev = firsts[group]
            for index in groups[group] {
                let line = lines[index]
                var at = output + line.lowerBound
                unsealed[index].withUnsafeBufferPointer { bytes in
                    at.initialize(from: bytes.baseAddress!, count: bytes.count)
                    at += bytes.count
                }
                for byte in #","prev":""#.utf8 { at.initialize(to: byte); at += 1 }
                prev.writeHex(to: at)
                at += 64
                at.initialize(to: UInt8(ascii: "\"")); at += 1
                at.initialize(to: UInt8(ascii: "}")); at += 1
                at.initialize(to: 0x0A)
                let hash = SHA256.lineHash(UnsafeBufferPointer(start: output + line.lowerBound, count: line.count))
                prevs[index] = prev
                hashes[index] = hash
                prev = hash
            }
        }
    }
}
