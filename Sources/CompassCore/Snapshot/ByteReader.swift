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
