-- A body's sha256 is stored as its 32 bytes (a BLOB) instead of 64 hex characters: half the
-- bytes, in every version and every document (at 2,000 notes and 5,000 edits, 41 of the 895
-- bytes each version cost). The API, the CLI, JSON and the docs still show it as hex
-- (doctree.store.model.sha256; the store reads it back with `.hex()`). `doctree_unhex` is
-- registered on every connection by doctree.store.db.register_functions.
ALTER TABLE documents ADD COLUMN sha256_bytes BLOB;
UPDATE documents SET sha256_bytes = doctree_unhex(content_sha256);
ALTER TABLE documents DROP COLUMN content_sha256;
ALTER TABLE documents RENAME COLUMN sha256_bytes TO content_sha256;

ALTER TABLE document_versions ADD COLUMN sha256_bytes BLOB;
UPDATE document_versions SET sha256_bytes = doctree_unhex(content_sha256);
ALTER TABLE document_versions DROP COLUMN content_sha256;
ALTER TABLE document_versions RENAME COLUMN sha256_bytes TO content_sha256;
