import CompassCore
import CompassStore

/// Text from the log or the arguments made safe for a terminal (SPEC §4): C0 control
/// characters other than `\n`, DEL and C1 characters are written escaped, `\u{1B}`, so a log
/// cannot clear the screen, set the window title, move the cursor or plant a link.
enum TerminalText {
    /// `text` with every control character but `\n` escaped.
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func escape(_ text: String?) -> String? { text.map(escape) }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x0A) || (value >= 0x7F && value <= 0x9F)
    }
}

// Escaped copies of the views, made just before a human renderer sees them: every text that
// came from the log passes through ``TerminalText/escape(_:)`` exactly once.

extension InteractionItem {
    var forTerminal: InteractionItem {
        var item = self
        item.subject = TerminalText.escape(subject)
        item.displaySubject = TerminalText.escape(displaySubject)
        item.content = TerminalText.escape(content)
        item.loggedByName = TerminalText.escape(loggedByName)
        item.schoolName = TerminalText.escape(schoolName)
        item.coachName = TerminalText.escape(coachName)
        item.otherCoachName = TerminalText.escape(otherCoachName)
        return item
    }
}

extension InteractionDetail {
    var forTerminal: InteractionDetail {
        var detail = self
        detail.item = item.forTerminal
        detail.attachments = attachments.map { attachment in
            var safe = attachment
            safe.name = TerminalText.escape(attachment.name)
            safe.mimeType = TerminalText.escape(attachment.mimeType)
            safe.sha256 = TerminalText.escape(attachment.sha256)
            return safe
        }
        return detail
    }
}

extension ActivityItem {
    var forTerminal: ActivityItem {
        var item = self
        item.title = TerminalText.escape(title)
        item.description = TerminalText.escape(description)
        item.entityName = TerminalText.escape(entityName)
        return item
    }
}

extension AuditEntry {
    var forTerminal: AuditEntry {
        var entry = self
        entry.actorName = TerminalText.escape(actorName)
        entry.type = TerminalText.escape(type)
        entry.summary = TerminalText.escape(summary)
        entry.rejection = TerminalText.escape(rejection)
        return entry
    }
}
