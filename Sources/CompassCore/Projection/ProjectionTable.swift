/// One table of the SQL projection (SPEC §6): its name, its columns in order, the column
/// that names an item within its family, and who may see a row.
public enum ProjectionTable: String, CaseIterable, Sendable {
    case members, schools, coaches, interactions, documents
    case statusChanges = "status_changes"

    /// The table's name in the `compass_views` schema.
    public var name: String { rawValue }

    /// What a column holds, as PostgreSQL stores it.
    public enum ColumnKind: Sendable {
        /// Ids, slugs and texts: `text`.
        case text
        /// Times: `timestamptz`.
        case time
        /// Counts and sizes: `bigint`.
        case count

        /// The column's SQL type.
        public var sqlType: String {
            switch self {
            case .text: "text"
            case .time: "timestamptz"
            case .count: "bigint"
            }
        }
    }

    /// The columns after `family`, in order, with what each holds.
    public var columns: [(name: String, kind: ColumnKind)] {
        switch self {
        case .members:
            [("user_id", .text), ("full_name", .text), ("role", .text), ("joined_at", .time)]
        case .schools:
            [("school_id", .text), ("name", .text), ("status", .text), ("status_changed_at", .time)]
        case .coaches:
            [("coach_id", .text), ("school_id", .text), ("first_name", .text), ("last_name", .text), ("role", .text)]
        case .interactions:
            [("interaction_id", .text), ("event_id", .text), ("logged_by", .text), ("school_id", .text), ("coach_id", .text),
             ("other_coach_name", .text), ("type", .text), ("direction", .text), ("sentiment", .text), ("interest_level", .text),
             ("subject", .text), ("content", .text), ("occurred_at", .time), ("created_at", .time), ("attachment_count", .count)]
        case .documents:
            [("document_id", .text), ("title", .text), ("doc_type", .text), ("file_name", .text), ("size_bytes", .count),
             ("uploaded_by", .text), ("uploaded_at", .time)]
        case .statusChanges:
            [("event_id", .text), ("school_id", .text), ("new_status", .text), ("notes", .text), ("actor", .text), ("at", .time)]
        }
    }

    /// The column that names a row within its family (with `family`, the primary key).
    public var key: String { columns[0].name }

    /// The column naming the member a player must be to see the row (SPEC §3: interactions
    /// they logged, documents they uploaded, status changes they made); nil when every
    /// member of the family sees every row (members, schools, coaches).
    public var ownerColumn: String? {
        switch self {
        case .members, .schools, .coaches: nil
        case .interactions: "logged_by"
        case .documents: "uploaded_by"
        case .statusChanges: "actor"
        }
    }
}
