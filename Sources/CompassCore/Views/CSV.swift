/// CSV as the exports write it: every field after the header double-quoted, inner `"`
/// doubled, lines ending in `\n`, UTF-8.
///
/// A field that starts with `=`, `+`, `-`, `@`, TAB or CR is prefixed with `'` (OWASP's rule
/// against CSV injection): a spreadsheet would otherwise run it as a formula, so an athlete
/// could plant `=HYPERLINK(…)` in a subject that runs when a parent opens the export.
public enum CSV {
    /// One quoted field, neutralised when a spreadsheet would take it for a formula.
    public static func quote(_ text: String) -> String {
        "\"" + (startsFormula(text) ? "'" : "") + text.replacingQuotes() + "\""
    }

    /// Whether a spreadsheet would read the field as a formula.
    static func startsFormula(_ text: String) -> Bool {
        switch text.utf8.first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D: true
        default: false
        }
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
