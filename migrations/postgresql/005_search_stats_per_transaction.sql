-- The term statistics (`search_counts`, `search_terms`, see the baseline) kept once per
-- transaction instead of once per statement. A statement on an indexed table only notes
-- the vectors it added and took away (`search_deltas`: one row per changed row, no lexeme
-- split, no conflict to resolve); at COMMIT one deferred trigger adds up the transaction's
-- notes per owner and lexeme and applies them in one `INSERT ... ON CONFLICT DO UPDATE`
-- per table. A transaction that writes a thousand notes sharing common words then updates
-- each common word's row once, not once per note, and holds the statistics' row locks only
-- from its COMMIT's start to its end. The figures a transaction reads before its COMMIT
-- do not yet count its own writes (a search inside a write transaction ranks by the
-- figures of what was committed before it).
--
-- Both tables hold rows only inside the transaction that wrote them (the COMMIT's trigger
-- deletes them), so they are UNLOGGED: nothing of them needs to survive a crash.

DROP TRIGGER documents_search_stats_insert ON documents;
DROP TRIGGER documents_search_stats_update ON documents;
DROP TRIGGER documents_search_stats_delete ON documents;
DROP TRIGGER passages_search_stats_insert ON passages;
DROP TRIGGER passages_search_stats_update ON passages;
DROP TRIGGER passages_search_stats_delete ON passages;
DROP TRIGGER recall_passages_search_stats_insert ON recall_passages;
DROP TRIGGER recall_passages_search_stats_update ON recall_passages;
DROP TRIGGER recall_passages_search_stats_delete ON recall_passages;
DROP FUNCTION search_stats_keep();

-- search_deltas(txid, owner, source, sign, v): a live row of `source` with the vector `v`
-- was added (+1) or taken away (-1) by the transaction `txid` (only it sees the row). Its
-- COMMIT finds its rows through the index, whatever dead rows earlier transactions left
-- for VACUUM, which is asked to come often (every table's rows are deleted at once).
CREATE UNLOGGED TABLE search_deltas (
    txid BIGINT NOT NULL,
    owner TEXT COLLATE "C" NOT NULL,
    source TEXT COLLATE "C" NOT NULL,
    sign SMALLINT NOT NULL,
    v TSVECTOR
) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
CREATE INDEX search_deltas_txid ON search_deltas(txid);

-- search_flush(txid): the transaction `txid` has notes to apply at its COMMIT; its one row
-- queues the one deferred trigger that applies them.
CREATE UNLOGGED TABLE search_flush (
    txid BIGINT PRIMARY KEY
);

-- The notes of one statement on `documents` (a document is live while not deleted).
CREATE FUNCTION search_stats_note_documents() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), owner, 'documents', 1, search_vector FROM new_rows WHERE deleted_at IS NULL;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), owner, 'documents', -1, search_vector FROM old_rows WHERE deleted_at IS NULL;
    ELSE
        -- An UPDATE that changes neither the owner, the vector nor liveness notes nothing.
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), x.owner, 'documents', x.sign, x.v
            FROM new_rows n JOIN old_rows o USING (id)
            CROSS JOIN LATERAL (VALUES
                (n.owner, 1, n.search_vector, n.deleted_at IS NULL),
                (o.owner, -1, o.search_vector, o.deleted_at IS NULL)) AS x(owner, sign, v, live)
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

-- The notes of one statement on a passage table (`passages`, `recall_passages`: every row
-- is live).
CREATE FUNCTION search_stats_note_rows() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), owner, TG_TABLE_NAME, 1, search_vector FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), owner, TG_TABLE_NAME, -1, search_vector FROM old_rows;
    ELSE
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), x.owner, TG_TABLE_NAME, x.sign, x.v
            FROM new_rows n JOIN old_rows o USING (id)
            CROSS JOIN LATERAL (VALUES (n.owner, 1, n.search_vector),
                (o.owner, -1, o.search_vector)) AS x(owner, sign, v)
            WHERE n.owner IS DISTINCT FROM o.owner OR n.search_vector IS DISTINCT FROM o.search_vector;
    END IF;
    IF FOUND THEN
        INSERT INTO search_flush (txid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$fn$;

-- At COMMIT: the transaction's notes, summed per owner and lexeme, added to the figures in
-- the writing connection's slot (see the baseline), and the notes deleted.
CREATE FUNCTION search_stats_flush() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
    my_slot SMALLINT := pg_backend_pid() % 16;
    gone_owners TEXT[];
    gone_sources TEXT[];
    gone_terms TEXT[];
BEGIN
    WITH d AS MATERIALIZED (
        DELETE FROM search_deltas WHERE txid = NEW.txid RETURNING owner, source, sign, v),
    terms AS MATERIALIZED (
        SELECT d.owner, d.source, t.term, SUM(d.sign) AS delta
        FROM d, unnest(tsvector_to_array(d.v)) AS t(term) WHERE d.v IS NOT NULL
        GROUP BY d.owner, d.source, t.term HAVING SUM(d.sign) <> 0),
    c AS (
        INSERT INTO search_counts (owner, source, slot, n)
        SELECT owner, source, my_slot, SUM(sign) FROM d GROUP BY owner, source
        HAVING SUM(sign) <> 0 ORDER BY owner, source
        ON CONFLICT (owner, source, slot) DO UPDATE SET n = search_counts.n + EXCLUDED.n),
    t AS (
        INSERT INTO search_terms (owner, source, term, slot, df)
        SELECT owner, source, term, my_slot, delta FROM terms ORDER BY owner, source, term
        ON CONFLICT (owner, source, term, slot) DO UPDATE SET df = search_terms.df + EXCLUDED.df)
    SELECT array_agg(owner), array_agg(source), array_agg(term) FROM terms WHERE delta < 0
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

CREATE CONSTRAINT TRIGGER search_flush_at_commit AFTER INSERT ON search_flush
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION search_stats_flush();

CREATE TRIGGER documents_search_stats_insert AFTER INSERT ON documents
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_note_documents();
CREATE TRIGGER documents_search_stats_update AFTER UPDATE ON documents
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_note_documents();
CREATE TRIGGER documents_search_stats_delete AFTER DELETE ON documents
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_note_documents();

CREATE TRIGGER passages_search_stats_insert AFTER INSERT ON passages
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_note_rows();
CREATE TRIGGER passages_search_stats_update AFTER UPDATE ON passages
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_note_rows();
CREATE TRIGGER passages_search_stats_delete AFTER DELETE ON passages
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_note_rows();

CREATE TRIGGER recall_passages_search_stats_insert AFTER INSERT ON recall_passages
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_note_rows();
CREATE TRIGGER recall_passages_search_stats_update AFTER UPDATE ON recall_passages
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_note_rows();
CREATE TRIGGER recall_passages_search_stats_delete AFTER DELETE ON recall_passages
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_note_rows();
