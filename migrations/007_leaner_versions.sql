-- A version stored in full while it is the document's current one holds no copy of the
-- body: its value is empty (doctree.store.encoding.CURRENT) and stands for
-- documents.body_data, which holds that body already. When a later version is written, this
-- trigger gives the row the full copy the document held until then, in the same statement,
-- so only the current version ever stands for the document's body. (At 10,000 short notes
-- written once, the versions' bodies were half the bytes of the versions table.)
CREATE TRIGGER documents_version_kept AFTER UPDATE OF version ON documents
    WHEN NEW.version <> OLD.version
BEGIN
    UPDATE document_versions SET body_data = OLD.body_data
        WHERE document_id = OLD.id AND version = OLD.version AND length(body_data) = 0;
END;
-- The current versions of the documents that are full copies of their bodies.
UPDATE document_versions SET body_data = X''
    WHERE length(body_data) > 0 AND EXISTS (
        SELECT 1 FROM documents d WHERE d.id = document_versions.document_id
            AND d.version = document_versions.version AND d.body_data = document_versions.body_data);

-- read(at=) finds the document that was at a path at a time. A document's path changes only
-- with its `created` and `moved` versions (every other version keeps the path of the one
-- before it), so an index of those versions finds every document that was ever at a path;
-- the version in force at the time is then read by (document_id, version). The index of
-- every version held one entry per edit (at 2,000 notes and 5,000 edits, 69 of the 1,070
-- bytes each version cost).
DROP INDEX idx_versions_path_time;
CREATE INDEX idx_versions_path_time ON document_versions(owner, path, created_at)
    WHERE operation IN ('created', 'moved');
