-- Compact storage of versions (see doctree/store/encoding.py), and a full-text index that
-- reads its text from `documents` instead of holding a copy of every current body.
--
-- `body_data` holds each version's body encoded: a compressed full copy, or a delta against
-- the version before it. Existing bodies are converted after this file by the data step of
-- this migration (`doctree.store.compact.convert`), in batches that each commit, so an
-- interrupted conversion resumes where it stopped; its last batch drops the plain `body`.
ALTER TABLE document_versions ADD COLUMN body_data BLOB;

-- The same index over the same rows (live documents), now external content: FTS5 reads
-- path, title and body from `documents` by id, and the store tells it the old values on
-- every change. Rebuilt here from the live documents, so rankings are those of before.
DROP TABLE documents_fts;
CREATE VIRTUAL TABLE documents_fts USING fts5(
    path, title, body,
    content = 'documents', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO documents_fts (documents_fts, rank) VALUES ('rank', 'bm25(2.0, 4.0, 1.0)');
INSERT INTO documents_fts (rowid, path, title, body)
    SELECT id, path, title, body FROM documents WHERE deleted_at IS NULL ORDER BY id;
