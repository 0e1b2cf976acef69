/// A closed vocabulary that payload fields are read into straight from their bytes: each
/// case's raw value as bytes, worked out once per type (no `String` made, no string switch).
protocol ByteSpelled: RawRepresentable, CaseIterable where RawValue == String {
    /// Every case with its raw value's UTF-8 bytes (a `static let` of ``makeSpellings()``).
    static var spellings: [(bytes: [UInt8], value: Self)] { get }
}

extension ByteSpelled {
    /// The case whose raw value these bytes spell, if any.
    static func spelled(by bytes: UnsafeBufferPointer<UInt8>) -> Self? {
        for entry in spellings where entry.bytes.count == bytes.count {
            if bytes.isEmpty || entry.bytes.withUnsafeBufferPointer({ ByteCompare.equal($0.baseAddress!, bytes.baseAddress!, count: bytes.count) }) {
                return entry.value
            }
        }
        return nil
    }

    static func makeSpellings() -> [(bytes: [UInt8], value: Self)] {
        allCases.map { (Array($0.rawValue.utf8), $0) }
    }
}

extension MemberRole: ByteSpelled { static let spellings = makeSpellings() }
extension CoachRole: ByteSpelled { static let spellings = makeSpellings() }
extension InteractionType: ByteSpelled { static let spellings = makeSpellings() }
extension Direction: ByteSpelled { static let spellings = makeSpellings() }
extension Sentiment: ByteSpelled { static let spellings = makeSpellings() }
extension ErasureScope: ByteSpelled { static let spellings = makeSpellings() }
