-- The passage index in two: `passages_fts` keeps a passage's text, speaker and dates with
-- each entry's length (BM25's length normalisation), and `passages_surroundings_fts` keeps
-- its surroundings (the document's title, its headings, its neighbours' first words)
-- without lengths (`columnsize=0`: no `_docsize` table, no lookup per match). Most of a
-- search's matches are in the surroundings alone, and reading each match's length was most
-- of what a search paid (docs/performance.md). Both have the same columns, so that one
-- expression, column filters and all, can be asked of either; each leaves empty and
-- unindexed the columns the other holds (the surroundings table has one indexed column:
-- BM25 then reads every entry's length as -1, which the search makes up for). Both keep terms only (content=''): an entry is taken out with
-- the values it was made from, derived again from `passages` and `passage_sources.title`.
-- The entries are made again from the rows, as the code that made them derives them
-- (`doctree_passage_text`, `doctree_passage_surroundings`, registered by
-- `doctree.store.db.register_functions`): the same terms as before, split.
CREATE VIRTUAL TABLE passages_fts_text USING fts5(
    owner,                                        -- lets a match stay inside one owner's passages
    text,                                         -- the passage itself
    surroundings UNINDEXED,                       -- empty: in passages_surroundings_fts
    speaker,                                      -- the speaker's name
    dates,                                        -- normalised date tokens (d20230508 m202305 y2023)
    content = '',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO passages_fts_text (rowid, owner, text, surroundings, speaker, dates)
    SELECT id, owner, doctree_passage_text(text), '', COALESCE(speaker, ''), dates
    FROM passages ORDER BY id;
DROP TABLE passages_fts;
ALTER TABLE passages_fts_text RENAME TO passages_fts;

CREATE VIRTUAL TABLE passages_surroundings_fts USING fts5(
    owner UNINDEXED,                              -- empty: in passages_fts
    text UNINDEXED,                               -- empty
    surroundings,                                 -- its neighbours and headings
    speaker UNINDEXED,                            -- empty
    dates UNINDEXED,                              -- empty
    content = '',
    columnsize = 0,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO passages_surroundings_fts (rowid, owner, text, surroundings, speaker, dates)
    SELECT id, '', '', around, '', '' FROM (
        SELECT p.id,
            doctree_passage_surroundings(
                COALESCE(s.title, ''), p.heading,
                LAG(p.text) OVER w, LEAD(p.text) OVER w
            ) AS around
        FROM passages p LEFT JOIN passage_sources s ON s.document_id = p.document_id
        WINDOW w AS (PARTITION BY p.document_id ORDER BY p.seq)
    )
    ORDER BY id;
