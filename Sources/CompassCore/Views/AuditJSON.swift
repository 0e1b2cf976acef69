import Foundation

/// `audit --json`: one object per line of history.
public enum AuditJSON {
    /// The 1-based line in the log.
    public static func line(_ entry: AuditEntry) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("line", entry.line)
        w.field("seq", entry.seq)
        w.field("at", entry.at?.rfc3339)
        w.field("actor", entry.actor)
        w.field("actorName", entry.actorName)
        w.field("actorRole", entry.actorRole?.rawValue)
        w.field("family", entry.family)
        w.field("type", entry.type)
        w.field("summary", entry.summary)
        w.field("rejected", entry.rejection)
        w.endObject()
        return w.bytes + [0x0A]
    }
}
