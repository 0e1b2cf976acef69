/// The store's tables in PostgreSQL, created and upgraded by `compass db init` (versioned,
/// idempotent: running it again changes nothing).
///
/// Lines are kept as their exact text (never `jsonb`, which would rewrite them), with the
/// family, its `seq`, the line's hash and the envelope fields as columns. `families` holds one
/// row per family (its version and head): the only row an append locks, so appends to
/// different families never wait for each other. User and event ids are unique across the
/// store in their own tables. Blobs are kept by content hash.
enum PostgresSchema {
    /// The version this build writes and reads.
    static let version = 1

    /// Each version's statements, in order; version N is reached by running 1…N.
    static let migrations: [[String]] = [
        [
            "CREATE TABLE IF NOT EXISTS compass_meta (key text PRIMARY KEY, value bigint NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS families (
              family text PRIMARY KEY,
              version bigint NOT NULL DEFAULT 0,
              head text NOT NULL DEFAULT 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
            """,
            """
            CREATE TABLE IF NOT EXISTS events (
              position bigserial NOT NULL,
              tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
              family text NOT NULL,
              seq bigint NOT NULL,
              line text NOT NULL,
              hash text NOT NULL,
              event_id text NOT NULL,
              type text NOT NULL,
              actor text NOT NULL,
              at text NOT NULL,
              PRIMARY KEY (family, seq))
            """,
            "CREATE INDEX IF NOT EXISTS events_order ON events (tx, position)",
            "CREATE TABLE IF NOT EXISTS event_ids (event_id text PRIMARY KEY, family text NOT NULL, seq bigint NOT NULL)",
            "CREATE TABLE IF NOT EXISTS users (user_id text PRIMARY KEY, family text NOT NULL)",
            "CREATE TABLE IF NOT EXISTS blobs (sha256 text PRIMARY KEY, bytes bytea NOT NULL)",
            "INSERT INTO compass_meta (key, value) VALUES ('erasures', 0) ON CONFLICT DO NOTHING",
        ],
    ]
}
