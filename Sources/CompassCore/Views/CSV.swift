/// CSV as the exports write it: every field after the header double-quoted, inner `"`
/// doubled, lines ending in `\n`, UTF-8.
public enum CSV {
    /// One quoted field.
    public static func quote(_ text: String) -> String {
        "\"" + text.replacingQuotes() + "\""
    }

    /// One data row of quoted fields.
    public static func row(_ fields: [String]) -> String {
        fields.map(quote).joined(separator: ",") + "\n"
    }
}

extension String {
    func replacingQuotes() -> String {
        guard utf8.contains(UInt8(ascii: "\"")) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for ch in unicodeScalars {
            if ch == "\"" { out += "\"\"" } else { out.unicodeScalars.append(ch) }
        }
        return out
    }
}
