-- Passages wait in `vector_pending` only once retrieval by meaning has been asked for in the
-- database (an embedder adopted in `vector_models`). Before that, nothing reads the queue:
-- adopting a model empties it and puts every passage of the index in it (doctree.store.
-- vectors.VectorIndex.adopt), so a row per passage written before then was bytes and a
-- write for nothing (at 100k short notes, 2.6 MB and a B-tree insert per passage).
DROP TRIGGER passage_vectors_on_insert;
CREATE TRIGGER passage_vectors_on_insert AFTER INSERT ON passages
    WHEN (SELECT model FROM vector_models WHERE kind = 'passages') <> ''
BEGIN
    INSERT OR IGNORE INTO vector_pending (kind, owner, passage_id)
        VALUES ('passages', NEW.owner, NEW.id);
END;
DROP TRIGGER passage_vectors_on_update;
CREATE TRIGGER passage_vectors_on_update AFTER UPDATE OF text, owner ON passages
BEGIN
    DELETE FROM passage_vectors WHERE owner = OLD.owner AND passage_id = OLD.id;
    DELETE FROM vector_pending WHERE kind = 'passages' AND owner = OLD.owner AND passage_id = OLD.id;
    INSERT OR IGNORE INTO vector_pending (kind, owner, passage_id)
        SELECT 'passages', NEW.owner, NEW.id
        WHERE (SELECT model FROM vector_models WHERE kind = 'passages') <> '';
END;

DROP TRIGGER recall_vectors_on_insert;
CREATE TRIGGER recall_vectors_on_insert AFTER INSERT ON recall_passages
    WHEN (SELECT model FROM vector_models WHERE kind = 'recall') <> ''
BEGIN
    INSERT OR IGNORE INTO vector_pending (kind, owner, passage_id)
        VALUES ('recall', NEW.owner, NEW.id);
END;
DROP TRIGGER recall_vectors_on_update;
CREATE TRIGGER recall_vectors_on_update AFTER UPDATE OF text, owner ON recall_passages
BEGIN
    DELETE FROM recall_vectors WHERE owner = OLD.owner AND passage_id = OLD.id;
    DELETE FROM vector_pending WHERE kind = 'recall' AND owner = OLD.owner AND passage_id = OLD.id;
    INSERT OR IGNORE INTO vector_pending (kind, owner, passage_id)
        SELECT 'recall', NEW.owner, NEW.id
        WHERE (SELECT model FROM vector_models WHERE kind = 'recall') <> '';
END;

DELETE FROM vector_pending WHERE kind IN (SELECT kind FROM vector_models WHERE model = '');

-- Deleted documents are found by (owner, path) through an index of their own (restore,
-- history of a path, a reference to a deleted target); the live ones through
-- idx_documents_live_path. An index of every document on (owner, path) held each live path a
-- second time.
DROP INDEX idx_documents_owner_path;
CREATE INDEX idx_documents_deleted_path ON documents(owner, path) WHERE deleted_at IS NOT NULL;
-- No query reads passage_sources by owner (it is read by document id).
DROP INDEX idx_passage_sources_owner;
