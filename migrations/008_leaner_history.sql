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

-- An owner's change log (`log`, and `load_memories` reading the most recently changed
-- documents) is read newest first by time from idx_versions_owner_time, in which each entry
-- is (owner, created_at, id): the index on (owner, id) gave the same order (versions are
-- written with the time of their transaction) and was read by nothing else.
DROP INDEX idx_versions_owner_id;

-- A version is stored as a delta against the version after it (doctree.store.encoding:
-- the newest text whole, in documents.body_data, older ones as deltas from it, a full copy
-- for the last version of each block of 32), so a note edited a few times keeps no full copy
-- of its first version (at 2,000 notes and 5,000 edits, 89 of the bytes each version cost).
-- The store gives the superseded current version its value as it writes the next one; the
-- trigger that gave it a full copy goes. Values stored before stay as they are: the older
-- kind (a delta against the version before) is read as before.
DROP TRIGGER documents_version_kept;
