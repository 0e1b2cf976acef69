import CompassCore

/// A generator of random values of `T` for a given size, driven by ``SplitMix64`` so a seed
/// replays the same value on every platform.
///
/// ```swift
/// let pairs = Gen.zip(Gen.int(in: 0...9), Gen.bool)
/// var rng = SplitMix64(seed: 1)
/// let value = pairs.run(&rng, 10)
/// ```
package struct Gen<T> {
    package let run: (inout SplitMix64, Int) -> T

    package init(_ run: @escaping (inout SplitMix64, Int) -> T) { self.run = run }

    /// A value generated from a fresh generator seeded with `seed`.
    package func sample(seed: UInt64, size: Int) -> T {
        var rng = SplitMix64(seed: seed)
        return run(&rng, size)
    }

    package func map<U>(_ transform: @escaping (T) -> U) -> Gen<U> {
        Gen<U> { rng, size in transform(self.run(&rng, size)) }
    }

    package func flatMap<U>(_ next: @escaping (T) -> Gen<U>) -> Gen<U> {
        Gen<U> { rng, size in next(self.run(&rng, size)).run(&rng, size) }
    }

    /// Sometimes nil (one time in four).
    package var optional: Gen<T?> {
        Gen<T?> { rng, size in rng.below(4) == 0 ? nil : self.run(&rng, size) }
    }

    /// Arrays whose length is drawn from `count`.
    package func array(count: Gen<Int>) -> Gen<[T]> {
        Gen<[T]> { rng, size in
            let n = count.run(&rng, size)
            return (0..<n).map { _ in self.run(&rng, size) }
        }
    }

    /// Arrays of 0…size elements.
    package var array: Gen<[T]> { array(count: Gen<Int> { rng, size in rng.below(size + 1) }) }

    /// A generator that ignores the size and uses `size` instead.
    package func resized(_ size: Int) -> Gen<T> { Gen { rng, _ in self.run(&rng, size) } }
}

extension Gen {
    package static func constant(_ value: T) -> Gen<T> { Gen { _, _ in value } }

    /// One of the generators, chosen uniformly.
    package static func oneOf(_ gens: [Gen<T>]) -> Gen<T> {
        precondition(!gens.isEmpty)
        return Gen { rng, size in gens[rng.below(gens.count)].run(&rng, size) }
    }

    /// One of the generators, chosen with the given weights.
    package static func frequency(_ weighted: [(Int, Gen<T>)]) -> Gen<T> {
        let total = weighted.reduce(0) { $0 + $1.0 }
        precondition(total > 0)
        return Gen { rng, size in
            var pick = rng.below(total)
            for (weight, gen) in weighted {
                if pick < weight { return gen.run(&rng, size) }
                pick -= weight
            }
            return weighted[weighted.count - 1].1.run(&rng, size)
        }
    }

    /// One element of a non-empty array.
    package static func element(of items: [T]) -> Gen<T> {
        precondition(!items.isEmpty)
        return Gen { rng, _ in items[rng.below(items.count)] }
    }

    package static func zip<A, B>(_ a: Gen<A>, _ b: Gen<B>) -> Gen<(A, B)> where T == (A, B) {
        Gen { rng, size in (a.run(&rng, size), b.run(&rng, size)) }
    }

    package static func zip<A, B, C>(_ a: Gen<A>, _ b: Gen<B>, _ c: Gen<C>) -> Gen<(A, B, C)> where T == (A, B, C) {
        Gen { rng, size in (a.run(&rng, size), b.run(&rng, size), c.run(&rng, size)) }
    }
}

extension Gen where T == Int {
    /// A uniform integer in the range.
    package static func int(in range: ClosedRange<Int>) -> Gen<Int> {
        Gen { rng, _ in range.lowerBound + rng.below(range.upperBound - range.lowerBound + 1) }
    }

    /// A uniform integer in 0…size.
    package static var sized: Gen<Int> { Gen { rng, size in rng.below(size + 1) } }
}

extension Gen where T == Bool {
    package static var bool: Gen<Bool> { Gen { rng, _ in rng.below(2) == 1 } }
}

extension Gen where T == String {
    /// Pieces text is built from: words, punctuation CSV and JSON must escape, emoji
    /// (surrogate pairs in UTF-16, skin tones, flags), combining marks, other scripts.
    package static let pieces: [String] = [
        "coach", "camp", "visit", "offer", "Film", "UCLA", "call", "summer", "roster", "e\u{301}", "n\u{303}a",
        "🔥", "👍🏽", "🏈", "🇺🇸", "😀", "日本", "Ж", "ß", "İ", ",", "\"", "\n", "\t", "<b>", "&amp;", "\\", "/", "  ", "-", "'",
    ]

    /// Text of up to `size` pieces (possibly empty).
    package static var text: Gen<String> {
        Gen { rng, size in
            let n = rng.below(max(1, size) + 1)
            var out = ""
            for i in 0..<n {
                if i > 0, rng.below(3) == 0 { out += " " }
                out += pieces[rng.below(pieces.count)]
            }
            return out
        }
    }

    /// Text that is not blank.
    package static var nonBlankText: Gen<String> {
        text.map { TextRules.isBlank($0) ? "name" + $0 : $0 }
    }
}
