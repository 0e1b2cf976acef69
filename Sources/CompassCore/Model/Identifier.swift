import Foundation

/// The rule for ids of users, families, schools, coaches, interactions, documents and events:
/// 1–64 characters of `A-Z a-z 0-9 _ . : -`, compared by their bytes.
public enum Identifier {
    /// Whether `text` is a well-formed id.
    public static func isValid(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard (1...64).contains(utf8.count) else { return false }
        return utf8.withContiguousStorageIfAvailable { ByteClass.allIdBytes($0.baseAddress!, count: $0.count) } ?? utf8.allSatisfy(isIdByte)
    }

    @inline(__always) static func isIdByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."),
             UInt8(ascii: ":"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// Turns a display name into an id fragment: lowercase ASCII letters and digits joined by `-`.
    ///
    /// Accents are folded first (`"Sofía Ramírez"` → `"sofia-ramirez"`).
    /// `"Arizona State"` → `"arizona-state"`. Returns `""` when nothing usable is left.
    public static func slug(_ name: String, maxLength: Int = 40) -> String {
        var out = ""
        var pendingDash = false
        for scalar in name.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            let value = scalar.value
            if (0x30...0x39).contains(value) || (0x61...0x7A).contains(value) || (0x41...0x5A).contains(value) {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.unicodeScalars.append(Unicode.Scalar(value | ((0x41...0x5A).contains(value) ? 0x20 : 0))!)
                if out.utf8.count >= maxLength { break }
            } else {
                pendingDash = true
            }
        }
        return out
    }
}

/// Text rules shared by the event types.
public enum TextRules {
    /// Whether the text is empty after trimming white space and newlines.
    public static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }

    /// Whether the text is at most `limit` UTF-16 code units, the length the web schema counts.
    ///
    /// A text never has more UTF-16 units than UTF-8 bytes, so short texts skip the count.
    public static func fits(_ text: String, _ limit: Int) -> Bool {
        text.utf8.count <= limit || text.utf16.count <= limit
    }

    /// Whether `text` matches the status pattern `[a-z][a-z0-9_]{0,39}`.
    public static func isSlug(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let first = utf8.first, (1...40).contains(utf8.count),
              first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return false }
        return utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
    }

    /// A slug for people: `_` → space, first letter upper-cased (`offer_received` → `Offer received`).
    public static func humanize(_ slug: String) -> String {
        let spaced = slug.replacingUnderscores()
        guard let first = spaced.first else { return spaced }
        return first.uppercased() + spaced.dropFirst()
    }
}

extension String {
    func replacingUnderscores() -> String {
        String(decoding: utf8.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}
