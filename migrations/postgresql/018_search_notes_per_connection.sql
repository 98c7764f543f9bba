-- The notes a statement leaves for its COMMIT (`search_deltas`, migrations 005 and 017) go
-- to a temporary table of the writing connection, emptied by the COMMIT, instead of a table
-- shared by every connection.
--
-- The shared table held each note as a row the COMMIT deleted, and a deleted row keeps its
-- bytes in the table's file until VACUUM comes: right after a burst of writing, 582 bytes a
-- note written and caught up (6 MB at 10,000 short notes, a sixth of doctree's tables), and
-- the lexemes of erased text until `forget`'s VACUUM FULL. A temporary table lives in the
-- connection's own buffers and files, and `ON COMMIT DELETE ROWS` truncates it at the end of
-- every COMMIT that wrote to it (after the deferred trigger that reads it): no row of it
-- outlives its transaction, none is written to the write-ahead log, none is seen by another
-- connection. A rolled-back transaction's notes are rolled back with it. The first statement
-- of a connection that writes to an indexed table makes the table (a few rows in the catalog, gone
-- when the connection ends); a connection that only reads makes none.
DROP TABLE search_deltas;

-- The connection's table of notes, made when it first writes. Its rows are the running
-- transaction's (the COMMIT empties it): sign +1, a live row of `source` with the lexemes `v`
-- was added; -1, taken away.
CREATE FUNCTION search_stats_notes() RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
    IF to_regclass('pg_temp.search_deltas') IS NULL THEN
        CREATE TEMPORARY TABLE search_deltas (
            owner TEXT COLLATE "C" NOT NULL,
            source TEXT COLLATE "C" NOT NULL,
            sign SMALLINT NOT NULL,
            v TSVECTOR
        ) ON COMMIT DELETE ROWS;
    END IF;
END
$fn$;

-- The notes of one statement on `documents`, as in migration 017, in the temporary table.
CREATE OR REPLACE FUNCTION search_stats_note_documents() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM search_stats_notes();
    IF TG_OP = 'INSERT' THEN
        INSERT INTO pg_temp.search_deltas (owner, source, sign, v)
            SELECT owner, 'documents', 1, strip(search_vector) FROM new_rows WHERE deleted_at IS NULL;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO pg_temp.search_deltas (owner, source, sign, v)
            SELECT owner, 'documents', -1, strip(search_vector) FROM old_rows WHERE deleted_at IS NULL;
    ELSE
        -- An UPDATE that changes neither the owner, the vector nor liveness notes nothing.
        INSERT INTO pg_temp.search_deltas (owner, source, sign, v)
            SELECT x.owner, 'documents', x.sign, x.v
            FROM new_rows n JOIN old_rows o USING (id)
            CROSS JOIN LATERAL (VALUES
                (n.owner, 1, strip(n.search_vector), n.deleted_at IS NULL),
                (o.owner, -1, strip(o.search_vector), o.deleted_at IS NULL)) AS x(owner, sign, v, live)
            WHERE x.live AND (n.owner IS DISTINCT FROM o.owner
                OR (n.deleted_at IS NULL) IS DISTINCT FROM (o.deleted_at IS NULL)
                OR n.search_vector IS DISTINCT FROM o.search_vector);
    END IF;
    IF FOUND THEN
        INSERT INTO search_flush (txid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$fn$;

-- The notes of one statement on a passage table, as in migration 017, in the temporary table.
CREATE OR REPLACE FUNCTION search_stats_note_rows() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM search_stats_notes();
    IF TG_OP = 'INSERT' THEN
        INSERT INTO pg_temp.search_deltas (owner, source, sign, v)
            SELECT owner, TG_TABLE_NAME, 1, strip(search_vector) FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO pg_temp.search_deltas (owner, source, sign, v)
            SELECT owner, TG_TABLE_NAME, -1, strip(search_vector) FROM old_rows;
    ELSE
        INSERT INTO pg_temp.search_deltas (owner, source, sign, v)
            SELECT x.owner, TG_TABLE_NAME, x.sign, x.v
            FROM new_rows n JOIN old_rows o USING (id)
            CROSS JOIN LATERAL (VALUES (n.owner, 1, strip(n.search_vector)),
                (o.owner, -1, strip(o.search_vector))) AS x(owner, sign, v)
            WHERE n.owner IS DISTINCT FROM o.owner OR n.search_vector IS DISTINCT FROM o.search_vector;
    END IF;
    IF FOUND THEN
        INSERT INTO search_flush (txid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$fn$;

-- At COMMIT, as in migration 014: the notes read (and deleted, should a later statement of
-- the same transaction queue another flush) from the connection's temporary table.
CREATE OR REPLACE FUNCTION search_stats_flush() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
    my_slot SMALLINT := pg_backend_pid() % 16;
    t_owners TEXT[];
    t_sources TEXT[];
    t_terms TEXT[];
    t_deltas BIGINT[];
    f_owners TEXT[];
    f_sources TEXT[];
    f_terms TEXT[];
    f_counts BIGINT[];
    gone_owners TEXT[];
    gone_sources TEXT[];
    gone_terms TEXT[];
BEGIN
    PERFORM pg_advisory_xact_lock(1685025652);  -- 'dost': one COMMIT's figures at a time
    WITH d AS MATERIALIZED (
        DELETE FROM pg_temp.search_deltas RETURNING owner, source, sign, v),
    terms AS MATERIALIZED (
        SELECT d.owner, d.source, t.term, SUM(d.sign) AS delta
        FROM d, unnest(tsvector_to_array(d.v)) AS t(term) WHERE d.v IS NOT NULL
        GROUP BY d.owner, d.source, t.term HAVING SUM(d.sign) <> 0),
    c AS (
        INSERT INTO search_counts (owner, source, slot, n)
        SELECT owner, source, my_slot, SUM(sign) FROM d GROUP BY owner, source
        HAVING SUM(sign) <> 0 ORDER BY owner, source
        ON CONFLICT (owner, source, slot) DO UPDATE SET n = search_counts.n + EXCLUDED.n)
    SELECT array_agg(owner), array_agg(source), array_agg(term), array_agg(delta) FROM terms
    INTO t_owners, t_sources, t_terms, t_deltas;
    IF t_terms IS NULL THEN
        DELETE FROM search_flush WHERE txid = NEW.txid;
        RETURN NULL;
    END IF;
    -- The terms this COMMIT adds that have no rows: counted, owner by owner.
    SELECT array_agg(x.owner), array_agg(x.source), array_agg(r.term), array_agg(r.n)
    INTO f_owners, f_sources, f_terms, f_counts
    FROM (SELECT g.owner, g.source, array_agg(g.term) AS terms
        FROM unnest(t_owners, t_sources, t_terms, t_deltas) AS g(owner, source, term, delta)
        WHERE g.delta > 0 AND NOT EXISTS (SELECT 1 FROM search_terms s
            WHERE s.owner = g.owner AND s.source = g.source AND s.term = g.term)
        GROUP BY g.owner, g.source) x
    CROSS JOIN LATERAL search_stats_rows(x.owner, x.source, x.terms) r
    WHERE r.n > 2;
    -- Each term with rows gets this COMMIT's change in its slot; each first count its row.
    WITH g AS (
        SELECT * FROM unnest(t_owners, t_sources, t_terms, t_deltas)
            AS g(owner, source, term, delta)),
    f AS (
        SELECT * FROM unnest(f_owners, f_sources, f_terms, f_counts)
            AS f(owner, source, term, n)),
    changes AS (
        SELECT g.owner, g.source, g.term, g.delta AS df FROM g
        WHERE EXISTS (SELECT 1 FROM search_terms s
                WHERE s.owner = g.owner AND s.source = g.source AND s.term = g.term)
            AND NOT EXISTS (SELECT 1 FROM f
                WHERE f.owner = g.owner AND f.source = g.source AND f.term = g.term)
        UNION ALL
        SELECT f.owner, f.source, f.term, f.n FROM f)
    INSERT INTO search_terms (owner, source, term, slot, df)
    SELECT owner, source, term, my_slot, df FROM changes ORDER BY owner, source, term
    ON CONFLICT (owner, source, term, slot) DO UPDATE SET df = search_terms.df + EXCLUDED.df;
    SELECT array_agg(owner), array_agg(source), array_agg(term)
    FROM unnest(t_owners, t_sources, t_terms, t_deltas) AS g(owner, source, term, delta)
    WHERE delta < 0
    INTO gone_owners, gone_sources, gone_terms;
    IF gone_terms IS NOT NULL THEN
        -- Where no live row holds such a term any more, its rows go: an erased word is not
        -- kept. Only a term whose sum reads zero is locked (in every slot, in one order) and
        -- read again, so the sum deleted is the committed one; a common word never makes a
        -- writer wait for another's slot.
        WITH gone AS (
            SELECT * FROM unnest(gone_owners, gone_sources, gone_terms) AS g(owner, source, term)),
        maybe AS (
            SELECT s.owner, s.source, s.term FROM search_terms s JOIN gone g
                ON s.owner = g.owner AND s.source = g.source AND s.term = g.term
            GROUP BY 1, 2, 3 HAVING SUM(s.df) = 0),
        locked AS (
            SELECT s.owner, s.source, s.term, s.df FROM search_terms s JOIN maybe m
                ON s.owner = m.owner AND s.source = m.source AND s.term = m.term
            ORDER BY s.owner, s.source, s.term, s.slot FOR UPDATE OF s),
        zero AS (SELECT owner, source, term FROM locked GROUP BY 1, 2, 3 HAVING SUM(df) = 0)
        DELETE FROM search_terms s USING zero z
        WHERE s.owner = z.owner AND s.source = z.source AND s.term = z.term;
    END IF;
    DELETE FROM search_flush WHERE txid = NEW.txid;
    RETURN NULL;
END
$fn$;
