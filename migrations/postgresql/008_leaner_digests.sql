-- A body's sha256 is stored as its 32 bytes (BYTEA) instead of 64 hex characters: half the
-- bytes, in every version and every document. The API, the CLI, JSON and the docs still show
-- it as hex (doctree.store.model.sha256; the store reads it back with `.hex()`).
ALTER TABLE documents
    ALTER COLUMN content_sha256 TYPE BYTEA USING decode(content_sha256, 'hex');
ALTER TABLE document_versions
    ALTER COLUMN content_sha256 TYPE BYTEA USING decode(content_sha256, 'hex');
