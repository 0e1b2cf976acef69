import CompassMachine

/// The texts of a table's records, end to end in fixed-size chunks of bytes: a record holds a
/// ``TextSpan`` (one word) where it would hold a `String` (two words, and for a text longer
/// than 15 bytes a heap object with its own reference count).
///
/// Texts are only ever added; a span stays valid for the arena's life. Chunks are never grown
/// or moved (a full one is left as it is and a new one started), so adding a text copies its
/// bytes once and the arena holds at most one part-filled chunk. Reading a span back builds a
/// `String` only when a view shows it.
///
/// A chunk is raw memory owned by a ``TextChunk``; the arena keeps the chunks' base pointers
/// in a plain array beside their owners, so reading a text is two loads and no reference
/// count (a snapshot's encoding reads eleven texts per record). A copy of the arena shares
/// its chunks: their bytes up to where each copy's spans end never change, and a chunk is only
/// written while one arena alone holds it (a copy that adds starts a chunk of its own), so
/// copies on different threads never write the same memory.
struct TextArena: @unchecked Sendable {
    /// Bytes of a chunk; a longer text gets a chunk of its own.
    static let chunkSize = 1 << 16
    /// Where each chunk's bytes start (the owners' `base`, read without touching the owner).
    private var bases: [UnsafeMutablePointer<UInt8>] = []
    /// The chunks, which free their bytes when no arena holds them.
    private var owners: [TextChunk] = []
    /// Bytes used in the last chunk.
    private var tail = 0
    /// Bytes held in all.
    private(set) var count = 0

    /// Starts loading what adding a text to the arena at `arena` reads and writes (a hint;
    /// never faults): first (`headers`) the last chunk's owner, whose reference count is
    /// checked, then, those loaded, the bytes where the next text goes.
    static func prefetchTail(in arena: UnsafePointer<TextArena>, headers: Bool) {
        if headers {
            // The owner's address is read as a word: taking the reference would count it.
            arena.pointer(to: \.owners)!.withElements { owners in
                guard let first = owners.baseAddress, !owners.isEmpty else { return }
                compass_prefetch(UnsafeRawPointer(first + owners.count - 1).load(as: UnsafeRawPointer.self))
            }
        } else if let base = arena.pointer(to: \.bases)!.withElements({ $0.last }) {
            compass_prefetch_write(base + arena.pointer(to: \.tail)!.pointee)
        }
    }

    /// Stores `text` and returns where it is.
    mutating func add(_ text: String) -> TextSpan {
        var text = text
        return text.withUTF8 { add(bytes: $0) }
    }

    /// Stores the id a UUID key was made from as the key's 16 bytes; it is spelled (36 bytes)
    /// when it is read. The fold stores a million event ids: it copies two words for each and
    /// spells none, and the arena holds 16 bytes where it held 36.
    mutating func add(uuid key: EventIdKey) -> TextSpan {
        precondition(key.isUUID, "storing a key that is not a UUID")
        let span = withUnsafeBytes(of: (key.high.littleEndian, key.low.littleEndian)) { add(bytes: $0.assumingMemoryBound(to: UInt8.self)) }
        return span.spellingUUID
    }

    /// Stores `text` when there is one; ``TextSpan/none`` for nil.
    mutating func add(_ text: String?) -> TextSpan {
        guard let text else { return .none }
        return add(text)
    }

    /// Stores bytes read back from a snapshot: as they are when they are UTF-8, as the text
    /// `String` makes of them otherwise (what reading them as a `String` always gave).
    mutating func add(decoding bytes: UnsafeBufferPointer<UInt8>) -> TextSpan {
        UTF8Check.utf16Count(ifValid: bytes) != nil ? add(bytes: bytes) : add(String(decoding: bytes, as: UTF8.self))
    }

    /// Stores UTF-8 bytes and returns where they are.
    mutating func add(bytes text: UnsafeBufferPointer<UInt8>) -> TextSpan {
        let length = text.count
        // A text longer than a span's length field holds (never from a log line, which is at
        // most 1 MiB; possible from an app folding its own events) has its length first.
        let long = length >= TextSpan.uuidLength
        let needed = length + (long ? 8 : 0)
        let last = owners.count - 1
        // The last chunk takes the text when it has room and a span can start there (a text
        // longer than a chunk has one of its own, which takes nothing after it), and no other
        // arena holds it (an arena copied from this one reads its bytes: not this one's to write).
        if last < 0 || tail + needed > Self.chunkSize || tail >= Self.chunkSize || !isKnownUniquelyReferenced(&owners[last]) {
            let chunk = TextChunk(capacity: max(Self.chunkSize, needed))
            owners.append(chunk)
            bases.append(chunk.base)
            tail = 0
        }
        let chunk = owners.count - 1
        var at = bases[chunk] + tail
        if long {
            withUnsafeBytes(of: UInt64(length).littleEndian) { UnsafeMutableRawPointer(at).copyMemory(from: $0.baseAddress!, byteCount: 8) }
            at += 8
        }
        if let source = text.baseAddress { at.update(from: source, count: length) }
        let start = tail + (long ? 8 : 0)
        tail += needed
        count += needed
        return TextSpan(chunk: chunk, start: start, length: long ? TextSpan.longLength : length)
    }

    /// Makes the last chunk this arena's alone, with room for `bytes` more bytes: texts adding
    /// up to at most that many then go in with ``addReserved(_:)`` (and its kin) without the
    /// checks ``add(bytes:)`` makes for each. A row's five to seven ids went in with a
    /// uniqueness check and a room check each. False, with nothing done, for a chunk's worth or
    /// more (then ``add(bytes:)`` takes each).
    mutating func reserve(_ bytes: Int) -> Bool {
        guard bytes < Self.chunkSize else { return false }
        let last = owners.count - 1
        // Strictly below the chunk's end: every text then starts where a span can address it.
        if last < 0 || tail + bytes >= Self.chunkSize || !isKnownUniquelyReferenced(&owners[last]) {
            let chunk = TextChunk(capacity: Self.chunkSize)
            owners.append(chunk)
            bases.append(chunk.base)
            tail = 0
        }
        return true
    }

    /// Stores UTF-8 bytes in the room ``reserve(_:)`` made (which they must fit).
    @inline(__always) mutating func addReserved(bytes text: UnsafeBufferPointer<UInt8>) -> TextSpan {
        let chunk = bases.count - 1
        assert(chunk >= 0 && tail + text.count < Self.chunkSize, "a text beyond the room reserved")
        if let source = text.baseAddress { (bases[chunk] + tail).update(from: source, count: text.count) }
        let span = TextSpan(chunk: chunk, start: tail, length: text.count)
        tail += text.count
        count += text.count
        return span
    }

    /// ``addReserved(bytes:)`` of a text.
    @inline(__always) mutating func addReserved(_ text: String) -> TextSpan {
        if let span = text.utf8.withContiguousStorageIfAvailable({ addReserved(bytes: $0) }) { return span }
        var text = text
        return text.withUTF8 { addReserved(bytes: $0) }
    }

    /// ``addReserved(_:)`` of a text when there is one; ``TextSpan/none`` for nil.
    @inline(__always) mutating func addReserved(_ text: String?) -> TextSpan {
        guard let text else { return .none }
        return addReserved(text)
    }

    /// ``add(uuid:)`` in the room ``reserve(_:)`` made (16 bytes of it).
    @inline(__always) mutating func addReserved(uuid key: EventIdKey) -> TextSpan {
        precondition(key.isUUID, "storing a key that is not a UUID")
        return withUnsafeBytes(of: (key.high.littleEndian, key.low.littleEndian)) {
            addReserved(bytes: $0.assumingMemoryBound(to: UInt8.self))
        }.spellingUUID
    }

    /// Calls `body` with the bytes a span holds (empty for ``TextSpan/none``). A text left in
    /// the log (``TextSpan/inLog(offset:length:)``) must have been read back first.
    func withBytes<R>(_ span: TextSpan, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard !span.isNone else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        precondition(!span.isInLog, "a text left in the log read before it was read back")
        if span.length == TextSpan.uuidLength { return try withSpelledUUID(span, body) }
        // `self` (its owners, which keep the chunk) is alive for the whole call: the caller
        // holds it. Holding it again here was a reference count per text read.
        return try body(bytes(span))
    }

    /// ``withBytes(_:_:)`` of a UUID kept as its key (``add(uuid:)``): spelled on the stack.
    /// (Out of line: the common path stays small enough to inline where a text is compared.)
    @inline(never)
    private func withSpelledUUID<R>(_ span: TextSpan, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { spelled in
            EventIdSet.spell(uuidKey(span)!, into: spelled.baseAddress!)
            return try body(UnsafeBufferPointer(spelled))
        }
    }

    /// The key of a UUID kept as its key (``add(uuid:)``), or nil for any other span.
    @inline(__always) func uuidKey(_ span: TextSpan) -> (UInt64, UInt64)? {
        guard span.length == TextSpan.uuidLength, !span.isNone, !span.isInLog else { return nil }
        let key = UnsafeRawPointer(bytes(span).baseAddress!)
        return (UInt64(littleEndian: key.loadUnaligned(as: UInt64.self)), UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }

    /// The bytes a span (not ``TextSpan/none``, not in the log) holds, valid while the arena is.
    @inline(__always) private func bytes(_ span: TextSpan) -> UnsafeBufferPointer<UInt8> {
        let start = UnsafePointer(bases[span.chunk] + span.start)
        var length = span.length
        if length == TextSpan.uuidLength {
            length = 16  // the key's bytes
        } else if length == TextSpan.longLength {
            var word: UInt64 = 0
            withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(start: start - 8, count: 8)) }
            length = Int(UInt64(littleEndian: word))
        }
        return UnsafeBufferPointer(start: start, count: length)
    }

    /// How many bytes a span holds (0 for ``TextSpan/none``).
    func length(_ span: TextSpan) -> Int {
        guard !span.isNone else { return 0 }
        switch span.length {
        case TextSpan.longLength: return withBytes(span) { $0.count }
        case TextSpan.uuidLength: return 36
        default: return span.length
        }
    }

    /// The text a span holds.
    func string(_ span: TextSpan) -> String {
        withBytes(span) { String(decoding: $0, as: UTF8.self) }
    }

    /// The text a span holds, or nil for ``TextSpan/none``.
    func optionalString(_ span: TextSpan) -> String? {
        span.isNone ? nil : string(span)
    }

    /// Whether a span holds exactly the bytes of `text` (compared in place, no `String` built).
    func equals(_ span: TextSpan, _ text: String) -> Bool {
        guard !span.isNone else { return false }
        var text = text
        return text.withUTF8 { wanted in
            withBytes(span) { held in
                guard held.count == wanted.count else { return false }
                guard let a = held.baseAddress, let b = wanted.baseAddress else { return true }
                return ByteCompare.equal(a, b, count: held.count)
            }
        }
    }
}

/// One chunk of a ``TextArena``: raw bytes, freed with the last arena that holds it.
final class TextChunk: @unchecked Sendable {
    /// Where the bytes start; written only by the one arena that holds the chunk alone
    /// (``TextArena/add(bytes:)``).
    let base: UnsafeMutablePointer<UInt8>

    init(capacity: Int) {
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }
}

/// Where a text is in a ``TextArena``, packed into one word: its chunk (23 bits), where it
/// starts in the chunk (16 bits) and its length (24 bits); or ``none`` for a field without text;
/// or, with the top bit set, where it is in the log (``inLog(offset:length:)``).
///
/// A text longer than a chunk has a chunk of its own and starts at 0 (or 8, after its length).
/// A log line is at most 1 MiB (``Replayer/maxLineBytes``), so a text from the log always fits
/// the length field; a longer one (``uuidLength`` and up) has its length stored just before it
/// and ``longLength`` in the field. A length field of ``uuidLength`` marks a UUID kept as its
/// key's 16 bytes, spelled when it is read.
struct TextSpan: Hashable, Sendable {
    private var bits: UInt64

    /// No text (a nil field).
    static let none = TextSpan(bits: .max)
    /// The length field of a text whose real length is stored before it.
    static let longLength = 0xFF_FFFE
    /// The length field of a UUID kept as its key's 16 bytes (``TextArena/add(uuid:)``).
    static let uuidLength = 0xFF_FFFD
    private static let logBit: UInt64 = 1 << 63
    /// The first log offset a span cannot address (512 GiB).
    static let logLimit = 1 << 39

    private init(bits: UInt64) { self.bits = bits }

    init(chunk: Int, start: Int, length: Int) {
        precondition(chunk < 1 << 23 && start < 1 << 16 && length <= Self.longLength, "a text span beyond the arena's addressing")
        bits = UInt64(chunk) << 40 | UInt64(start) << 24 | UInt64(length)
    }

    /// A text left where it is in the log: its bytes at `offset` (below 2^39, 512 GiB), exactly
    /// as the text (a plain JSON string's), to be read back before anyone reads the text.
    static func inLog(offset: Int, length: Int) -> TextSpan {
        precondition(offset >= 0 && offset < logLimit && length > 0 && length < Self.longLength, "a log text beyond a span's addressing")
        return TextSpan(bits: Self.logBit | UInt64(offset) << 24 | UInt64(length))
    }

    /// This span's 16 bytes, read as a UUID key to spell (``TextArena/add(uuid:)``).
    var spellingUUID: TextSpan {
        precondition(!isNone && !isInLog && length == 16, "only a key's 16 bytes spell a UUID")
        return TextSpan(bits: bits & ~0xFF_FFFF | UInt64(Self.uuidLength))
    }

    var isNone: Bool { bits == .max }
    /// Whether the text is still in the log (``inLog(offset:length:)``).
    var isInLog: Bool { bits & Self.logBit != 0 && !isNone }
    /// Where a text left in the log is: its offset and length.
    var logRange: Range<Int> {
        let offset = Int(bits >> 24 & UInt64(Self.logLimit - 1))
        return offset..<(offset + length)
    }
    var chunk: Int { Int(bits >> 40) }
    var start: Int { Int(bits >> 24 & 0xFFFF) }
    /// The length field (``longLength`` for a long text, whose length is stored before it).
    var length: Int { Int(bits & 0xFF_FFFF) }
}
