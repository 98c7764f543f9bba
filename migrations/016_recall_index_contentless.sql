-- The recall index keeps no copy of the recall record: `recall_fts` becomes contentless
-- (content=''), its terms alone. A passage's text is in `recall_passages`; its date tokens
-- are kept in `recall_passages.dates`; its surroundings (the first words of the records
-- before and after it in its session) are derived from the rows when its entry is taken out
-- of the index (`doctree.store.recall.surroundings`), with `recall_passages.around` saying
-- which of the two it holds (1 the record before, 2 the one after, 3 both). A record is a
-- run of rows of one record key whose pieces rise; its first words are those of its pieces
-- joined (`doctree_recall_clip`, registered by `doctree.store.db.register_functions`).
-- The owner column stays indexed (BM25 counts a row's length over every column).
ALTER TABLE recall_passages ADD COLUMN dates TEXT NOT NULL DEFAULT '';
ALTER TABLE recall_passages ADD COLUMN around INTEGER NOT NULL DEFAULT 0;

-- Each row's record (`run`, counted within its session in stored order).
CREATE TEMP TABLE recall_runs AS
    SELECT id, owner, session_id,
        SUM(starts) OVER (PARTITION BY owner, session_id ORDER BY id ROWS UNBOUNDED PRECEDING) AS run
    FROM (
        SELECT id, owner, session_id,
            CASE WHEN LAG(record) OVER w = record AND LAG(piece) OVER w < piece THEN 0 ELSE 1 END
                AS starts
        FROM recall_passages
        WINDOW w AS (PARTITION BY owner, session_id ORDER BY id)
    );
CREATE INDEX temp.idx_recall_runs ON recall_runs(id);

-- The first words of each record, and of the records before and after it.
CREATE TEMP TABLE recall_clips AS
    SELECT r.owner, r.session_id, r.run, doctree_recall_clip(p.id, p.text) AS clip
    FROM recall_runs r JOIN recall_passages p ON p.id = r.id
    GROUP BY r.owner, r.session_id, r.run;
CREATE TEMP TABLE recall_around AS
    SELECT owner, session_id, run, LAG(clip) OVER w AS before, LEAD(clip) OVER w AS after
    FROM recall_clips
    WINDOW w AS (PARTITION BY owner, session_id ORDER BY run);
CREATE INDEX temp.idx_recall_around ON recall_around(owner, session_id, run);

-- A passage keeps its dates, and holds in its surroundings the records next to it that its
-- entry was made with: the same terms as before. An entry whose surroundings are not those
-- (rewritten by an erasure) is made again from both records next to it.
CREATE TEMP TABLE recall_kept AS
    SELECT p.id, COALESCE(f.dates, '') AS dates,
        CASE
            WHEN COALESCE(f.surroundings, '') = '' THEN 0
            WHEN x.before IS NOT NULL AND f.surroundings = x.before THEN 1
            WHEN x.after IS NOT NULL AND f.surroundings = x.after THEN 2
            WHEN f.surroundings = x.before || ' ' || x.after THEN 3
            ELSE (x.before IS NOT NULL) | ((x.after IS NOT NULL) << 1)
        END AS around
    FROM recall_passages p
    JOIN recall_runs r ON r.id = p.id
    JOIN recall_around x ON x.owner = r.owner AND x.session_id = r.session_id AND x.run = r.run
    LEFT JOIN recall_fts f ON f.rowid = p.id;
UPDATE recall_passages SET dates = k.dates, around = k.around
    FROM recall_kept k WHERE k.id = recall_passages.id;

CREATE VIRTUAL TABLE recall_fts_terms USING fts5(
    owner,                                        -- lets a match stay inside one owner's passages
    text,                                         -- the passage itself
    surroundings,                                 -- the records around it in its session
    speaker,                                      -- who said it
    dates,                                        -- normalised date tokens (d20230508 m202305 y2023)
    content = '',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO recall_fts_terms (rowid, owner, text, surroundings, speaker, dates)
    SELECT id, owner, text,
        CASE WHEN b <> '' AND a <> '' THEN b || ' ' || a ELSE b || a END,
        speaker, dates
    FROM (
        SELECT p.id, p.owner, p.text, p.speaker, p.dates,
            CASE WHEN p.around & 1 THEN COALESCE(x.before, '') ELSE '' END AS b,
            CASE WHEN p.around & 2 THEN COALESCE(x.after, '') ELSE '' END AS a
        FROM recall_passages p
        JOIN recall_runs r ON r.id = p.id
        JOIN recall_around x ON x.owner = r.owner AND x.session_id = r.session_id AND x.run = r.run
    )
    ORDER BY id;
DROP TABLE recall_fts;
ALTER TABLE recall_fts_terms RENAME TO recall_fts;

DROP TABLE temp.recall_kept;
DROP TABLE temp.recall_around;
DROP TABLE temp.recall_clips;
DROP TABLE temp.recall_runs;
