-- The term statistics take less room; what they count is the same.
--
-- `search_terms`: each COMMIT adds its change to the row of every word it wrote, so a
-- batch of notes updates most of the table's rows at once. An updated row's new version
-- goes in the same page when the page has room for it (a HOT update: no new index entry,
-- and the old version is pruned from the page by the next statement that reads it), and in
-- another page otherwise, leaving the old version for VACUUM. Full pages sent every update
-- elsewhere: at 10,000 short notes the table was 3.0 MB for 0.6 MB of live rows, its key
-- 0.83 MB. Pages kept half empty (fillfactor 50) hold a page's rows and their next versions:
-- 1.35 and 0.65 MB. (70, tried before, left too little room: a COMMIT updates every row of
-- a page at once.) CLUSTER writes the table anew with that room, in the migration's
-- transaction.
--
-- `search_deltas`: a note of a changed row holds its vector's lexemes only (`strip`): the
-- COMMIT reads nothing else of it (`tsvector_to_array`), and each note stays in the table as
-- a dead row until VACUUM comes, after the COMMIT deleted it. 240 bytes a note of a short
-- note's document instead of 390, 210 of its passage instead of 350.
ALTER TABLE search_terms SET (fillfactor = 50);
CLUSTER search_terms USING search_terms_pkey;

-- The notes of one statement on `documents` (a document is live while not deleted), as in
-- migration 005 but with lexemes only.
CREATE OR REPLACE FUNCTION search_stats_note_documents() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), owner, 'documents', 1, strip(search_vector) FROM new_rows WHERE deleted_at IS NULL;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), owner, 'documents', -1, strip(search_vector) FROM old_rows WHERE deleted_at IS NULL;
    ELSE
        -- An UPDATE that changes neither the owner, the vector nor liveness notes nothing.
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), x.owner, 'documents', x.sign, x.v
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

-- The notes of one statement on a passage table (`passages`, `recall_passages`: every row
-- is live), as in migration 005 but with lexemes only.
CREATE OR REPLACE FUNCTION search_stats_note_rows() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), owner, TG_TABLE_NAME, 1, strip(search_vector) FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), owner, TG_TABLE_NAME, -1, strip(search_vector) FROM old_rows;
    ELSE
        INSERT INTO search_deltas (txid, owner, source, sign, v)
            SELECT txid_current(), x.owner, TG_TABLE_NAME, x.sign, x.v
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
