-- `show` of a tree reads every live document under a path in path order: id, title, version,
-- size and update time. A covering index holds exactly those, so the tree is read from the
-- index alone, in order, instead of one table lookup per document (whose rows, with their
-- bodies, lie in the order they were written): the cost per document stays the same as the
-- tree grows.
CREATE INDEX idx_documents_tree
    ON documents(owner, path, id, title, version, size, updated_at)
    WHERE deleted_at IS NULL;
