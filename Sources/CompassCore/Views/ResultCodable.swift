/// Views' results are values an app can keep: `Codable`, times as the log writes them.
extension Timestamp: Codable {
    /// Decodes the RFC 3339 text the log and the JSON outputs write.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let time = Timestamp(rfc3339: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 time: \(text)")
        }
        self = time
    }

    /// Encodes `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rfc3339)
    }
}

extension MemberRole: Codable {}
extension CoachRole: Codable {}
extension InteractionType: Codable {}
extension Direction: Codable {}
extension Sentiment: Codable {}
extension InterestLevel: Codable {}
extension ActivityType: Codable {}
extension ContactGap: Codable {}
extension ProblemKind: Codable {}
