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
