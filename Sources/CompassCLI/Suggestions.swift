/// "Did you mean": the closest names or ids to what someone typed.
enum Suggestions {
    /// Up to three candidates within a small edit distance of `word` (or sharing its start),
    /// closest first.
    static func closest(to word: String, in candidates: [String]) -> [String] {
        let limit = max(2, word.count / 3)
        var scored: [(name: String, distance: Int)] = []
        for candidate in candidates {
            let d = distance(word, candidate)
            if d <= limit || (word.count >= 3 && (candidate.hasPrefix(word) || word.hasPrefix(candidate))) { scored.append((candidate, d)) }
        }
        scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        return scored.prefix(3).map(\.name)
    }

    /// Levenshtein distance over Unicode scalars.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
