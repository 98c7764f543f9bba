-- A body's sha256 is stored as its 32 bytes (BYTEA) instead of 64 hex characters: half the
-- bytes, in every version and every document. The API, the CLI, JSON and the docs still show
-- it as hex (doctree.store.model.sha256; the store reads it back with `.hex()`). The column
-- is added anew, last, as SQLite's migration does, so both backends keep one column order.
ALTER TABLE documents ADD COLUMN sha256_bytes BYTEA;
UPDATE documents SET sha256_bytes = decode(content_sha256, 'hex');
ALTER TABLE documents DROP COLUMN content_sha256;
ALTER TABLE documents RENAME COLUMN sha256_bytes TO content_sha256;
ALTER TABLE documents ALTER COLUMN content_sha256 SET NOT NULL;

ALTER TABLE document_versions ADD COLUMN sha256_bytes BYTEA;
UPDATE document_versions SET sha256_bytes = decode(content_sha256, 'hex');
ALTER TABLE document_versions DROP COLUMN content_sha256;
ALTER TABLE document_versions RENAME COLUMN sha256_bytes TO content_sha256;
ALTER TABLE document_versions ALTER COLUMN content_sha256 SET NOT NULL;

-- An owner's change log (`log`, and `load_memories` reading the most recently changed
-- documents) is read newest first by time; an index on (owner, created_at, id) gives that
-- order, and replaces the two on (owner, created_at) and (owner, id).
DROP INDEX idx_versions_owner_id;
DROP INDEX idx_versions_owner_time;
CREATE INDEX idx_versions_owner_time ON document_versions(owner, created_at, id);

-- A version is stored as a delta against the version after it (doctree.store.encoding:
-- the newest text whole, in documents.body_data, older ones as deltas from it, a full copy
-- for the last version of each block of 32). The store gives the superseded current version
-- its value as it writes the next one; the trigger that gave it a full copy goes. Values
-- stored before stay as they are: the older kind is read as before.
DROP TRIGGER documents_version_kept ON documents;
DROP FUNCTION doctree_version_kept();
