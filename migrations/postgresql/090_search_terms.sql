-- Term statistics of the full-text indexes, kept as rows are written, so that a search
-- ranks by BM25's rarity of each term without counting the owner's rows at every query
-- (`doctree/store/backends/postgres.py`, `_idf`).
--
--   search_counts(owner, source, slot, n)        the owner's live rows of `source`
--   search_terms(owner, source, term, slot, df)  of those, the rows whose tsvector holds
--                                                the lexeme `term` (in any field)
--
-- `source` is the indexed table (documents, passages, recall_passages); a document is live
-- while `deleted_at IS NULL`, a passage always. A figure is the SUM over its `slot`s: each
-- writing connection adds its changes to its own slot (its backend pid modulo 16), so that
-- writers never queue on one counter row the way they would on a single `df` per term. A
-- term whose sum falls to zero loses its rows at once: an erased word stays nowhere here.
--
-- Statement-level triggers keep the figures: one pass over the statement's transition
-- tables adds +1 for each new live row and -1 for each old one, per owner and per lexeme,
-- and an UPDATE that changes neither the owner, the vector nor liveness adds nothing.

CREATE TABLE search_counts (
    owner TEXT COLLATE "C" NOT NULL,
    source TEXT COLLATE "C" NOT NULL,
    slot SMALLINT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (owner, source, slot)
);

CREATE TABLE search_terms (
    owner TEXT COLLATE "C" NOT NULL,
    source TEXT COLLATE "C" NOT NULL,
    term TEXT COLLATE "C" NOT NULL,
    slot SMALLINT NOT NULL,
    df BIGINT NOT NULL,
    PRIMARY KEY (owner, source, term, slot)
);

-- TG_ARGV[0]: the SQL condition, on the table's columns, that a row is live.
CREATE FUNCTION search_stats_keep() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
    slot SMALLINT := pg_backend_pid() % 16;
    rows_sql TEXT := 'SELECT id, owner, search_vector AS v, (' || TG_ARGV[0] || ') AS live FROM ';
    delta TEXT;
    gone_owners TEXT[];
    gone_terms TEXT[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        delta := 'SELECT owner, 1 AS sign, v FROM (' || rows_sql || 'new_rows) n WHERE live';
    ELSIF TG_OP = 'DELETE' THEN
        delta := 'SELECT owner, -1 AS sign, v FROM (' || rows_sql || 'old_rows) o WHERE live';
    ELSE
        delta := 'SELECT x.owner, x.sign, x.v FROM (' || rows_sql || 'new_rows) n'
            || ' JOIN (' || rows_sql || 'old_rows) o USING (id)'
            || ' CROSS JOIN LATERAL (VALUES (n.owner, 1, n.v, n.live), (o.owner, -1, o.v, o.live))'
            || ' AS x(owner, sign, v, live)'
            || ' WHERE x.live AND (n.owner IS DISTINCT FROM o.owner OR n.live IS DISTINCT FROM'
            || ' o.live OR n.v IS DISTINCT FROM o.v)';
    END IF;
    -- One statement adds the changes and says which terms lost rows (owners, terms).
    EXECUTE format(
        'WITH d AS MATERIALIZED (%1$s),'
        ' terms AS MATERIALIZED (SELECT d.owner, t.term, SUM(d.sign) AS delta'
        '  FROM d, unnest(tsvector_to_array(d.v)) AS t(term) WHERE d.v IS NOT NULL'
        '  GROUP BY d.owner, t.term HAVING SUM(d.sign) <> 0),'
        ' c AS (INSERT INTO search_counts (owner, source, slot, n)'
        '  SELECT owner, %2$L, %3$s, SUM(sign) FROM d GROUP BY owner HAVING SUM(sign) <> 0'
        '  ORDER BY owner'
        '  ON CONFLICT (owner, source, slot) DO UPDATE SET n = search_counts.n + EXCLUDED.n),'
        ' t AS (INSERT INTO search_terms (owner, source, term, slot, df)'
        '  SELECT owner, %2$L, term, %3$s, delta FROM terms ORDER BY owner, term'
        '  ON CONFLICT (owner, source, term, slot) DO UPDATE SET df = search_terms.df + EXCLUDED.df)'
        ' SELECT array_agg(owner), array_agg(term) FROM terms WHERE delta < 0',
        delta, TG_TABLE_NAME, slot) INTO gone_owners, gone_terms;
    IF gone_terms IS NOT NULL THEN
        -- Where no live row holds such a term any more, its rows go: an erased word is
        -- not kept. Only a term whose sum reads zero is locked (in every slot, in one
        -- order) and read again, so the sum deleted is the committed one; a common word
        -- never makes a writer wait for another's slot.
        WITH gone AS (SELECT * FROM unnest(gone_owners, gone_terms) AS g(owner, term)),
        maybe AS (
            SELECT s.owner, s.term FROM search_terms s JOIN gone g
                ON s.owner = g.owner AND s.term = g.term
            WHERE s.source = TG_TABLE_NAME GROUP BY 1, 2 HAVING SUM(s.df) = 0),
        locked AS (
            SELECT s.owner, s.term, s.df FROM search_terms s JOIN maybe m
                ON s.owner = m.owner AND s.term = m.term
            WHERE s.source = TG_TABLE_NAME
            ORDER BY s.owner, s.term, s.slot FOR UPDATE OF s),
        zero AS (SELECT owner, term FROM locked GROUP BY 1, 2 HAVING SUM(df) = 0)
        DELETE FROM search_terms s USING zero z
        WHERE s.owner = z.owner AND s.source = TG_TABLE_NAME AND s.term = z.term;
    END IF;
    RETURN NULL;
END
$fn$;

CREATE TRIGGER documents_search_stats_insert AFTER INSERT ON documents
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_keep('deleted_at IS NULL');
CREATE TRIGGER documents_search_stats_update AFTER UPDATE ON documents
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_keep('deleted_at IS NULL');
CREATE TRIGGER documents_search_stats_delete AFTER DELETE ON documents
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_keep('deleted_at IS NULL');

CREATE TRIGGER passages_search_stats_insert AFTER INSERT ON passages
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_keep('TRUE');
CREATE TRIGGER passages_search_stats_update AFTER UPDATE ON passages
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_keep('TRUE');
CREATE TRIGGER passages_search_stats_delete AFTER DELETE ON passages
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_keep('TRUE');

CREATE TRIGGER recall_passages_search_stats_insert AFTER INSERT ON recall_passages
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_keep('TRUE');
CREATE TRIGGER recall_passages_search_stats_update AFTER UPDATE ON recall_passages
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_keep('TRUE');
CREATE TRIGGER recall_passages_search_stats_delete AFTER DELETE ON recall_passages
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_keep('TRUE');

-- The figures of the rows stored before this migration.
INSERT INTO search_counts (owner, source, slot, n)
    SELECT owner, 'documents', 0, COUNT(*) FROM documents WHERE deleted_at IS NULL GROUP BY owner
    UNION ALL SELECT owner, 'passages', 0, COUNT(*) FROM passages GROUP BY owner
    UNION ALL SELECT owner, 'recall_passages', 0, COUNT(*) FROM recall_passages GROUP BY owner;
INSERT INTO search_terms (owner, source, term, slot, df)
    SELECT owner, 'documents', term, 0, COUNT(*)
    FROM documents, unnest(tsvector_to_array(search_vector)) AS t(term)
    WHERE deleted_at IS NULL AND search_vector IS NOT NULL GROUP BY owner, term
    UNION ALL SELECT owner, 'passages', term, 0, COUNT(*)
    FROM passages, unnest(tsvector_to_array(search_vector)) AS t(term)
    WHERE search_vector IS NOT NULL GROUP BY owner, term
    UNION ALL SELECT owner, 'recall_passages', term, 0, COUNT(*)
    FROM recall_passages, unnest(tsvector_to_array(search_vector)) AS t(term)
    WHERE search_vector IS NOT NULL GROUP BY owner, term;
