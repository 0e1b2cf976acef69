/// Little-endian base-128 integers and length-prefixed UTF-8 strings.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func uint(_ value: UInt64) {
        var v = value
        while v >= 0x80 { bytes.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    mutating func int(_ value: Int64) { uint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
    mutating func string(_ s: String) { uint(UInt64(s.utf8.count)); bytes += s.utf8 }
    mutating func optional(_ s: String?) { if let s { uint(1); string(s) } else { uint(0) } }
    mutating func optionalInt(_ v: Int64?) { if let v { uint(1); int(v) } else { uint(0) } }
    mutating func strings(_ list: [String]) { uint(UInt64(list.count)); for s in list { string(s) } }
    /// A value of a fixed set, as its position in `allCases`.
    mutating func choice<E: CaseIterable & Equatable>(_ value: E) where E.AllCases == [E] { uint(UInt64(E.allCases.firstIndex(of: value)!)) }
    /// An optional value of a fixed set: 0 for none, else its position + 1.
    mutating func optionalChoice<E: CaseIterable & Equatable>(_ value: E?) where E.AllCases == [E] {
        uint(value.map { UInt64(E.allCases.firstIndex(of: $0)! + 1) } ?? 0)
    }
}

/// A run of bytes whose most possible length is known before it is written (a row of a
/// snapshot section): written through a pointer with no capacity check per field, then
/// appended to a ``ByteWriter`` in one copy. A text or string makes its own room as it is
/// written (its length is known then), so the fields around it are reserved without
/// measuring the texts first. Its buffer is reused from run to run, and freed with the run
/// (it has one owner: the run cannot be copied).
struct ByteRun: ~Copyable {
    private var base = UnsafeMutablePointer<UInt8>.allocate(capacity: 1_024)
    private var capacity = 1_024
    private var end = 0
    /// The most this run may hold (checked at each write in debug builds, and when it is
    /// flushed in every build).
    private var most = 0

    /// Starts a run of at most `capacity` bytes.
    mutating func start(capacity most: Int) {
        end = 0
        reserve(most)
    }

    /// Makes room for at most `count` more bytes after those written (kept).
    mutating func reserve(_ count: Int) {
        if end + count > capacity {
            let grown = max(end + count, 2 * capacity)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            moved.update(from: base, count: end)
            base.deallocate()
            base = moved
            capacity = grown
        }
        most = end + count
    }

    /// Makes room for `count` bytes more than those already reserved (a text, reserved as it
    /// is written).
    @inline(__always) mutating func extend(_ count: Int) {
        reserve(most - end + count)
    }

    /// Forgets the bytes written (the buffer is kept).
    mutating func clear() {
        end = 0
        most = 0
    }

    /// The bytes written, valid until the run is written to again.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: end) }

    @inline(__always) mutating func byte(_ value: UInt8) {
        assert(end < most, "a run wrote past the length worked out for it")
        base[end] = value
        end += 1
    }

    /// ``ByteWriter/uint(_:)``.
    @inline(__always) mutating func uint(_ value: UInt64) {
        assert(end + 10 <= most, "a run wrote past the length worked out for it")
        var v = value
        while v >= 0x80 {
            base[end] = UInt8(truncatingIfNeeded: v) | 0x80
            end += 1
            v >>= 7
        }
        base[end] = UInt8(v)
        end += 1
    }

    /// ``ByteWriter/int(_:)``.
    @inline(__always) mutating func int(_ value: Int64) { uint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        assert(end + bytes.count <= most, "a run wrote past the length worked out for it")
        (base + end).update(from: source, count: bytes.count)
        end += bytes.count
    }

    /// ``ByteWriter/string(_:)``, with room made for it. A native string's bytes are read
    /// where they are (copying the string took a reference to it).
    mutating func string(_ s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ counted($0) }) == nil {
            var s = s
            s.withUTF8 { counted($0) }
        }
    }

    /// Bytes after their length, with room made for both.
    private mutating func counted(_ utf8: UnsafeBufferPointer<UInt8>) {
        extend(10 + utf8.count)
        uint(UInt64(utf8.count))
        bytes(utf8)
    }

    /// A text of `arena`, its length first (``ByteWriter/string(_:)``), with room made for
    /// it. A UUID kept as its key is spelled straight into the run.
    mutating func text(_ span: TextSpan, of arena: TextArena) {
        if let key = arena.uuidKey(span) {
            extend(37)
            base[end] = 36  // the length, one byte
            EventIdSet.spell(key, into: base + end + 1)
            end += 37
            return
        }
        arena.withBytes(span) { counted($0) }
    }

    /// An optional text of `arena`: 0, or 1 and the text (``ByteWriter/optional(_:)``).
    mutating func optional(_ span: TextSpan, of arena: TextArena) {
        if span.isNone {
            byte(0)
        } else {
            byte(1)
            text(span, of: arena)
        }
    }

    /// ``optional(_:of:)`` of a text that may be left in the log (a subject or content): in a
    /// section that keeps such texts as `ranges` of the log, its offset and length (tag 2);
    /// else its bytes, copied from `window`, which holds them.
    mutating func optional(_ span: TextSpan, of arena: TextArena, window: LogWindow?, ranges: Bool) {
        guard span.isInLog else { return optional(span, of: arena) }
        if ranges {
            let range = span.logRange
            byte(2); uint(UInt64(range.lowerBound)); uint(UInt64(range.count))
            return
        }
        guard let bytes = window?.bytes(span.logRange) else {
            preconditionFailure("a text left in the log encoded without the log's bytes")
        }
        extend(bytes.count)  // (the tag and length are in the row's own room)
        byte(1)
        uint(UInt64(bytes.count))
        self.bytes(bytes)
    }

    /// Appends the run to `w`.
    func flush(into w: inout ByteWriter) {
        precondition(end <= most, "a run wrote past the length worked out for it")
        w.bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: end))
    }

    deinit { base.deallocate() }
}

/// Some of the log's bytes as read (`bytes` from log offset `offset`), to take the texts a
/// replay left there from (``TextSpan/inLog(offset:length:)``).
package struct LogWindow {
    package var bytes: UnsafeBufferPointer<UInt8>
    package var offset: Int

    package init(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The log offsets the window holds.
    package var range: Range<Int> { offset..<(offset + bytes.count) }

    /// The bytes of a log range the window holds whole, or nil.
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
        guard range.lowerBound >= offset, range.upperBound <= offset + bytes.count else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[(range.lowerBound - offset)..<(range.upperBound - offset)])
    }
}

/// Reads what ``ByteWriter`` wrote; every read is nil past the end.
struct ByteReader {
    let buffer: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    var isAtEnd: Bool { index == buffer.count }

    mutating func take(_ count: Int) -> UnsafeBufferPointer<UInt8> {
        let end = min(buffer.count, index + count)
        defer { index = end }
        return UnsafeBufferPointer(rebasing: buffer[index..<end])
    }

    mutating func uint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < buffer.count, shift < 64 {
            let byte = buffer[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    mutating func int() -> Int64? {
        guard let u = uint() else { return nil }
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    mutating func string() -> String? {
        guard let count = uint(), count <= UInt64(buffer.count - index) else { return nil }
        return String(decoding: take(Int(count)), as: UTF8.self)
    }

    /// A string's UTF-8 bytes, in place (valid while the buffer is).
    mutating func bytes() -> UnsafeBufferPointer<UInt8>? {
        guard let count = uint(), count <= UInt64(buffer.count - index) else { return nil }
        return take(Int(count))
    }

    /// An optional string's bytes, in place: `.some(nil)` for none.
    mutating func optionalBytes() -> UnsafeBufferPointer<UInt8>?? {
        guard let tag = uint() else { return nil }
        if tag == 0 { return .some(nil) }
        guard let bytes = bytes() else { return nil }
        return .some(bytes)
    }

    /// A subject's or content's field: none (tag 0), its bytes (1), or, in a section that keeps
    /// such texts as ranges of the log, a range no longer than a line (2).
    mutating func optionalText() -> StoredText? {
        guard let tag = uint() else { return nil }
        switch tag {
        case 0: return StoredText.none
        case 1: return bytes().map(StoredText.bytes)
        case 2:
            guard let offset = uint(), let length = uint(), offset < UInt64(TextSpan.logLimit), length > 0,
                  length <= UInt64(Replayer.maxLineBytes) else { return nil }
            return .inLog(.inLog(offset: Int(offset), length: Int(length)))
        default: return nil
        }
    }

    mutating func optional() -> String?? {
        guard let tag = uint() else { return nil }
        if tag == 0 { return .some(nil) }
        guard let s = string() else { return nil }
        return .some(s)
    }

    mutating func optionalInt() -> Int64?? {
        guard let tag = uint() else { return nil }
        if tag == 0 { return .some(nil) }
        guard let v = int() else { return nil }
        return .some(v)
    }

    /// A value of a fixed set written by ``ByteWriter/choice(_:)``; `cases` is `allCases`.
    mutating func choice<E>(_ cases: [E]) -> E? {
        guard let index = uint(), index < UInt64(cases.count) else { return nil }
        return cases[Int(index)]
    }

    /// An optional value written by ``ByteWriter/optionalChoice(_:)``.
    mutating func optionalChoice<E>(_ cases: [E]) -> E?? {
        guard let tag = uint(), tag <= UInt64(cases.count) else { return nil }
        return .some(tag == 0 ? nil : cases[Int(tag - 1)])
    }

    mutating func strings() -> [String]? {
        guard let count = uint(), count <= UInt64(buffer.count - index) else { return nil }
        var out: [String] = []
        out.reserveCapacity(Int(count))
        for _ in 0..<count { guard let s = string() else { return nil }; out.append(s) }
        return out
    }
}

/// A subject or content as a section stores it (``ByteReader/optionalText()``).
enum StoredText {
    case none
    case bytes(UnsafeBufferPointer<UInt8>)
    /// Where it is in the log (only in a section that keeps texts as ranges).
    case inLog(TextSpan)
}
