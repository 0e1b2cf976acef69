import CompassMachine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The ids a preparing thread has built lately, by their bytes: an id read again is given the
/// `String` and `hashValue` built the first time, instead of being built and hashed again.
///
/// A family's id and its members' recur on every line of the family, and its schools' and
/// coaches' on most; replay built each as a `String` and hashed it with SipHash (for the
/// fold's lookups, ``LineKeys``) on every line: about 1,800 instructions a line. Finding one
/// here is a cheap hash of its bytes and a comparison of five words.
///
/// A direct-mapped cache: an id has one slot, chosen by a hash of its bytes, and a different id
/// found there is replaced. So it holds a fixed number of ids whatever the log, and what it
/// gives for an id is always that id's own `String` and `hashValue` (a differential test reads
/// generated logs through one interner and line by line without).
///
/// A reader sizes it to the log (``slotCount(forLogBytes:)``), up to 8,192 slots (512 KB a
/// thread): the generated logs name about 1,060 ids (200 families, 800 members, their schools'
/// and coaches' ids), and in 1,024 slots they kept pushing each other out (callgrind: 332
/// instructions a lookup on the 100k log, most of them building and hashing the id again; 139
/// with 8,192 slots).
package struct IdInterner {
    /// The longest id kept (a UUID's 36 bytes fit); a longer one is built every time.
    static let longestKept = 40
    /// How many ids it holds at most, unless told otherwise.
    static let defaultSlotCount = 8192

    /// The slots for reading a log of `bytes` bytes: one per 8 KB of log, a power of two from
    /// 256 to ``defaultSlotCount``. A family's log of 5,000 events (3 MB, a few dozen ids) gets
    /// 512 (32 KB); the 100k-event log (58 MB, about 1,060 ids) and larger ones 8,192 (512 KB).
    package static func slotCount(forLogBytes bytes: Int) -> Int {
        var slots = 256
        while slots < defaultSlotCount, slots * 8_192 < bytes { slots <<= 1 }
        return slots
    }

    /// An id's bytes zero-padded to five words (an id has no zero byte, so the words alone tell
    /// ids apart), its text and its hash.
    private struct Slot {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        var text = ""
        var hash = 0
    }

    /// The slots, in memory of their own read and written in place (an array's
    /// `withUnsafeMutableBufferPointer` checked its uniqueness and its buffer at every id);
    /// nil for ``none``. A copy of an interner shares them: keep one per thread.
    private let table: Table?

    /// An interner that keeps up to `slotCount` ids (a power of two; 64 bytes each).
    package init(slotCount: Int = IdInterner.defaultSlotCount) {
        precondition(slotCount > 1 && slotCount.nonzeroBitCount == 1, "a power of two")
        table = Table(count: slotCount)
    }

    private init(table: Table?) {
        self.table = table
    }

    /// One that keeps nothing and builds every id, for a line prepared on its own.
    package static var none: IdInterner { IdInterner(table: nil) }

    /// An id's bytes zero-padded to five words (``Slot/words``).
    private typealias Words = (UInt64, UInt64, UInt64, UInt64, UInt64)

    /// The words of `bytes` (at most ``longestKept``). When the 40 bytes from their start may
    /// be read (up to `end`), they are loaded straight from there and the bytes past the id
    /// masked off: copied into the words first, each lookup waited for the copy's small
    /// stores to reach the loads of whole words (a quarter of its samples).
    @inline(__always) private static func words(_ bytes: UnsafeBufferPointer<UInt8>, readableTo end: UnsafePointer<UInt8>?) -> Words {
        let base = bytes.baseAddress!, count = bytes.count
        guard let end, base.distance(to: end) >= 40 else {
            var words: Words = (0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: base, byteCount: count) }
            return words
        }
        let raw = UnsafeRawPointer(base)
        @inline(__always) func word(_ k: Int) -> UInt64 {
            let left = count &- k &* 8
            guard left > 0 else { return 0 }
            let loaded = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k &* 8, as: UInt64.self))
            return (left >= 8 ? loaded : loaded & (~0 >> (64 &- 8 &* UInt64(left)))).littleEndian  // the id's bytes, in order
        }
        return (word(0), word(1), word(2), word(3), word(4))
    }

    /// The slot an id of these words and `count` bytes has.
    @inline(__always) private static func slot(_ words: Words, count: Int, in table: Table) -> UnsafeMutablePointer<Slot> {
        var mixed = words.0 &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ words.1) &* 0xC2B2_AE3D_27D4_EB4F
        if count > 16 { mixed = (mixed ^ words.2 ^ (words.3 &* 0x1656_67B1_9E37_79F9) ^ (words.4 &* 0x27D4_EB2F_1656_67C5)) &* 0x9E37_79B9_7F4A_7C15 }
        return table.base + Int(truncatingIfNeeded: mixed >> table.shift)
    }

    /// Starts loading the slot of the id spelled by `bytes` (a hint; never faults): a reader
    /// calls it where it reads an id it looks up at the end of the line, so the slot is in
    /// by then (nearly half of a lookup's samples waited for its slot).
    package func prefetch(_ bytes: UnsafeBufferPointer<UInt8>, readableTo end: UnsafePointer<UInt8>) {
        guard bytes.count <= Self.longestKept, let table, bytes.baseAddress != nil else { return }
        compass_prefetch(Self.slot(Self.words(bytes, readableTo: end), count: bytes.count, in: table))
    }

    /// The id spelled by `bytes` (1–64 id bytes) and its `hashValue`.
    package mutating func id(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: String, hash: Int) {
        id(bytes, readableTo: nil)
    }

    /// ``id(_:)`` of bytes of which the 40 from their start may be read when they are before
    /// `end` (a line's bytes, the id inside it; nil: only the id's own bytes).
    package mutating func id(_ bytes: UnsafeBufferPointer<UInt8>, readableTo end: UnsafePointer<UInt8>?) -> (text: String, hash: Int) {
        guard bytes.count <= Self.longestKept, let table, bytes.baseAddress != nil else {
            let text = String(decoding: bytes, as: UTF8.self)
            return (text, text.hashValue)
        }
        let words = Self.words(bytes, readableTo: end)
        let slot = Self.slot(words, count: bytes.count, in: table)
        let kept = slot.pointee.words
        if (kept.0 ^ words.0) | (kept.1 ^ words.1) | (kept.2 ^ words.2) | (kept.3 ^ words.3) | (kept.4 ^ words.4) == 0 {
            return (slot.pointee.text, slot.pointee.hash)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let hash = text.hashValue
        if kept.0 == 0 {
            slot.initialize(to: Slot(words: words, text: text, hash: hash))  // the slot's first id
        } else {
            slot.pointee = Slot(words: words, text: text, hash: hash)
        }
        return (text, hash)
    }

    /// The slots' memory, zeroed: a slot whose first word is zero holds no id (an id's first
    /// byte is not zero) and is not initialized; the others are.
    ///
    /// The system hands zeroed memory over untouched, so a slot's page is faulted in only when
    /// an id lands there: 8,192 slots initialized for each of a replay's preparing scratches
    /// (four then, two now) made a family-sized log's replay about a tenth slower.
    private final class Table {
        let base: UnsafeMutablePointer<Slot>
        let count: Int
        /// How far a 64-bit hash is shifted to give a slot's index.
        let shift: UInt64

        init(count: Int) {
            self.count = count
            shift = UInt64(64 - count.trailingZeroBitCount)
            guard let raw = calloc(count, MemoryLayout<Slot>.stride) else { fatalError("out of memory for an id cache") }
            base = raw.bindMemory(to: Slot.self, capacity: count)
        }

        deinit {
            for slot in 0..<count where (base + slot).pointer(to: \.words)!.pointee.0 != 0 {
                (base + slot).deinitialize(count: 1)
            }
            free(base)
        }
    }
}
