/// Strips markup from subject and content on append (SPEC §2.1).
///
/// Removes `(?is)<script\b[^>]*>.*?</script\s*>`, then the same for `style`, then every
/// `<[^>]*>`. A `<` with no later `>` stays; entities are left alone; nothing is trimmed.
package enum Sanitizer {
    /// The sanitized text.
    package static func sanitize(_ text: String) -> String {
        let hasTag = text.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "<")) } ?? text.utf8.contains(UInt8(ascii: "<"))
        guard hasTag else { return text }
        var scalars = Array(text.unicodeScalars)
        scalars = removeBlocks(scalars, tag: "script")
        scalars = removeBlocks(scalars, tag: "style")
        scalars = removeTags(scalars)
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    private static func removeBlocks(_ s: [Unicode.Scalar], tag: String) -> [Unicode.Scalar] {
        let name = Array(tag.unicodeScalars)
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            if s[i] == "<", let end = blockEnd(s, from: i, name: name) {
                i = end
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return out
    }

    /// The index just past `<name\b[^>]*>.*?</name\s*>` starting at `start`, if it matches there.
    private static func blockEnd(_ s: [Unicode.Scalar], from start: Int, name: [Unicode.Scalar]) -> Int? {
        var i = start + 1
        guard matchesName(s, at: i, name: name) else { return nil }
        i += name.count
        if i < s.count, isWordScalar(s[i]) { return nil }  // \b
        while i < s.count, s[i] != ">" { i += 1 }
        guard i < s.count else { return nil }
        i += 1
        // Lazy .*? up to the first closing tag.
        while i < s.count {
            if s[i] == "<", i + 1 < s.count, s[i + 1] == "/", matchesName(s, at: i + 2, name: name) {
                var j = i + 2 + name.count
                while j < s.count, s[j].properties.isWhitespace { j += 1 }
                if j < s.count, s[j] == ">" { return j + 1 }
            }
            i += 1
        }
        return nil
    }

    private static func matchesName(_ s: [Unicode.Scalar], at index: Int, name: [Unicode.Scalar]) -> Bool {
        guard index + name.count <= s.count else { return false }
        for k in 0..<name.count {
            let value = s[index + k].value
            let lower = (0x41...0x5A).contains(value) ? value + 0x20 : value
            if lower != name[k].value { return false }
        }
        return true
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static func removeTags(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            if s[i] == "<" {
                guard let close = s[(i + 1)...].firstIndex(of: ">") else {
                    out.append(contentsOf: s[i...])  // no later `>`: the rest stays as written
                    break
                }
                i = close + 1
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return out
    }
}
