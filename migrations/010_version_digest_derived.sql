-- A version's sha256 is derived from its body when asked (doctree.store.model.Version
-- .content_sha256) instead of stored in every row: the 32 bytes were a fifth of a version's
-- row (at 2,000 notes and 5,000 edits, ~35 of the ~690 bytes a version cost). It stays
-- stored for a version whose content was erased (`body_data` NULL), whose body can no
-- longer give it. The rows of a database written before keep their place; the bytes they
-- free inside their pages are used by later writes (or given back by a VACUUM).
UPDATE document_versions SET content_sha256 = NULL WHERE body_data IS NOT NULL;
