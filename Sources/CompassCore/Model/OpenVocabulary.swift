/// A vocabulary of slugs (SPEC's pattern `[a-z][a-z0-9_]{0,39}`) whose known words are cases
/// and whose other words are kept as `unknown(slug)`: a value read from a newer app's log, or
/// typed by a family, is never lost or refused for being new.
///
/// A conforming enum declares its cases, `unknown(String)` and ``known``, and its `rawValue`;
/// reading a slug, the JSON coding (a plain string) and the name for people come from here.
public protocol OpenVocabulary: RawRepresentable, Hashable, Sendable, Codable where RawValue == String {
    /// The words this build names.
    static var known: [Self] { get }
    /// A word this build does not name.
    static func unknown(_ slug: String) -> Self
}

extension OpenVocabulary {
    /// The case for `slug`: a known word, else `unknown(slug)`. Never fails.
    public init(slug: String) {
        self = Self.known.first { $0.rawValue == slug } ?? .unknown(slug)
    }

    /// The case for `rawValue` (see ``init(slug:)``): never nil.
    public init(rawValue: String) { self.init(slug: rawValue) }

    /// For people (SPEC §3.3: `offer_received` → `Offer received`).
    public var displayName: String { TextRules.humanize(rawValue) }

    public init(from decoder: Decoder) throws { self.init(slug: try decoder.singleValueContainer().decode(String.self)) }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
