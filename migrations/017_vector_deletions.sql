-- The vectors deleted since a generation, so that a reader holding an owner's vectors in
-- memory (doctree/store/vectors.py) drops those and reads only the rows stored since,
-- without listing every row of the owner. `vector_deletions` has one row per vector row
-- deleted (a rewrite of a document deletes its old passages' vectors): the generation the
-- deletion made (unique within an owner's index, as each deletion moves it) and the
-- passage's id, never its text. `VectorIndex.put` prunes the entries far behind the current
-- generation; `vector_deletion_floors` keeps the newest generation pruned: a reader whose
-- vectors are older than it lists every row instead. The floor of an owner whose vectors
-- were made before this migration is its current generation (no deletion before was kept).
CREATE TABLE vector_deletions (
    kind TEXT NOT NULL,                           -- 'passages' or 'recall'
    owner TEXT NOT NULL,
    generation INTEGER NOT NULL,                  -- the owner's generation after the deletion
    passage_id INTEGER NOT NULL,
    PRIMARY KEY (kind, owner, generation, passage_id)
) WITHOUT ROWID;

CREATE TABLE vector_deletion_floors (
    kind TEXT NOT NULL,
    owner TEXT NOT NULL,
    generation INTEGER NOT NULL,                  -- deletions up to it are no longer listed
    PRIMARY KEY (kind, owner)
) WITHOUT ROWID;
INSERT INTO vector_deletion_floors (kind, owner, generation)
    SELECT kind, owner, generation FROM vector_generations;

-- A vector deleted moves its owner's generation (as before), then is listed with it.
DROP TRIGGER passage_vectors_generation_delete;
CREATE TRIGGER passage_vectors_generation_delete AFTER DELETE ON passage_vectors
BEGIN
    UPDATE vector_generations SET generation = generation + 1
        WHERE kind = 'passages' AND owner = OLD.owner;
    INSERT INTO vector_deletions (kind, owner, generation, passage_id)
        SELECT 'passages', OLD.owner, generation, OLD.passage_id FROM vector_generations
        WHERE kind = 'passages' AND owner = OLD.owner;
END;
DROP TRIGGER recall_vectors_generation_delete;
CREATE TRIGGER recall_vectors_generation_delete AFTER DELETE ON recall_vectors
BEGIN
    UPDATE vector_generations SET generation = generation + 1
        WHERE kind = 'recall' AND owner = OLD.owner;
    INSERT INTO vector_deletions (kind, owner, generation, passage_id)
        SELECT 'recall', OLD.owner, generation, OLD.passage_id FROM vector_generations
        WHERE kind = 'recall' AND owner = OLD.owner;
END;
