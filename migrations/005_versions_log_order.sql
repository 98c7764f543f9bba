-- The change log of one owner, newest first (`log`, and `load_memories` reading the most
-- recently changed documents a page at a time) without sorting every version of the owner.
CREATE INDEX idx_versions_owner_id ON document_versions(owner, id);
