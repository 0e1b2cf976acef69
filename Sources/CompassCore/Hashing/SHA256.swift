import CompassMachine

/// SHA-256 (FIPS 180-4), written in-house so the core needs no crypto package.
///
/// Blocks are compressed with the CPU's SHA instructions when it has them (x86-64 SHA-NI,
/// a few lines of C in `CompassMachine`), else by the portable Swift code below; both are
/// checked against the FIPS vectors.
///
/// Use ``hash(_:)`` for one buffer, or feed bytes with ``update(_:)`` and call ``finalize()``.
package struct SHA256: Sendable {
    /// The round constants, from the C target (spelled once, for both paths).
    private static let k: [UInt32] = withUnsafeBytes(of: compass_sha256_k) { Array($0.bindMemory(to: UInt32.self)) }

    /// Whether the SHA-NI path is used on this machine.
    package static let isAccelerated = compass_sha256_accelerated() == 1

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    package init() {}

    /// The lowercase hex digest of one buffer.
    package static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if let digest = bytes.withContiguousStorageIfAvailable({ hex($0) }) { return digest }
        return Array(bytes).withUnsafeBufferPointer { hex($0) }
    }

    /// The lowercase hex digest of an array of bytes.
    package static func hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { hex($0) }
    }

    /// The lowercase hex digest of a buffer.
    ///
    /// The one-shot path of every log line: whole blocks are compressed where they lie, the
    /// padded tail is built on the stack, and the only allocation is the returned string.
    package static func hex(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        lineHash(bytes).hex
    }

    /// The digest of a buffer kept as words (no string): what replay keeps per line.
    package static func lineHash(_ bytes: UnsafeBufferPointer<UInt8>) -> LineHash {
        LineHash(words: finished(bytes).state)
    }

    /// The 32-byte digest of some bytes.
    package static func digest(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { digest($0) }
    }

    /// The 32-byte digest of a buffer.
    package static func digest(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        finished(bytes).digestBytes
    }

    /// ``update(_:)`` of two hashers, each with its own bytes, in less time where the CPU has
    /// the SHA extensions: the whole blocks both have go through them together.
    package static func update(_ a: inout SHA256, _ bytesA: UnsafeBufferPointer<UInt8>, _ b: inout SHA256, _ bytesB: UnsafeBufferPointer<UInt8>) {
        guard isAccelerated, !a.forcePortable, !b.forcePortable else {
            a.update(bytesA)
            b.update(bytesB)
            return
        }
        // Each hasher's part-filled block first, alone.
        let headA = a.pending.isEmpty ? 0 : min(64 - a.pending.count, bytesA.count)
        let headB = b.pending.isEmpty ? 0 : min(64 - b.pending.count, bytesB.count)
        a.update(UnsafeBufferPointer(rebasing: bytesA[0..<headA]))
        b.update(UnsafeBufferPointer(rebasing: bytesB[0..<headB]))
        let together = a.pending.isEmpty && b.pending.isEmpty ? min((bytesA.count - headA) / 64, (bytesB.count - headB) / 64) : 0
        if together > 0 {
            compressTogether(&a, bytesA.baseAddress! + headA, &b, bytesB.baseAddress! + headB, count: together)
            a.length &+= UInt64(together * 64)
            b.length &+= UInt64(together * 64)
        }
        a.update(UnsafeBufferPointer(rebasing: bytesA[(headA + together * 64)...]))
        b.update(UnsafeBufferPointer(rebasing: bytesB[(headB + together * 64)...]))
    }

    /// The digest's bytes: each state word big-endian.
    private var digestBytes: [UInt8] {
        withUnsafeBytes(of: state) { raw in
            (0..<32).map { k in
                UInt8(truncatingIfNeeded: raw.load(fromByteOffset: (k / 4) * 4, as: UInt32.self) >> UInt32(24 - 8 * (k % 4)))
            }
        }
    }

    /// Compresses `count` blocks of each of two messages into their hashers, together.
    private static func compressTogether(_ a: inout SHA256, _ runA: UnsafePointer<UInt8>, _ b: inout SHA256, _ runB: UnsafePointer<UInt8>,
                                         count: Int) {
        withUnsafeMutableBytes(of: &a.state) { stateA in
            withUnsafeMutableBytes(of: &b.state) { stateB in
                compass_sha256_blocks_x2(stateA.baseAddress!.assumingMemoryBound(to: UInt32.self), runA,
                                         stateB.baseAddress!.assumingMemoryBound(to: UInt32.self), runB, count)
            }
        }
    }

    /// A hasher that has compressed all of `bytes` and their padding.
    private static func finished(_ bytes: UnsafeBufferPointer<UInt8>) -> SHA256 {
        var hasher = SHA256()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
            hasher.compress(PaddedMessage(bytes, tail: tail), from: 0)
        }
        return hasher
    }

    /// Compresses a padded message's blocks from `block` on.
    private mutating func compress(_ message: PaddedMessage, from block: Int) {
        var block = block
        while block < message.blocks {
            let (run, count) = message.run(from: block)
            compressBlocks(UnsafeBufferPointer(start: run, count: count * 64), at: 0, count: count)
            block += count
        }
    }

    /// The hashes of many lines (`ranges` of `bytes`) into `hashes` (initialized here), what
    /// one ``lineHash(_:)`` each gives, in less time where the CPU has the SHA extensions: two
    /// lines' blocks go through them together (``compass_sha256_blocks_x2``), and when one line
    /// ends the next takes its lane, so only the last line's last blocks run alone.
    package static func lineHashes(of ranges: UnsafeBufferPointer<Range<Int>>, in bytes: UnsafeBufferPointer<UInt8>,
                                   into hashes: UnsafeMutablePointer<LineHash>) {
        guard isAccelerated, ranges.count > 1 else {
            for k in ranges.indices { (hashes + k).initialize(to: lineHash(UnsafeBufferPointer(rebasing: bytes[ranges[k]]))) }
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { tails in
            /// A line being hashed, its padded tail in its half of `tails`.
            struct Lane {
                var message: PaddedMessage
                var hasher = SHA256()
                var block = 0
                let line: Int
            }
            func lane(_ line: Int, half: Int) -> Lane {
                Lane(message: PaddedMessage(UnsafeBufferPointer(rebasing: bytes[ranges[line]]),
                                            tail: UnsafeMutableBufferPointer(rebasing: tails[(128 * half)..<(128 * half + 128)])),
                     line: line)
            }
            func finish(_ lane: inout Lane) {
                lane.hasher.compress(lane.message, from: lane.block)
                (hashes + lane.line).initialize(to: LineHash(words: lane.hasher.state))
            }
            var a = lane(0, half: 0), b = lane(1, half: 1)
            var next = 2
            while true {
                let (runA, countA) = a.message.run(from: a.block), (runB, countB) = b.message.run(from: b.block)
                let count = min(countA, countB)
                compressTogether(&a.hasher, runA, &b.hasher, runB, count: count)
                a.block += count
                b.block += count
                if a.block == a.message.blocks {
                    finish(&a)
                    guard next < ranges.count else { return finish(&b) }
                    a = lane(next, half: 0)
                    next += 1
                }
                if b.block == b.message.blocks {
                    finish(&b)
                    guard next < ranges.count else { return finish(&a) }
                    b = lane(next, half: 1)
                    next += 1
                }
            }
        }
    }

    /// A message as SHA-256 compresses it: its whole blocks where they lie, then its last
    /// bytes, the padding and the bit length in one or two blocks built in `tail` (128 bytes).
    ///
    /// The tail is built when the message's blocks reach it, not before: by then its whole
    /// blocks were read from the start, and its last bytes are in the cache (built first, the
    /// copy of a line's last bytes waited for them to come from the core that split the lines).
    private struct PaddedMessage {
        private let whole: Int
        private let start: UnsafePointer<UInt8>?
        private let count: Int
        private let tail: UnsafeMutablePointer<UInt8>
        /// Blocks in all, the tail's included.
        let blocks: Int

        init(_ bytes: UnsafeBufferPointer<UInt8>, tail: UnsafeMutableBufferPointer<UInt8>) {
            whole = bytes.count / 64
            start = bytes.baseAddress
            count = bytes.count
            self.tail = tail.baseAddress!
            blocks = whole + (bytes.count - whole * 64 + 9 <= 64 ? 1 : 2)
        }

        /// Where block `index` is, and how many blocks lie one after another from there (the
        /// tail is built the first time, at its first block).
        func run(from index: Int) -> (UnsafePointer<UInt8>, Int) {
            if index < whole { return (start! + 64 * index, whole - index) }
            if index == whole { buildTail() }
            return (UnsafePointer(tail) + 64 * (index - whole), blocks - index)
        }

        /// The last bytes, the `0x80`, the zeros and the length in bits (big-endian, in the last
        /// eight bytes) in `tail`.
        private func buildTail() {
            let rest = count - whole * 64
            let padded = (blocks - whole) * 64
            if rest > 0 { tail.update(from: start! + whole * 64, count: rest) }
            tail[rest] = 0x80
            (tail + rest + 1).update(repeating: 0, count: padded - rest - 9)
            UnsafeMutableRawPointer(tail + padded - 8).storeBytes(of: (UInt64(count) &* 8).bigEndian, as: UInt64.self)
        }
    }

    /// Whether `text` is a hash as the log writes one: 64 lowercase hex digits (the one check
    /// of a `prev`, a `was`, an attachment's or a document's hash, an expected head).
    package static func isHex(_ text: String) -> Bool {
        var text = text
        return text.utf8.count == 64 && text.withUTF8 { ByteClass.allLowerHex($0.baseAddress!, count: 64) }
    }

    /// The hex digest of the empty string, the `prev` of a family's first line.
    package static let emptyHex = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// The hash of no bytes: the `prev` of a family's first line (SPEC §1.1).
    package static let emptyLineHash = LineHash(of: UnsafeBufferPointer(start: nil, count: 0))

    /// Adds bytes to the message.
    package mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update($0) }) { return done }
        Array(bytes).withUnsafeBufferPointer { update($0) }
    }

    /// Adds bytes to the message.
    package mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<take]))
            offset = take
            if pending.count == 64 {
                pending.withUnsafeBufferPointer { compressBlocks($0, at: 0, count: 1) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        let blocks = (bytes.count - offset) / 64
        if blocks > 0 {
            compressBlocks(bytes, at: offset, count: blocks)
            offset += blocks * 64
        }
        if offset < bytes.count {
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset...]))
        }
    }

    /// The 32-byte digest.
    package mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBufferPointer { buffer in compressBlocks(buffer, at: 0, count: buffer.count / 64) }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            for shift in stride(from: 24, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return digest
    }

    /// The lowercase hex digest.
    package mutating func finalizeHex() -> String {
        _ = finalize()
        return LineHash(words: state).hex
    }

    private mutating func compressBlocks(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, count: Int) {
        if Self.isAccelerated, !forcePortable {
            withUnsafeMutableBytes(of: &state) { raw in
                compass_sha256_blocks(raw.baseAddress!.assumingMemoryBound(to: UInt32.self), bytes.baseAddress! + offset, count)
            }
            return
        }
        for block in 0..<count { compress(bytes, at: offset + block * 64) }
    }

    /// Whether to force the portable path (tests compare both).
    static func portableHex(_ bytes: [UInt8]) -> String {
        var hasher = SHA256()
        hasher.forcePortable = true
        hasher.update(bytes)
        return hasher.finalizeHex()
    }

    private var forcePortable = false

    private mutating func compress(_ block: UnsafeBufferPointer<UInt8>, at offset: Int) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            compress(block, at: offset, schedule: w)
        }
    }

    private mutating func compress(_ block: UnsafeBufferPointer<UInt8>, at offset: Int, schedule w: UnsafeMutableBufferPointer<UInt32>) {
        for i in 0..<16 {
            let base = offset + i * 4
            w[i] = UInt32(block[base]) << 24 | UInt32(block[base + 1]) << 16 | UInt32(block[base + 2]) << 8 | UInt32(block[base + 3])
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for i in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let ch = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ ch &+ Self.k[i] &+ w[i]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            h = g; g = f; f = e; e = d &+ t1
            d = c; c = b; b = a; a = t1 &+ t2
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                 state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }

    @inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
