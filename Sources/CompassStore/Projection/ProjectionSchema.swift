import CompassCore

/// The `compass_views` schema (SPEC §6): the tables, the reader role and its row-level
/// security, as SQL statements run by ``Projector``.
enum ProjectionSchema {
    /// The projection's version, kept in `compass_views.meta`: a version with other tables or
    /// columns rebuilds them beside the old ones and swaps them in one transaction.
    static let version = 1
    /// The schema readers read.
    static let live = "compass_views"
    /// Where a rebuild builds its tables before the swap.
    static let next = "compass_views_next"
    /// The role a web app's requests read as (NOLOGIN: a login role is granted it).
    static let reader = "compass_reader"
    /// The advisory lock every projector's write transaction takes: one writer of the tables
    /// at a time, on every connection to this database.
    static let writeLock: Int64 = 0x636F_6D70_7669_6577  // "compview"
    /// The lock a rebuild holds from its first table to its swap.
    static let rebuildLock: Int64 = 0x636F_6D70_7265_6275  // "comprebu"

    /// Creates `schema`'s tables, the reader role, its grants and policies; idempotent.
    static func create(in schema: String) -> [String] {
        var statements = [
            "SET LOCAL check_function_bodies = off",
            "CREATE SCHEMA IF NOT EXISTS \(schema)",
            "CREATE TABLE IF NOT EXISTS \(schema).meta (key text PRIMARY KEY, value text NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(schema).checkpoints (family text PRIMARY KEY, seq bigint NOT NULL, head text NOT NULL)",
        ]
        for table in ProjectionTable.allCases {
            let columns = table.columns.map { "\($0.name) \($0.kind.sqlType)" }.joined(separator: ", ")
            statements.append("CREATE TABLE IF NOT EXISTS \(schema).\(table.name) (family text NOT NULL, \(columns), PRIMARY KEY (family, \(table.key)))")
        }
        statements += [
            """
            DO $$ BEGIN
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(reader)') THEN CREATE ROLE \(reader) NOLOGIN; END IF;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
            END $$
            """,
            // The viewer's role in a family, read past row-level security (the function runs as
            // the tables' owner); the name `compass_views.members` is resolved when it runs, so a
            // rebuilt schema's function reads the rebuilt table once it is swapped in.
            """
            CREATE OR REPLACE FUNCTION \(schema).viewer_role(f text) RETURNS text
            LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS
            $$ SELECT role FROM \(live).members WHERE family = f AND user_id = current_setting('compass.user', true) $$
            """,
            "REVOKE ALL ON FUNCTION \(schema).viewer_role(text) FROM PUBLIC",
            "GRANT EXECUTE ON FUNCTION \(schema).viewer_role(text) TO \(reader)",
            "GRANT USAGE ON SCHEMA \(schema) TO \(reader)",
        ]
        for table in ProjectionTable.allCases {
            let qualified = "\(schema).\(table.name)"
            let rule = table.ownerColumn.map {
                "CASE \(schema).viewer_role(family) WHEN 'parent' THEN true WHEN 'player' THEN \($0) = current_setting('compass.user', true) ELSE false END"
            } ?? "\(schema).viewer_role(family) IS NOT NULL"
            statements += [
                "GRANT SELECT ON \(qualified) TO \(reader)",
                "ALTER TABLE \(qualified) ENABLE ROW LEVEL SECURITY",
                "DROP POLICY IF EXISTS reader_sees_what_views_show ON \(qualified)",
                "CREATE POLICY reader_sees_what_views_show ON \(qualified) FOR SELECT TO \(reader) USING (\(rule))",
            ]
        }
        statements.append("INSERT INTO \(schema).meta (key, value) VALUES ('version', '\(version)') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value")
        return statements
    }

    /// Removes the rows of `table` in `schema` that the families named in `$2` (a JSON array)
    /// no longer have as they are in `$1` (a JSON array of rows); returns how many.
    static func deleteChanged(_ table: ProjectionTable, in schema: String) -> String {
        let qualified = "\(schema).\(table.name)"
        return """
            WITH n AS MATERIALIZED (SELECT * FROM json_populate_recordset(NULL::\(qualified), $1::json)),
                 gone AS (DELETE FROM \(qualified) t WHERE t.family IN (SELECT jsonb_array_elements_text($2::jsonb))
                          AND NOT EXISTS (SELECT 1 FROM n WHERE n.family = t.family AND n.\(table.key) = t.\(table.key)
                                          AND ROW(n.*) IS NOT DISTINCT FROM ROW(t.*))
                          RETURNING 1)
            SELECT count(*) FROM gone
            """
    }

    /// Inserts the rows of `$1` that `table` in `schema` does not hold yet (by key); returns how
    /// many.
    static func insertMissing(_ table: ProjectionTable, in schema: String) -> String {
        let qualified = "\(schema).\(table.name)"
        return """
            WITH added AS (INSERT INTO \(qualified) SELECT * FROM json_populate_recordset(NULL::\(qualified), $1::json)
                           ON CONFLICT (family, \(table.key)) DO NOTHING RETURNING 1)
            SELECT count(*) FROM added
            """
    }

    /// Removes the rows of `table` in `schema` whose family and key are a pair of `$1` (a JSON
    /// array of `[family, key]`); returns how many.
    static func deleteKeys(_ table: ProjectionTable, in schema: String) -> String {
        let qualified = "\(schema).\(table.name)"
        return """
            WITH gone AS (DELETE FROM \(qualified) t USING json_array_elements($1::json) x
                          WHERE t.family = x->>0 AND t.\(table.key) = x->>1 RETURNING 1)
            SELECT count(*) FROM gone
            """
    }

    /// Sets the checkpoints of `$1` (a JSON array of `{family, seq, head}`).
    static func saveCheckpoints(in schema: String) -> String {
        """
        INSERT INTO \(schema).checkpoints SELECT * FROM json_populate_recordset(NULL::\(schema).checkpoints, $1::json)
        ON CONFLICT (family) DO UPDATE SET seq = EXCLUDED.seq, head = EXCLUDED.head
        """
    }

    /// The families among `$2` whose rows of `table` differ from `$1`'s (a row missing, added
    /// or changed).
    static func differingFamilies(_ table: ProjectionTable, in schema: String) -> String {
        let qualified = "\(schema).\(table.name)"
        return """
            WITH n AS MATERIALIZED (SELECT * FROM json_populate_recordset(NULL::\(qualified), $1::json)),
                 t AS MATERIALIZED (SELECT * FROM \(qualified) WHERE family IN (SELECT jsonb_array_elements_text($2::jsonb)))
            SELECT DISTINCT family FROM ((SELECT * FROM n EXCEPT ALL SELECT * FROM t) UNION ALL (SELECT * FROM t EXCEPT ALL SELECT * FROM n)) d
            """
    }
}
