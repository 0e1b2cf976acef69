/// The `schools`, `coaches`, `members`, `documents` and `notifications` `--json` documents
/// (SPEC §3.4, §3.5, §4.1): keys in the SPEC's order, every key present, `null` for none.
public enum LookupJSON {
    /// `{"items":[{"schoolId","name","status","statusChangedAt","interactionCount","lastContactAt","daysSinceContact","contactGap"}]}`
    public static func schools(_ items: [SchoolItem]) -> [UInt8] {
        document(items) { item, w in
            w.field("schoolId", item.schoolId)
            w.field("name", item.name)
            w.field("status", item.status)
            w.field("statusChangedAt", item.statusChangedAt?.rfc3339)
            w.field("interactionCount", item.interactionCount)
            w.field("lastContactAt", item.lastContactAt?.rfc3339)
            w.field("daysSinceContact", item.daysSinceContact)
            w.field("contactGap", item.contactGap?.rawValue)
        }
    }

    /// `{"items":[{"coachId","schoolId","schoolName","name","role","roleName","interactionCount","lastContactAt","daysSinceContact"}]}`
    public static func coaches(_ items: [CoachItem]) -> [UInt8] {
        document(items) { item, w in
            w.field("coachId", item.coachId)
            w.field("schoolId", item.schoolId)
            w.field("schoolName", item.schoolName)
            w.field("name", item.name)
            w.field("role", item.role.rawValue)
            w.field("roleName", item.roleName)
            w.field("interactionCount", item.interactionCount)
            w.field("lastContactAt", item.lastContactAt?.rfc3339)
            w.field("daysSinceContact", item.daysSinceContact)
        }
    }

    /// `{"items":[{"userId","fullName","role","joinedAt"}]}`
    public static func members(_ items: [MemberItem]) -> [UInt8] {
        document(items) { item, w in
            w.field("userId", item.userId)
            w.field("fullName", item.fullName)
            w.field("role", item.role.rawValue)
            w.field("joinedAt", item.joinedAt.rfc3339)
        }
    }

    /// `{"items":[{"documentId","title","docType","docTypeName","fileName","sizeBytes","uploadedBy","uploadedByName","uploadedAt"}]}`
    public static func documents(_ items: [DocumentItem]) -> [UInt8] {
        document(items) { item, w in
            w.field("documentId", item.documentId)
            w.field("title", item.title)
            w.field("docType", item.docType)
            w.field("docTypeName", item.docTypeName)
            w.field("fileName", item.fileName)
            w.field("sizeBytes", item.sizeBytes)
            w.field("uploadedBy", item.uploadedBy)
            w.field("uploadedByName", item.uploadedByName)
            w.field("uploadedAt", item.uploadedAt.rfc3339)
        }
    }

    /// `{"unread":N,"items":[{"id","interactionId","title","message","createdAt","read","clickUrl"}]}`
    public static func notifications(_ list: NotificationList) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 64 + list.items.count * 200)
        w.beginObject()
        w.field("unread", list.unread)
        items(list.items, into: &w) { item, w in
            w.field("id", item.id)
            w.field("interactionId", item.interactionId)
            w.field("title", item.title)
            w.field("message", item.message)
            w.field("createdAt", item.createdAt.rfc3339)
            w.field("read", item.read)
            w.field("clickUrl", item.clickUrl)
        }
        w.endObject()
        return w.bytes + [0x0A]
    }

    static func document<T>(_ list: [T], _ fields: (T, inout JSONWriter) -> Void) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 16 + list.count * 200)
        w.beginObject()
        items(list, into: &w, fields)
        w.endObject()
        return w.bytes + [0x0A]
    }

    static func items<T>(_ list: [T], into w: inout JSONWriter, _ fields: (T, inout JSONWriter) -> Void) {
        w.key("items")
        w.beginArray()
        for item in list {
            w.beginObject()
            fields(item, &w)
            w.endObject()
        }
        w.endArray()
    }
}
