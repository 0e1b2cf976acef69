/// Writes events as log lines: keys in SPEC §1 order, `data` keys in §2 order, absent
/// optional fields left out, `v` omitted (always 1), `prev` last. Byte-stable.
package enum EventEncoder {
    /// One log line, without its `\n`.
    package static func line(for event: Event) -> [UInt8] {
        var line = unsealedLine(for: event)
        seal(&line, prev: event.prev)
        return line
    }

    /// The line without its `prev` field and closing `}`: all of it that can be written before
    /// the previous line's hash is known (a batch encodes these in parallel, then seals them
    /// in order). ``seal(_:prev:)`` completes it to exactly ``line(for:)``.
    public static func unsealedLine(for event: Event) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 512)
        writer.beginObject()
        writer.field("seq", event.seq)
        writer.field("id", event.id)
        writer.field("type", event.type.rawValue)
        writer.field("at", event.at.rfc3339)
        writer.field("actor", event.actor)
        writer.field("family", event.family)
        writer.key("data")
        writeData(event.payload, into: &writer)
        return writer.bytes
    }

    /// Appends `,"prev":"HASH"` (when sealed) and the closing `}` to an unsealed line.
    public static func seal(_ line: inout [UInt8], prev: String?) {
        if let prev {
            line.append(contentsOf: #","prev":""#.utf8)
            line.append(contentsOf: prev.utf8)  // 64 hex digits: nothing to escape
            line.append(UInt8(ascii: "\""))
        }
        line.append(UInt8(ascii: "}"))
    }

    /// The payload as its `data` object.
    public static func data(for payload: Payload) -> [UInt8] {
        var writer = JSONWriter()
        writeData(payload, into: &writer)
        return writer.bytes
    }

    static func writeData(_ payload: Payload, into w: inout JSONWriter) {
        w.beginObject()
        switch payload {
        case .memberJoined(let e):
            w.field("userId", e.userId)
            w.field("fullName", e.fullName)
            w.field("role", e.role.rawValue)
        case .schoolAdded(let e):
            w.field("schoolId", e.schoolId)
            w.field("name", e.name)
            optional(&w, "status", e.status)
        case .coachAdded(let e):
            w.field("coachId", e.coachId)
            w.field("schoolId", e.schoolId)
            w.field("firstName", e.firstName)
            w.field("lastName", e.lastName)
            w.field("role", e.role.rawValue)
        case .interactionLogged(let e):
            w.field("interactionId", e.interactionId)
            optional(&w, "schoolId", e.schoolId)
            optional(&w, "coachId", e.coachId)
            optional(&w, "eventId", e.eventId)
            optional(&w, "otherCoachName", e.otherCoachName)
            w.field("type", e.type.rawValue)
            w.field("direction", e.direction.rawValue)
            optional(&w, "occurredAt", e.occurredAt?.rfc3339)
            optional(&w, "subject", e.subject)
            optional(&w, "content", e.content)
            optional(&w, "sentiment", e.sentiment?.rawValue)
            if let answers = e.interestAnswers {
                w.key("interestAnswers")
                w.beginArray()
                for answer in answers { w.bool(answer) }
                w.endArray()
            }
            if let attachments = e.attachments {
                w.key("attachments")
                w.beginArray()
                for attachment in attachments {
                    w.beginObject()
                    w.field("name", attachment.name)
                    w.field("sizeBytes", attachment.sizeBytes)
                    w.field("mimeType", attachment.mimeType)
                    optional(&w, "sha256", attachment.sha256)
                    w.endObject()
                }
                w.endArray()
            }
        case .interactionDeleted(let e):
            w.field("interactionId", e.interactionId)
        case .schoolStatusChanged(let e):
            w.field("schoolId", e.schoolId)
            w.field("newStatus", e.newStatus)
            optional(&w, "notes", e.notes)
        case .documentUploaded(let e):
            w.field("documentId", e.documentId)
            w.field("title", e.title)
            w.field("docType", e.docType)
            optional(&w, "fileName", e.fileName)
            if let size = e.sizeBytes { w.field("sizeBytes", size) }
            optional(&w, "sha256", e.sha256)
        case .notificationSettingsChanged(let e):
            w.key("inboundAlerts")
            w.bool(e.inboundAlerts)
        case .notificationsRead(let e):
            w.field("upToSeq", e.upToSeq)
        case .erasureRecorded(let e):
            w.field("oldHead", e.oldHead)
            w.field("oldLines", e.oldLines)
            w.field("erased", e.erased)
            w.field("scope", e.scope.rawValue)
        }
        w.endObject()
    }

    private static func optional(_ w: inout JSONWriter, _ key: String, _ value: String?) {
        if let value { w.field(key, value) }
    }
}
