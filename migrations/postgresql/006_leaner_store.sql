-- Passages wait in `vector_pending` only once retrieval by meaning has been asked for in the
-- database (an embedder adopted in `vector_models`). Before that, nothing reads the queue:
-- adopting a model empties it and puts every passage of the index in it (doctree.store.
-- vectors.VectorIndex.adopt), so a row per passage written before then was bytes and a
-- write for nothing. TG_ARGV[0] is the kind, TG_ARGV[1] the vector table.
CREATE OR REPLACE FUNCTION doctree_vector_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        EXECUTE format('DELETE FROM %I WHERE owner = $1 AND passage_id = $2', TG_ARGV[1])
            USING OLD.owner, OLD.id;
        DELETE FROM vector_pending
            WHERE kind = TG_ARGV[0] AND owner = OLD.owner AND passage_id = OLD.id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE')
        AND EXISTS (SELECT 1 FROM vector_models WHERE kind = TG_ARGV[0] AND model <> '') THEN
        INSERT INTO vector_pending (kind, owner, passage_id) VALUES (TG_ARGV[0], NEW.owner, NEW.id)
            ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END;
$$;

DELETE FROM vector_pending WHERE kind IN (SELECT kind FROM vector_models WHERE model = '');

-- Deleted documents are found by (owner, path) through an index of their own (restore,
-- history of a path, a reference to a deleted target); the live ones through
-- idx_documents_live_path. An index of every document on (owner, path) held each live path a
-- second time.
DROP INDEX idx_documents_owner_path;
CREATE INDEX idx_documents_deleted_path ON documents(owner, path) WHERE deleted_at IS NOT NULL;
-- No query reads passage_sources by owner (it is read by document id).
DROP INDEX idx_passage_sources_owner;
