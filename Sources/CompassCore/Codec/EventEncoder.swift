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
        // Room for most lines at once: with 512 bytes, three lines in five of a generated
        // history outgrew it, each then copied into a buffer twice the size.
        var w = LineWriter(reservingCapacity: 1_024)
        w.raw(#"{"seq":"#); w.int(event.seq)
        w.raw(#","id":"#); w.text(event.id)
        w.raw(#","type":"#); w.text(event.type.rawValue)
        w.raw(#","at":"#); w.time(event.at)
        w.raw(#","actor":"#); w.text(event.actor)
        w.raw(#","family":"#); w.text(event.family)
        w.raw(#","data":"#)
        writeData(event.payload, into: &w)
        return w.bytes
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
        var writer = LineWriter(reservingCapacity: 256)
        writeData(payload, into: &writer)
        return writer.bytes
    }

    /// Writes `data`: each payload's first key is one it always has, so every later key is
    /// written with its comma.
    static func writeData(_ payload: Payload, into w: inout LineWriter) {
        switch payload {
        case .memberJoined(let e):
            w.raw(#"{"userId":"#); w.text(e.userId)
            w.raw(#","fullName":"#); w.text(e.fullName)
            w.raw(#","role":"#); w.text(e.role.rawValue)
        case .schoolAdded(let e):
            w.raw(#"{"schoolId":"#); w.text(e.schoolId)
            w.raw(#","name":"#); w.text(e.name)
            optional(&w, #","status":"#, e.status)
        case .coachAdded(let e):
            w.raw(#"{"coachId":"#); w.text(e.coachId)
            w.raw(#","schoolId":"#); w.text(e.schoolId)
            w.raw(#","firstName":"#); w.text(e.firstName)
            w.raw(#","lastName":"#); w.text(e.lastName)
            w.raw(#","role":"#); w.text(e.role.rawValue)
        case .interactionLogged(let e):
            w.raw(#"{"interactionId":"#); w.text(e.interactionId)
            optional(&w, #","schoolId":"#, e.schoolId)
            optional(&w, #","coachId":"#, e.coachId)
            optional(&w, #","eventId":"#, e.eventId)
            optional(&w, #","otherCoachName":"#, e.otherCoachName)
            w.raw(#","type":"#); w.text(e.type.rawValue)
            w.raw(#","direction":"#); w.text(e.direction.rawValue)
            if let occurredAt = e.occurredAt { w.raw(#","occurredAt":"#); w.time(occurredAt) }
            optional(&w, #","subject":"#, e.subject)
            optional(&w, #","content":"#, e.content)
            optional(&w, #","sentiment":"#, e.sentiment?.rawValue)
            if let answers = e.interestAnswers {
                w.raw(#","interestAnswers":["#)
                for (index, answer) in answers.enumerated() {
                    if index > 0 { w.raw(",") }
                    w.bool(answer)
                }
                w.raw("]")
            }
            if let attachments = e.attachments {
                w.raw(#","attachments":["#)
                for (index, attachment) in attachments.enumerated() {
                    w.raw(index > 0 ? #",{"name":"# : #"{"name":"#); w.text(attachment.name)
                    w.raw(#","sizeBytes":"#); w.int(attachment.sizeBytes)
                    w.raw(#","mimeType":"#); w.text(attachment.mimeType)
                    optional(&w, #","sha256":"#, attachment.sha256)
                    w.raw("}")
                }
                w.raw("]")
            }
        case .interactionDeleted(let e):
            w.raw(#"{"interactionId":"#); w.text(e.interactionId)
        case .schoolStatusChanged(let e):
            w.raw(#"{"schoolId":"#); w.text(e.schoolId)
            w.raw(#","newStatus":"#); w.text(e.newStatus)
            optional(&w, #","notes":"#, e.notes)
        case .documentUploaded(let e):
            w.raw(#"{"documentId":"#); w.text(e.documentId)
            w.raw(#","title":"#); w.text(e.title)
            w.raw(#","docType":"#); w.text(e.docType)
            optional(&w, #","fileName":"#, e.fileName)
            if let size = e.sizeBytes { w.raw(#","sizeBytes":"#); w.int(size) }
            optional(&w, #","sha256":"#, e.sha256)
        case .notificationSettingsChanged(let e):
            w.raw(#"{"inboundAlerts":"#); w.bool(e.inboundAlerts)
        case .notificationsRead(let e):
            w.raw(#"{"upToSeq":"#); w.int(e.upToSeq)
        case .erasureRecorded(let e):
            w.raw(#"{"oldHead":"#); w.text(e.oldHead)
            w.raw(#","oldLines":"#); w.int(e.oldLines)
            w.raw(#","erased":"#); w.int(e.erased)
            w.raw(#","scope":"#); w.text(e.scope.rawValue)
            if let seqs = e.erasedSeqs {
                w.raw(#","erasedSeqs":["#)
                for (index, seq) in seqs.enumerated() {
                    if index > 0 { w.raw(",") }
                    w.int(seq)
                }
                w.raw("]")
            }
        }
        w.raw("}")
    }

    private static func optional(_ w: inout LineWriter, _ key: StaticString, _ value: String?) {
        if let value {
            w.raw(key)
            w.text(value)
        }
    }
}
