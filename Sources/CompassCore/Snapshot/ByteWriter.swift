/// Little-endian base-128 integers and length-prefixed UTF-8 strings.
struct ByteWriter {
    var bytes: [UInt8] = []

    @inline(__always) mutating func uint(_ value: UInt64) {
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
