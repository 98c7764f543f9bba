-- A version's sha256 is derived from its body when asked (doctree.store.model.Version
-- .content_sha256) instead of stored in every row: the 32 bytes were a fifth of a version's
-- row. It stays stored for a version whose content was erased (`body_data` NULL), whose
-- body can no longer give it.
ALTER TABLE document_versions ALTER COLUMN content_sha256 DROP NOT NULL;
UPDATE document_versions SET content_sha256 = NULL WHERE body_data IS NOT NULL;
