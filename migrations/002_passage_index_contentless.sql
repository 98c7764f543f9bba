-- The passage index keeps no copy of the passages: `passages_fts` becomes contentless
-- (content=''), its terms alone. A passage's text is in `passages`; its surroundings (the
-- document's title, the passage's headings, the first words of its neighbours) are derived
-- from `passages` and `passage_sources.title` when its entry is taken out of the index
-- (`doctree.store.passages.surroundings_of`); its date tokens are kept in `passages.dates`.
-- The owner column stays indexed (BM25 counts a row's length over every column).
ALTER TABLE passages ADD COLUMN dates TEXT NOT NULL DEFAULT '';
ALTER TABLE passage_sources ADD COLUMN title TEXT NOT NULL DEFAULT '';

-- Documents the index has not caught up with lose their passages: they are cut again at
-- the next catch-up, with their title recorded. The others were cut from their current
-- version, path and title (any change since would have made them pending).
DELETE FROM passages WHERE document_id IN (SELECT document_id FROM passage_pending);
DELETE FROM passage_sources WHERE document_id IN (SELECT document_id FROM passage_pending);
UPDATE passage_sources SET title = COALESCE(
    (SELECT d.title FROM documents d WHERE d.id = passage_sources.document_id), '');
UPDATE passages SET dates = COALESCE(
    (SELECT f.dates FROM passages_fts f WHERE f.rowid = passages.id), '');

CREATE VIRTUAL TABLE passages_fts_terms USING fts5(
    owner,                                        -- lets a match stay inside one owner's passages
    text,                                         -- the passage itself
    surroundings,                                 -- its neighbours and headings
    speaker,                                      -- the speaker's name
    dates,                                        -- normalised date tokens (d20230508 m202305 y2023)
    content = '',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO passages_fts_terms (rowid, owner, text, surroundings, speaker, dates)
    SELECT f.rowid, f.owner, f.text, f.surroundings, f.speaker, f.dates
    FROM passages_fts f JOIN passages p ON p.id = f.rowid ORDER BY f.rowid;
DROP TABLE passages_fts;
ALTER TABLE passages_fts_terms RENAME TO passages_fts;

-- No query reads passages by owner and path; the speakers of an owner are read from the
-- passages that have one.
DROP INDEX idx_passages_owner_path;
DROP INDEX idx_passages_owner_speaker;
CREATE INDEX idx_passages_owner_speaker ON passages(owner, speaker) WHERE speaker IS NOT NULL;
