import Foundation

/// The JSON documents of SPEC §4.1 for the interactions views: compact, keys in the listed
/// order, every key present (`null` when empty), one `\n` after the document.
public enum InteractionJSON {
    /// `interactions --json`.
    public static func list(_ list: InteractionList) -> [UInt8] {
        Self.list(list, count: list.items.count)
    }

    /// The document with `count` given: the whole list's when only its first items are written
    /// (`--limit`).
    public static func list(_ list: InteractionList, count: Int) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 1024 + list.items.count * 600)
        w.beginObject()
        w.key("viewer")
        w.beginObject()
        w.field("userId", list.viewer.userId)
        w.field("role", list.viewer.role.rawValue)
        w.field("name", list.viewer.name)
        w.endObject()
        w.field("privacyNotice", list.privacyNotice)
        w.key("loggedByOptions")
        if let options = list.loggedByOptions {
            w.beginArray()
            for option in options {
                w.beginObject()
                w.field("userId", option.userId)
                w.field("label", option.label)
                w.endObject()
            }
            w.endArray()
        } else {
            w.null()
        }
        w.key("analytics")
        writeAnalytics(list.analytics, into: &w)
        w.field("count", count)
        w.key("items")
        w.beginArray()
        for item in list.items {
            w.beginObject()
            writeItemFields(item, into: &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.line()
    }

    /// `analytics --json`.
    public static func analytics(_ analytics: InteractionAnalytics) -> [UInt8] {
        var w = JSONWriter()
        writeAnalytics(analytics, into: &w)
        return w.bytes + [0x0A]
    }

    /// `show ID --json`: the item keys, then `eventId`, `attachments`, `canExport`.
    public static func detail(_ detail: InteractionDetail) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        writeItemFields(detail.item, into: &w)
        w.field("eventId", detail.eventId)
        w.key("attachments")
        w.beginArray()
        for attachment in detail.attachments {
            w.beginObject()
            w.field("name", attachment.name)
            w.field("sizeBytes", attachment.sizeBytes)
            w.field("mimeType", attachment.mimeType)
            w.field("sha256", attachment.sha256)
            w.endObject()
        }
        w.endArray()
        w.field("canExport", detail.canExport)
        w.endObject()
        return w.bytes + [0x0A]
    }

    static func writeAnalytics(_ a: InteractionAnalytics, into w: inout JSONWriter) {
        w.beginObject()
        w.field("total", a.total)
        w.field("outbound", a.outbound)
        w.field("inbound", a.inbound)
        w.field("thisWeek", a.thisWeek)
        w.endObject()
    }

    /// The item keys of SPEC §3.1, in order.
    public static let itemKeys = [
        "id", "type", "typeName", "direction", "subject", "displaySubject", "content", "sentiment", "interestLevel",
        "occurredAt", "createdAt", "loggedBy", "loggedByName", "schoolId", "schoolName", "coachId", "coachName",
        "otherCoachName", "attachmentCount", "canDelete",
    ]

    /// The item's values in ``itemKeys`` order; shared by JSON and CSV.
    package static func itemValues(_ item: InteractionItem) -> [JSONValue] {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return [
            .string(item.id), .string(item.type.rawValue), .string(item.type.displayName), .string(item.direction.rawValue),
            text(item.subject), .string(item.displaySubject), text(item.content), text(item.sentiment?.rawValue),
            text(item.interestLevel?.rawValue), .string(item.occurredAt.rfc3339), .string(item.createdAt.rfc3339),
            .string(item.loggedBy), .string(item.loggedByName), text(item.schoolId), text(item.schoolName),
            text(item.coachId), text(item.coachName), text(item.otherCoachName),
            .int(Int64(item.attachmentCount)), .bool(item.canDelete),
        ]
    }

    /// The item's fields in ``itemKeys`` order (written directly: a list writes thousands).
    static func writeItemFields(_ item: InteractionItem, into w: inout JSONWriter) {
        w.field("id", item.id)
        w.field("type", item.type.rawValue)
        w.field("typeName", item.type.displayName)
        w.field("direction", item.direction.rawValue)
        w.field("subject", item.subject)
        w.field("displaySubject", item.displaySubject)
        w.field("content", item.content)
        w.field("sentiment", item.sentiment?.rawValue)
        w.field("interestLevel", item.interestLevel?.rawValue)
        w.field("occurredAt", item.occurredAt.rfc3339)
        w.field("createdAt", item.createdAt.rfc3339)
        w.field("loggedBy", item.loggedBy)
        w.field("loggedByName", item.loggedByName)
        w.field("schoolId", item.schoolId)
        w.field("schoolName", item.schoolName)
        w.field("coachId", item.coachId)
        w.field("coachName", item.coachName)
        w.field("otherCoachName", item.otherCoachName)
        w.field("attachmentCount", item.attachmentCount)
        w.field("canDelete", item.canDelete)
    }
}

/// The CSV exports of SPEC §3.2 and §4.
public enum InteractionCSV {
    /// `export`: a header of the item keys, then one row per item; values as in the JSON,
    /// null as empty.
    public static func list(_ items: [InteractionItem]) -> String {
        var out = InteractionJSON.itemKeys.joined(separator: ",") + "\n"
        for item in items {
            out += CSV.row(InteractionJSON.itemValues(item).map(cell))
        }
        return out
    }

    static func cell(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .string(let text): text
        case .int(let n): String(n)
        case .bool(let flag): flag ? "true" : "false"
        default: ""
        }
    }

    /// `show ID --csv`: `Field,Value`, then one row per field people read.
    public static func detail(_ detail: InteractionDetail, zone: TimeZone) -> String {
        let item = detail.item
        var out = "Field,Value\n"
        out += CSV.row(["Subject", item.displaySubject])
        out += CSV.row(["Type", item.type.displayName])
        out += CSV.row(["Direction", item.direction.displayName])
        out += CSV.row(["Sentiment", item.sentiment?.displayName ?? "N/A"])
        out += CSV.row(["School", item.schoolName ?? "N/A"])
        out += CSV.row(["Coach", item.coachName ?? item.otherCoachName ?? "N/A"])
        out += CSV.row(["Date", DateText.long(item.occurredAt, in: zone)])
        out += CSV.row(["Content", item.content ?? "N/A"])
        out += CSV.row(["Attachments", String(detail.attachments.count)])
        return out
    }
}
