/// The `activity --json` document of SPEC §4.1, and one item per line for `follow --json`.
public enum ActivityJSON {
    /// The 1-based page.
    public static func page(_ page: ActivityPage) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 256 + page.items.count * 300)
        w.beginObject()
        w.field("page", page.page)
        w.field("pageSize", page.pageSize)
        w.field("totalPages", page.totalPages)
        w.field("totalCount", page.totalCount)
        w.key("items")
        w.beginArray()
        for item in page.items { write(item, into: &w) }
        w.endArray()
        w.endObject()
        return w.bytes + [0x0A]
    }

    /// One item as a compact JSON line.
    public static func line(_ item: ActivityItem) -> [UInt8] {
        var w = JSONWriter()
        write(item, into: &w)
        return w.bytes + [0x0A]
    }

    static func write(_ item: ActivityItem, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id", item.id)
        w.field("type", item.type.rawValue)
        w.field("timestamp", item.timestamp.rfc3339)
        w.field("title", item.title)
        w.field("description", item.description)
        w.field("icon", item.icon)
        w.field("entityType", item.entityType)
        w.field("entityId", item.entityId)
        w.field("entityName", item.entityName)
        w.field("relativeTime", item.relativeTime)
        w.field("isClickable", item.isClickable)
        w.field("clickUrl", item.clickUrl)
        w.endObject()
    }
}
