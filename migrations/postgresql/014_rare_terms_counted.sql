-- A term that at most two live rows hold keeps no row in `search_terms`: a search counts
-- its rows through the GIN index (`doctree/store/backends/postgres.py`, `_idf_sql`), which
-- costs the reading of its few matches. Most distinct terms are such: a name, a number, a
-- path's last part, said once or twice. At 50,000 short notes they were three quarters of
-- the table's 200,000 rows, and 23 MB with its index, an eighth of the database.
--
-- So: while a term has rows, their sum is the number of live rows that hold it, as before.
-- While it has none, no figure is kept and the GIN index holds the truth. When a COMMIT
-- adds rows holding a term without rows, it counts the live rows that hold it (its own
-- included); past two, that count becomes the term's first row. A term whose figure falls
-- to two or fewer keeps its rows until it falls to zero (as before): a search reads the
-- same number either way.
--
-- A count must see every row whose change is applied to the figures, and no other: so the
-- COMMITs apply their changes one at a time, under a lock of their own (taken first, held
-- to the end of the COMMIT), each statement of one seeing every COMMIT applied before it.
-- A change not yet committed is applied by its own COMMIT, after. A COMMIT holds the lock
-- for the time its changes take (a transaction's open time is not in it); the store's
-- writers are serialised by their write lock already.

-- The query of one lexeme as it is (quoted: no dictionary is applied to it).
CREATE FUNCTION search_stats_lexeme(p_term TEXT) RETURNS tsquery
LANGUAGE sql IMMUTABLE STRICT AS $fn$
    SELECT ('''' || replace(replace(p_term, '\', '\\'), '''', '''''') || '''')::tsquery
$fn$;

-- Of the lexemes `terms`, how many live rows of `source` of `owner` hold each: for each, a
-- reading of the GIN index and of the rows it finds. The terms are ones without rows, so
-- few rows hold each (two, and those the COMMIT adds). The rows are found by the term
-- alone (OFFSET 0 keeps the owner's condition out of the subquery): a table without
-- statistics yet (the first COMMIT to a new database) was otherwise read whole for each
-- term, through the owner's B-tree index. (A single query of all the terms, OR'd, took six
-- times as long: the index checks each match against the whole query.)
CREATE FUNCTION search_stats_rows(p_owner TEXT, p_source TEXT, p_terms TEXT[])
RETURNS TABLE (term TEXT, n BIGINT) LANGUAGE plpgsql STABLE SET jit = off AS $fn$
BEGIN
    RETURN QUERY EXECUTE format(
        'SELECT u.term, (SELECT count(*) FROM (SELECT * FROM %I x'
        '  WHERE x.search_vector @@ search_stats_lexeme(u.term) OFFSET 0) x'
        '  WHERE x.owner = $1 AND %s) FROM unnest($2) AS u(term)',
        p_source, CASE WHEN p_source = 'documents' THEN 'x.deleted_at IS NULL' ELSE 'TRUE' END)
        USING p_owner, p_terms;
END
$fn$;

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
        DELETE FROM search_deltas WHERE txid = NEW.txid RETURNING owner, source, sign, v),
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

-- The rows of the terms two or fewer live rows hold go.
DELETE FROM search_terms s USING (
    SELECT owner, source, term FROM search_terms GROUP BY 1, 2, 3 HAVING SUM(df) <= 2) r
WHERE s.owner = r.owner AND s.source = r.source AND s.term = r.term;
