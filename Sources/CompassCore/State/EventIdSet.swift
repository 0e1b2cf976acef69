import CompassMachine

/// The ids of applied events, for duplicate detection.
///
/// Ids in the canonical lowercase UUID form (what `compass` generates, and most of any real
/// log) are kept as 128-bit keys in an open-addressing table: no string per id, no SipHash.
/// Every other id is kept as a string. An id is in exactly one of the two, so membership is
/// exact. A set read from a snapshot keeps that snapshot's keys as a sorted array (searched,
/// not rehashed) and adds new ids to the table.
package struct EventIdSet: Equatable, Sendable {
    /// Slots of (high, low) key halves; `(0, 0)` marks an empty slot.
    private var slots: [UInt64] = []
    private var used = 0
    /// Keys read from a snapshot: (high, low) pairs in ascending order, none in `slots`.
    private var base: [UInt64] = []
    /// Whether the all-zero UUID is in the set (it cannot live in a slot).
    private var hasZero = false
    private var others: Set<String> = []
    /// Keys of a snapshot still on disk, read a chunk at a time (none of them in `slots`).
    private var stored: StoredKeys?

    package init() {}

    /// The ids.
    package init<S: Sequence>(_ ids: S) where S.Element == String {
        for id in ids { insert(id) }
    }

    /// A set of the keys of a snapshot: `sortedKeys` holds (high, low) pairs in ascending
    /// order without repeats and without the zero key; `others` the ids of any other form.
    init(sortedKeys: [UInt64], hasZero: Bool, others: Set<String>) {
        base = sortedKeys
        self.hasZero = hasZero
        self.others = others
    }

    /// A set of a snapshot's keys left on disk (see ``StoredKeys``).
    init(stored: StoredKeys, hasZero: Bool, others: Set<String>) {
        self.stored = stored
        self.hasZero = hasZero
        self.others = others
    }

    package var count: Int { used + base.count / 2 + (stored?.pairCount ?? 0) + (hasZero ? 1 : 0) + others.count }

    /// Whether a chunk of keys left on disk did not check (the set is then incomplete).
    package var storedFailed: Bool { stored?.failed ?? false }

    /// Reads the chunk that would hold `id` now (so a later lookup cannot fail unnoticed).
    package func prefetch(_ id: String) {
        if let key = Self.uuidKey(id), key != (0, 0) { _ = stored?.contains(key) }
    }

    /// The set with every key in memory, or nil when a stored chunk does not check.
    package func materialized() -> EventIdSet? {
        guard let stored else { return self }
        guard let keys = stored.allKeys() else { return nil }
        var copy = self
        copy.stored = nil
        copy.base = keys  // a set read from a snapshot has no `base` of its own
        return copy
    }

    /// Makes room for `count` ids without growing again.
    package mutating func reserveCapacity(_ count: Int) {
        var keySlots = 32
        while keySlots < count * 2 { keySlots <<= 1 }
        if keySlots > slots.count / 2 { rehash(keySlots: keySlots) }
    }

    package func contains(_ id: String) -> Bool {
        contains(id, key: EventIdKey(id))
    }

    /// Whether `id`, whose key was worked out ahead (``EventIdKey/init(_:)``), is in the set.
    package func contains(_ id: String, key: EventIdKey) -> Bool {
        guard key.isUUID else { return others.contains(id) }
        let key = (key.high, key.low)
        if key == (0, 0) { return hasZero }
        return (!slots.isEmpty && find(key).found) || inBase(key) || stored?.contains(key) == true
    }

    /// Starts loading the table slot where `key` would be, so a ``contains(_:key:)`` a few
    /// lines later does not wait for memory (the table is far larger than the caches), in a
    /// set read where it lies (no copy of it).
    static func prefetch(in set: UnsafePointer<EventIdSet>, _ key: EventIdKey) {
        guard key.isUUID, let slots = set.pointer(to: \.slots) else { return }
        slots.withElements { table in
            guard let base = table.baseAddress, !table.isEmpty else { return }
            compass_prefetch(base + Self.slotIndex((key.high, key.low), slots: table.count) * 2)
        }
    }

    /// Adds an id; false when it was already there.
    @discardableResult
    package mutating func insert(_ id: String) -> Bool {
        insert(id, key: EventIdKey(id))
    }

    /// ``insert(_:)`` with the id's key worked out ahead.
    @discardableResult
    package mutating func insert(_ id: String, key: EventIdKey) -> Bool {
        guard key.isUUID else { return others.insert(id).inserted }
        let key = (key.high, key.low)
        if key == (0, 0) {
            defer { hasZero = true }
            return !hasZero
        }
        if inBase(key) || stored?.contains(key) == true { return false }
        if (used + 1) * 2 > slots.count / 2 { rehash(keySlots: max(32, slots.count)) }  // load ≤ 1/2
        let (found, slot) = find(key)
        if found { return false }
        slots[slot] = key.0
        slots[slot + 1] = key.1
        used += 1
        return true
    }

    /// Every id, in code-point order.
    package func sorted() -> [String] {
        var ids = Array(others)
        if hasZero { ids.append(Self.uuidText((0, 0))) }
        let keys = sortedKeys()
        for pair in stride(from: 0, to: keys.count, by: 2) { ids.append(Self.uuidText((keys[pair], keys[pair + 1]))) }
        return ids.sorted()
    }

    /// The UUID-form keys but the zero one, as (high, low) pairs in ascending order.
    func sortedKeys() -> [UInt64] {
        let base = stored?.allKeys() ?? self.base  // callers materialize first; see ``materialized()``
        // The table's keys, gathered as (high, low) words, then put in order.
        let keys = Self.sortedPairs([UInt64](unsafeUninitializedCapacity: used * 2) { gathered, count in
            var n = 0
            slots.withUnsafeBufferPointer { slots in
                for slot in stride(from: 0, to: slots.count, by: 2) where slots[slot] != 0 || slots[slot + 1] != 0 {
                    precondition(n < gathered.count, "more keys in the table than it counted")
                    (gathered[n], gathered[n + 1]) = (slots[slot], slots[slot + 1])
                    n += 2
                }
            }
            count = n
        })
        guard !base.isEmpty else { return keys }
        var merged: [UInt64] = []
        merged.reserveCapacity(base.count + keys.count)
        var b = 0
        for k in stride(from: 0, to: keys.count, by: 2) {
            let pair = (keys[k], keys[k + 1])
            while b < base.count, (base[b], base[b + 1]) < pair {
                merged.append(base[b])
                merged.append(base[b + 1])
                b += 2
            }
            merged.append(pair.0)
            merged.append(pair.1)
        }
        merged += base[b...]
        return merged
    }

    /// (high, low) pairs, given and returned as their words, in ascending order: distributed
    /// by their top 16 bits, then each bucket sorted in place. UUID keys are spread evenly, so
    /// a bucket holds a handful of keys and the whole sort is about linear (a comparison sort
    /// of a million keys was most of encoding a snapshot's ids); keys that crowd one bucket
    /// still sort in O(n log n).
    static func sortedPairs(_ words: [UInt64]) -> [UInt64] {
        let count = words.count / 2
        guard count > 1 << 12 else {
            return words.withUnsafeBufferPointer { w in
                var sorted = [UInt64](w)
                if count > 1 { sorted.withUnsafeMutableBufferPointer { sortRun($0.baseAddress!, count: count) } }
                return sorted
            }
        }
        var starts = [Int](repeating: 0, count: (1 << 16) + 1)
        return words.withUnsafeBufferPointer { words in
            starts.withUnsafeMutableBufferPointer { starts in
                for pair in 0..<count { starts[Int(words[2 * pair] >> 48) + 1] += 1 }
                for bucket in 0..<(1 << 16) { starts[bucket + 1] += starts[bucket] }
                return [UInt64](unsafeUninitializedCapacity: words.count) { out, written in
                    var next = Array(starts)
                    next.withUnsafeMutableBufferPointer { next in
                        for pair in 0..<count {
                            let (high, low) = (words[2 * pair], words[2 * pair + 1])
                            let bucket = Int(high >> 48), at = next[bucket]
                            (out[2 * at], out[2 * at + 1]) = (high, low)
                            next[bucket] = at + 1
                        }
                    }
                    for bucket in 0..<(1 << 16) where starts[bucket + 1] - starts[bucket] > 1 {
                        sortRun(out.baseAddress! + 2 * starts[bucket], count: starts[bucket + 1] - starts[bucket])
                    }
                    written = words.count
                }
            }
        }
    }

    /// Sorts the `count` (high, low) pairs of words at `run` in place: by insertion when they
    /// are few (a bucket of spread keys), else by the standard library's sort.
    private static func sortRun(_ run: UnsafeMutablePointer<UInt64>, count: Int) {
        guard count > 32 else {
            for i in stride(from: 1, to: count, by: 1) {
                let pair = (run[2 * i], run[2 * i + 1])
                var j = i
                while j > 0, (run[2 * j - 2], run[2 * j - 1]) > pair {
                    (run[2 * j], run[2 * j + 1]) = (run[2 * j - 2], run[2 * j - 1])
                    j -= 1
                }
                (run[2 * j], run[2 * j + 1]) = pair
            }
            return
        }
        var pairs = (0..<count).map { (run[2 * $0], run[2 * $0 + 1]) }
        pairs.sort { $0 < $1 }
        for (i, pair) in pairs.enumerated() { (run[2 * i], run[2 * i + 1]) = pair }
    }

    /// The ids that are not in UUID form, and whether the zero UUID is in the set.
    var otherIds: Set<String> { others }
    var containsZeroKey: Bool { hasZero }

    /// Binary search of the snapshot's keys.
    private func inBase(_ key: (UInt64, UInt64)) -> Bool { Self.search(base, key) }

    /// Binary search of sorted (high, low) pairs.
    static func search(_ keys: [UInt64], _ key: (UInt64, UInt64)) -> Bool {
        var low = 0, high = keys.count / 2
        while low < high {
            let middle = (low + high) / 2
            let probe = (keys[middle * 2], keys[middle * 2 + 1])
            if probe == key { return true }
            if probe < key { low = middle + 1 } else { high = middle }
        }
        return false
    }

    public static func == (a: EventIdSet, b: EventIdSet) -> Bool {
        a.count == b.count && a.sorted() == b.sorted()
    }

    /// The slot holding `key`, or the empty slot where it would go.
    private func find(_ key: (UInt64, UInt64)) -> (found: Bool, slot: Int) {
        let mask = slots.count / 2 - 1
        var index = slotIndex(key)
        return slots.withUnsafeBufferPointer { s in
            while true {
                let high = s[index * 2], low = s[index * 2 + 1]
                if high == key.0 && low == key.1 { return (true, index * 2) }
                if high == 0 && low == 0 { return (false, index * 2) }
                index = (index + 1) & mask
            }
        }
    }

    /// The first slot (in key slots, not words) probed for `key`.
    @inline(__always) private func slotIndex(_ key: (UInt64, UInt64)) -> Int {
        Self.slotIndex(key, slots: slots.count)
    }

    /// ``slotIndex(_:)`` in a table of `count` slots.
    @inline(__always) private static func slotIndex(_ key: (UInt64, UInt64), slots count: Int) -> Int {
        Int(truncatingIfNeeded: mix(key.0 ^ (key.1 &* 0x9E37_79B9_7F4A_7C15))) & (count / 2 - 1)
    }

    /// Grows to `keySlots` slots (a power of two) and reinserts.
    ///
    /// The new table's memory is advised for huge pages before it is first written: lookups
    /// fall anywhere in it (32 MB for a million ids), and with 4 KiB pages nearly every one
    /// missed the TLB (the fold's prefetch of a slot waited for the page walk: 4.5 % of a cold
    /// replay's samples, 2.0 % with huge pages).
    private mutating func rehash(keySlots: Int) {
        let old = slots
        slots = [UInt64](unsafeUninitializedCapacity: keySlots * 2) { buffer, count in
            compass_advise_huge_pages(buffer.baseAddress, buffer.count * 8)
            buffer.initialize(repeating: 0)
            count = buffer.count
        }
        for slot in stride(from: 0, to: old.count, by: 2) where old[slot] != 0 || old[slot + 1] != 0 {
            let (_, free) = find((old[slot], old[slot + 1]))
            slots[free] = old[slot]
            slots[free + 1] = old[slot + 1]
        }
    }

    /// A 64-bit finalizer (MurmurHash3's), so sequential ids spread over the table.
    @inline(__always) static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }

    /// The 128-bit key of an id in the form `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (lowercase
    /// hex), or nil for any other id.
    static func uuidKey(_ id: String) -> (UInt64, UInt64)? {
        guard id.utf8.count == 36 else { return nil }
        return id.utf8.withContiguousStorageIfAvailable { uuidKey(bytes: $0) } ?? nil
    }

    /// ``uuidKey(_:)`` of an id's UTF-8 bytes.
    static func uuidKey(bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard bytes.count == 36, let p = bytes.baseAddress, p[8] == 0x2D, p[13] == 0x2D, p[18] == 0x2D, p[23] == 0x2D else { return nil }
        // The 32 digits side by side without their dashes, then checked and read together
        // (``ByteClass/hexBytes(_:count:into:)``).
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { out in
            let from = UnsafeRawPointer(p)
            out.storeBytes(of: from.loadUnaligned(as: UInt64.self), toByteOffset: 0, as: UInt64.self)
            out.storeBytes(of: from.loadUnaligned(fromByteOffset: 9, as: UInt32.self), toByteOffset: 8, as: UInt32.self)
            out.storeBytes(of: from.loadUnaligned(fromByteOffset: 14, as: UInt32.self), toByteOffset: 12, as: UInt32.self)
            out.storeBytes(of: from.loadUnaligned(fromByteOffset: 19, as: UInt32.self), toByteOffset: 16, as: UInt32.self)
            out.storeBytes(of: from.loadUnaligned(fromByteOffset: 24, as: UInt64.self), toByteOffset: 20, as: UInt64.self)
            out.storeBytes(of: from.loadUnaligned(fromByteOffset: 32, as: UInt32.self), toByteOffset: 28, as: UInt32.self)
        }
        var key: (UInt64, UInt64) = (0, 0)
        let read = withUnsafeBytes(of: &digits) { digits in
            withUnsafeMutableBytes(of: &key) { ByteClass.hexBytes(digits.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 16, into: $0.baseAddress!) }
        }
        return read ? (UInt64(bigEndian: key.0), UInt64(bigEndian: key.1)) : nil
    }

    /// The id a UUID key was made from (the form is lowercase only, so it is spelled back exactly).
    static func uuidText(_ key: (UInt64, UInt64)) -> String {
        String(unsafeUninitializedCapacity: 36) { spell(key, into: $0.baseAddress!); return 36 }
    }

    /// Writes the 36 bytes of the id a UUID key was made from.
    ///
    /// Eight hex digits at a time (``hexDigits(_:)``), stored in five pieces around the four
    /// dashes: a snapshot spells a million ids, and a digit at a time was a tenth of its work.
    static func spell(_ key: (UInt64, UInt64), into out: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(out)
        let (a, b) = (hexDigits(UInt32(truncatingIfNeeded: key.0 >> 32)), hexDigits(UInt32(truncatingIfNeeded: key.0)))
        let (c, d) = (hexDigits(UInt32(truncatingIfNeeded: key.1 >> 32)), hexDigits(UInt32(truncatingIfNeeded: key.1)))
        raw.storeBytes(of: a.littleEndian, toByteOffset: 0, as: UInt64.self)  // 0–7
        raw.storeBytes(of: UInt32(truncatingIfNeeded: b).littleEndian, toByteOffset: 9, as: UInt32.self)  // 9–12
        raw.storeBytes(of: UInt32(truncatingIfNeeded: b >> 32).littleEndian, toByteOffset: 14, as: UInt32.self)  // 14–17
        raw.storeBytes(of: UInt32(truncatingIfNeeded: c).littleEndian, toByteOffset: 19, as: UInt32.self)  // 19–22
        raw.storeBytes(of: UInt32(truncatingIfNeeded: c >> 32).littleEndian, toByteOffset: 24, as: UInt32.self)  // 24–27
        raw.storeBytes(of: d.littleEndian, toByteOffset: 28, as: UInt64.self)  // 28–35
        (out[8], out[13], out[18], out[23]) = (0x2D, 0x2D, 0x2D, 0x2D)
    }

    /// The eight lowercase hex digits of `value`, the first (most significant) in the lowest
    /// byte: spread a nibble to a byte, then each byte to `0`–`9` or `a`–`f`, all eight at once.
    @inline(__always) static func hexDigits(_ value: UInt32) -> UInt64 {
        var x = UInt64(value)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F  // byte i holds nibble i (the least significant first)
        let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101  // 1 where the nibble is 10 or more
        x = x &+ 0x3030_3030_3030_3030 &+ letters &* 0x27  // "0" + nibble, and 39 more for "a"–"f"
        return x.byteSwapped
    }
}

/// How ``EventIdSet`` keys an id, worked out once per line (while it is prepared, off the fold
/// thread): its 128-bit key when it is in UUID form.
package struct EventIdKey: Equatable, Sendable {
    let high: UInt64
    let low: UInt64
    /// Whether the id is in UUID form (otherwise the set keeps it as a string).
    let isUUID: Bool

    /// The key of `id`.
    package init(_ id: String) {
        if let key = EventIdSet.uuidKey(id) {
            (high, low, isUUID) = (key.0, key.1, true)
        } else {
            (high, low, isUUID) = (0, 0, false)
        }
    }

    /// The key of an id in UUID form given as its bytes; nil for any other id.
    init?(uuidBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let key = EventIdSet.uuidKey(bytes: bytes) else { return nil }
        (high, low, isUUID) = (key.0, key.1, true)
    }

    /// The id a UUID key was made from (only for a key in UUID form).
    var uuidText: String {
        precondition(isUUID, "spelling a key that is not a UUID")
        return EventIdSet.uuidText((high, low))
    }

    /// Writes the 36 bytes of the id a UUID key was made from.
    func spell(into out: UnsafeMutablePointer<UInt8>) {
        precondition(isUUID, "spelling a key that is not a UUID")
        EventIdSet.spell((high, low), into: out)
    }
}
