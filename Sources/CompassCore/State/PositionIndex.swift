import CompassMachine

/// Positions of records found by their id's hash: open addressing with linear probing, the
/// hash and the position of a slot side by side, at most half the slots used.
///
/// The hash is the id's `hashValue` (Swift's seeded SipHash, so crafted ids cannot make
/// every probe collide); replay works it out while the line is prepared, so the fold does not
/// hash the id again, and it prefetches the slot a few lines ahead. A hash match is confirmed
/// by the caller against the record's own id, so collisions never merge records.
struct PositionIndex: Sendable {
    /// Two words per slot: the hash, then the position (-1 when the slot is empty).
    private var slots: [Int] = []
    private var used = 0

    /// The position of the record whose id hashes to `hash` and passes `isMatch`.
    @inline(__always) func position(hash: Int, where isMatch: (Int) -> Bool) -> Int? {
        slots.withUnsafeBufferPointer { Self.probe($0, hash: hash, where: isMatch) }
    }

    /// ``position(hash:where:)`` in an index read where it lies (no reference count taken).
    @inline(__always) static func position(in index: UnsafePointer<PositionIndex>, hash: Int, where isMatch: (Int) -> Bool) -> Int? {
        index.pointer(to: \.slots)!.withElements { probe($0, hash: hash, where: isMatch) }
    }

    /// The first position stored under `hash`, unconfirmed (a hint for prefetching only), in
    /// an index read where it lies (no reference count taken).
    static func anyPosition(in index: UnsafePointer<PositionIndex>, hash: Int) -> Int? {
        index.pointer(to: \.slots)!.withElements { probe($0, hash: hash) { _ in true } }
    }

    /// Probes `words` (the slots) from `hash`'s slot for a position stored under `hash` that
    /// passes `isMatch`, until an empty slot.
    @inline(__always) private static func probe(_ words: UnsafeBufferPointer<Int>, hash: Int, where isMatch: (Int) -> Bool) -> Int? {
        guard !words.isEmpty else { return nil }
        let mask = words.count / 2 - 1
        var slot = hash & mask
        while true {
            let position = words[slot * 2 + 1]
            if position < 0 { return nil }
            if words[slot * 2] == hash, isMatch(position) { return position }
            slot = (slot + 1) & mask
        }
    }

    /// Starts loading the slot where `hash` would be (a hint; never faults), in an index read
    /// where it lies (no copy of its slots, no reference count taken).
    static func prefetch(in index: UnsafePointer<PositionIndex>, hash: Int) {
        index.pointer(to: \.slots)!.withElements { words in
            guard let base = words.baseAddress, !words.isEmpty else { return }
            compass_prefetch(base + (hash & (words.count / 2 - 1)) * 2)
        }
    }

    /// Records `position` under `hash` (the caller has checked that its id is not there yet).
    mutating func insert(hash: Int, position: Int) {
        if (used + 1) * 2 > slots.count / 2 { grow(to: max(16, slots.count)) }
        Self.place(hash: hash, position: position, in: &slots)
        used += 1
    }

    /// Makes room for `count` positions without growing again.
    mutating func reserveCapacity(_ count: Int) {
        var keySlots = 16
        while keySlots < count * 2 { keySlots <<= 1 }
        if keySlots > slots.count / 2 { grow(to: keySlots) }
    }

    private mutating func grow(to keySlots: Int) {
        var grown = [Int](repeating: -1, count: keySlots * 2)
        for slot in stride(from: 0, to: slots.count, by: 2) where slots[slot + 1] >= 0 {
            Self.place(hash: slots[slot], position: slots[slot + 1], in: &grown)
        }
        slots = grown
    }

    private static func place(hash: Int, position: Int, in slots: inout [Int]) {
        let mask = slots.count / 2 - 1
        var slot = hash & mask
        while slots[slot * 2 + 1] >= 0 { slot = (slot + 1) & mask }
        slots[slot * 2] = hash
        slots[slot * 2 + 1] = position
    }
}
