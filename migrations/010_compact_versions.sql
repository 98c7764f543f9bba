-- Compact storage of bodies (see doctree/store/encoding.py), and a full-text index that
-- reads its text from the store instead of holding a copy of every current body.
--
-- `body_data` holds a body encoded: in `documents` a compressed full copy of the current
-- body, in `document_versions` a compressed full copy or a delta against the version before.
-- Existing bodies are converted after this file by the data step of this migration
-- (`doctree.store.compact.convert`), in batches that each commit, so an interrupted
-- conversion resumes on the next open; its last batch drops the plain `body` columns.
ALTER TABLE documents ADD COLUMN body_data BLOB;
ALTER TABLE document_versions ADD COLUMN body_data BLOB;

-- The text of every document as the full-text index reads it: `doctree_body` (registered
-- on every connection by doctree.store.db.connect) decodes `body_data`.
CREATE VIEW documents_text AS
    SELECT id, path, title, doctree_body(body_data) AS body FROM documents;

-- The same index over the same rows (live documents), now with external content: FTS5
-- reads path, title and body from `documents_text` by id (for snippets), and the store
-- tells it the old values on every change. Built here from the live documents, so rankings
-- are those of before.
DROP TABLE documents_fts;
CREATE VIRTUAL TABLE documents_fts USING fts5(
    path, title, body,
    content = 'documents_text', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO documents_fts (documents_fts, rank) VALUES ('rank', 'bm25(2.0, 4.0, 1.0)');
INSERT INTO documents_fts (rowid, path, title, body)
    SELECT id, path, title, body FROM documents WHERE deleted_at IS NULL ORDER BY id;
