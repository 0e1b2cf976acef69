extension InteractionLogged {
    /// The most UTF-16 units a subject may have (SPEC §2.1).
    static let subjectLimit = 500
    /// The most UTF-16 units a content may have (SPEC §2.1).
    static let contentLimit = 10_000
}

extension RuleContext {
    /// The rules of SPEC §2.1, in the order written there.
    func interactionLogged(sanitizing: Bool) throws(EventError) -> InteractionLogged {
        let member = try actorMember()
        // Shape of the fields that have no message of their own.
        let interactionId = try reader.requiredId("interactionId")
        let eventId = try reader.optionalId("eventId")
        let otherCoachName = try reader.optionalText("otherCoachName")

        if let member { try StateRules.playerLogs(member) }
        try rules?.interactionIsNew(interactionId)
        let schoolId = try reader.reference("schoolId", else: RuleMessage.selectSchool)
        let coachId = try reader.reference("coachId", else: "Invalid coach selection")
        guard schoolId != nil || coachId != nil else { throw EventError(RuleMessage.selectSchool) }
        if let schoolId {
            try rules?.schoolExists(schoolId)
        }
        if let coachId {
            try rules?.coachMatches(coachId, school: schoolId)
        }
        let type = try reader.choice("type", InteractionType.self, else: "Please select an interaction type")
        let direction = try reader.choice("direction", Direction.self, else: "Please select a direction")
        let occurredAt = try reader.optionalTime("occurredAt", else: "Please select a date and time")
        let subject = try sanitizedText("subject", .subject, sanitizing: sanitizing, limit: InteractionLogged.subjectLimit,
                                        message: "Subject must be 500 characters or less")
        let content = try sanitizedText("content", .content, sanitizing: sanitizing, limit: InteractionLogged.contentLimit,
                                        message: "Content must be 10,000 characters or less")
        let sentiment = try reader.optionalChoice("sentiment", Sentiment.self, else: "Invalid sentiment value")
        let interestAnswers = try self.interestAnswers(direction: direction, sentiment: sentiment)
        let attachments = try self.attachments()
        return InteractionLogged(
            interactionId: interactionId, schoolId: schoolId, coachId: coachId, eventId: eventId,
            otherCoachName: otherCoachName, type: type, direction: direction, occurredAt: occurredAt,
            subject: subject, content: content, sentiment: sentiment, interestAnswers: interestAnswers,
            attachments: attachments)
    }

    /// An optional text within `limit` UTF-16 units; when replay stages it (``TextStaging``),
    /// nil here and its bytes in the staging.
    private func sanitizedText(_ key: String, _ field: StagedTexts.Field, sanitizing: Bool, limit: Int,
                               message: String) throws(EventError) -> String? {
        if !sanitizing, reader.data.stageText(key, as: field, limit: limit) { return nil }
        guard var text = try reader.optionalText(key, else: message) else { return nil }
        if sanitizing { text = Sanitizer.sanitize(text) }
        if text.isEmpty { return nil }
        guard TextRules.fits(text, limit) else { throw EventError(message) }
        return text
    }

    private func interestAnswers(direction: Direction, sentiment: Sentiment?) throws(EventError) -> [Bool]? {
        let message = "Interest calibration applies only to inbound interactions with positive sentiment"
        guard let value = reader.data["interestAnswers"], value != .null else { return nil }
        guard case .array(let elements) = value, elements.count == 6 else { throw EventError(message) }
        var answers: [Bool] = []
        answers.reserveCapacity(6)  // one allocation, not one per doubling
        for element in elements {
            guard case .bool(let answer) = element else { throw EventError(message) }
            answers.append(answer)
        }
        guard direction == .inbound, sentiment == .positive || sentiment == .veryPositive else { throw EventError(message) }
        return answers
    }

    private func attachments() throws(EventError) -> [Attachment]? {
        guard let value = reader.data["attachments"], value != .null else { return nil }
        guard case .array(let elements) = value else { throw .mustBe("data.attachments", "an array") }
        var attachments: [Attachment] = []
        attachments.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            var path: String { "data.attachments[\(index)]" }  // spelled only for a message
            guard case .object(let object) = element else { throw .mustBe(path, "an object") }
            guard case .string(let name)? = object["name"], !name.isEmpty else { throw .mustBe("\(path).name", "a non-empty string") }
            guard case .int(let size)? = object["sizeBytes"], size >= 0 else { throw .mustBe("\(path).sizeBytes", "an integer ≥ 0") }
            guard size <= AttachmentRules.maxSizeBytes else { throw EventError(RuleMessage.fileTooLarge) }
            guard case .string(let mime)? = object["mimeType"], AttachmentRules.allowedMimeTypes.contains(mime) else {
                throw EventError(RuleMessage.unsupportedFileType)
            }
            var sha: String?
            if let hash = object["sha256"], hash != .null, hash != .string("") {
                guard case .string(let text) = hash, SHA256.isHex(text) else {
                    throw .mustBe("\(path).sha256", "a SHA-256 hex string")
                }
                sha = text
            }
            attachments.append(Attachment(name: name, sizeBytes: size, mimeType: mime, sha256: sha))
        }
        return attachments.isEmpty ? nil : attachments
    }
}
