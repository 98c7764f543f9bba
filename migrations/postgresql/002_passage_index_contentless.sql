-- As the SQLite migration of the same number: each passage keeps its date tokens and its
-- document's title at the cut (the SQLite index derives what it takes out from them; here
-- the index is the row's tsvector, and the columns keep the two schemas alike).
ALTER TABLE passages ADD COLUMN dates TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE passage_sources ADD COLUMN title TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE passage_sources s SET title = d.title FROM documents d WHERE d.id = s.document_id;

-- The same indexes as SQLite's: no query reads passages by owner and path (a search
-- checks them on the rows it matched), and the speakers of an owner are read from the
-- passages that have one.
DROP INDEX idx_passages_owner_path;
DROP INDEX idx_passages_owner_speaker;
CREATE INDEX idx_passages_owner_speaker ON passages(owner, speaker) WHERE speaker IS NOT NULL;
