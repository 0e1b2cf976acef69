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
    static let version = 4

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
        // 2: an append to one family in one round trip (``appendFunction``).
        [appendFunction],
        // 3: a family's replay kept as a snapshot (a cache: read only at the erasure
        // generation it was made at; an erasure deletes its family's).
        ["""
         CREATE TABLE IF NOT EXISTS family_snapshots (
           family text PRIMARY KEY, version bigint NOT NULL, generation bigint NOT NULL, bytes bytea NOT NULL)
         """],
        // 4: notifications on the store's own secret channel, with nothing in them (they named
        // the family on a channel any role that could connect might LISTEN to).
        [
            "CREATE TABLE IF NOT EXISTS compass_channel (name text PRIMARY KEY CHECK (name ~ '^compass_[0-9a-f]{32}$'))",
            """
            INSERT INTO compass_channel (name) SELECT 'compass_' || replace(gen_random_uuid()::text, '-', '')
              WHERE NOT EXISTS (SELECT 1 FROM compass_channel)
            """,
            appendFunction,
        ],
    ]

    /// The query of the channel appends and erasures notify and feeds `LISTEN` to:
    /// `compass_` and 32 hex digits drawn by the server when the tables were made, kept in
    /// `compass_channel`, which only the store's roles may read. PostgreSQL has no grant for
    /// `LISTEN` or `NOTIFY`: any role that can connect may use any channel it can name, so the
    /// name is the secret. A role without `SELECT` on `compass_channel` cannot learn when any
    /// family writes, nor wake the feeds. The payload is empty all the same (a notification is
    /// a hint: a feed reads what is committed).
    static let channelQuery = "SELECT name FROM compass_channel LIMIT 1"

    /// Whether `name` is a channel name this schema draws (safe to write unquoted).
    static func isChannel(_ name: String) -> Bool {
        name.hasPrefix("compass_") && name.utf8.count == 40 && name.utf8.dropFirst(8).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// `compass_append(family, generation, version, head, ids, seqs, lines, hashes, types,
    /// actors, ats, users, notify)`: one family's append in one statement (one round trip,
    /// committed by the statement itself).
    ///
    /// Locks the family's row and writes only if the family is still at the version and head
    /// the writer decided against and no erasure happened since the writer read it
    /// (`generation`). It returns no rows when it wrote; the family's newer lines when
    /// another writer moved the family (the writer folds them and decides again); one row
    /// `(-1, generation)` when an erasure rewrote lines since (the writer reads the family
    /// again). An id another family holds fails the statement with a unique violation
    /// (`event_ids_pkey`, `users_pkey`): nothing is written.
    static let appendFunction = """
        CREATE OR REPLACE FUNCTION compass_append(p_family text, p_generation bigint, p_version bigint, p_head text,
          p_ids text[], p_seqs bigint[], p_lines text[], p_hashes text[], p_types text[], p_actors text[], p_ats text[],
          p_users text[], p_notify boolean)
        RETURNS TABLE (r_seq bigint, r_line text) LANGUAGE plpgsql AS $fn$
        DECLARE
          v bigint; h text; g bigint;
        BEGIN
          INSERT INTO families (family) VALUES (p_family) ON CONFLICT (family) DO NOTHING;
          SELECT f.version, f.head INTO v, h FROM families f WHERE f.family = p_family FOR UPDATE;
          SELECT m.value INTO g FROM compass_meta m WHERE m.key = 'erasures';
          IF g <> p_generation OR v < p_version OR (v = p_version AND h <> p_head) THEN
            RETURN QUERY SELECT -1::bigint, g::text;
            RETURN;
          END IF;
          IF v > p_version THEN
            RETURN QUERY SELECT e.seq, e.line FROM events e WHERE e.family = p_family AND e.seq > p_version ORDER BY e.seq;
            RETURN;
          END IF;
          INSERT INTO event_ids (event_id, family, seq) SELECT t.i, p_family, t.s FROM unnest(p_ids, p_seqs) AS t(i, s);
          INSERT INTO events (family, seq, line, hash, event_id, type, actor, at)
            SELECT p_family, t.* FROM unnest(p_seqs, p_lines, p_hashes, p_ids, p_types, p_actors, p_ats) AS t;
          INSERT INTO users (user_id, family) SELECT u, p_family FROM unnest(p_users) AS u;
          UPDATE families SET version = p_seqs[array_upper(p_seqs, 1)], head = p_hashes[array_upper(p_hashes, 1)]
            WHERE family = p_family;
          IF p_notify THEN PERFORM pg_notify((SELECT c.name FROM compass_channel c LIMIT 1), ''); END IF;
        END
        $fn$
        """
}
