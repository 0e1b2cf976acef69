/// SplitMix64: a small, fast, seedable generator whose sequence never depends on the
/// standard library's algorithms, so a seed replays the same everywhere.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    package private(set) var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-shift with rejection).
    package mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        let b = UInt64(bound)
        var product = next().multipliedFullWidth(by: b)
        if product.low < b {
            let threshold = (0 &- b) % b
            while product.low < threshold { product = next().multipliedFullWidth(by: b) }
        }
        return Int(product.high)
    }

    /// A uniform integer in a closed range.
    package mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `percent`/100.
    package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One element of a non-empty array.
    package mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// A lowercase UUID-shaped id (version 4 layout) drawn from this generator.
    package mutating func uuid() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        let a = next(), b = next()
        for i in 0..<32 {
            if i == 8 || i == 12 || i == 16 || i == 20 { out.append(UInt8(ascii: "-")) }
            var nibble = Int((i < 16 ? a >> UInt64(60 - i * 4) : b >> UInt64(60 - (i - 16) * 4)) & 0xF)
            if i == 12 { nibble = 4 }
            if i == 16 { nibble = 8 | (nibble & 3) }
            out.append(digits[nibble])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
