-- A version whose content was erased keeps nothing of it: its digest (which would confirm a
-- guess of a short content, a PIN, to anyone who can read the history) and its size become
-- those of the empty body it now has. No version stores a digest any more (each is derived
-- from its body, doctree.store.model.Version.content_sha256), so the column goes. The digests
-- are set to NULL first: a dropped column's values stay in the rows until they are rewritten,
-- while the row versions an UPDATE leaves behind are reclaimed by VACUUM.
UPDATE document_versions SET size = 0, content_sha256 = NULL
WHERE body_data IS NULL AND redacted_at IS NOT NULL;
ALTER TABLE document_versions DROP COLUMN content_sha256;
