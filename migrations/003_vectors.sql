-- Vectors: what each passage means, as an embedder reads it, for retrieval by meaning beside
-- BM25 (docs/retrieval.md). One row per passage of the pages (`passage_vectors`) and of the
-- recall record (`recall_vectors`), keyed by the passage's id: a passage deleted or whose
-- text changes (forget, redact, any rewrite) loses its vector in the same statement, by the
-- triggers below, and waits in `vector_pending` until the index next catches up and embeds
-- its new text. `vector_models` records which model and dimension the vectors of each
-- index come from: vectors of another model are dropped and made again.
--
-- A vector is stored as its scale (float32) followed by its components as int8 (see
-- doctree/store/vectors.py), a quarter of a float32 vector's size.

CREATE TABLE vector_models (
    kind TEXT PRIMARY KEY,                        -- 'passages' or 'recall'
    model TEXT NOT NULL,                          -- the embedder's name ('' before any)
    dimension INTEGER NOT NULL,
    generation INTEGER NOT NULL                   -- grows with every change of the vectors
);
-- Generations start at random, so that a database made anew at the same place never
-- repeats one that a reader holds in memory.
INSERT INTO vector_models (kind, model, dimension, generation)
    VALUES ('passages', '', 0, abs(random() % 1000000000000)),
           ('recall', '', 0, abs(random() % 1000000000000));

CREATE TABLE passage_vectors (
    owner TEXT NOT NULL,
    passage_id INTEGER NOT NULL,                  -- passages.id
    vector BLOB NOT NULL,
    PRIMARY KEY (owner, passage_id)
) WITHOUT ROWID;

CREATE TABLE recall_vectors (
    owner TEXT NOT NULL,
    passage_id INTEGER NOT NULL,                  -- recall_passages.id
    vector BLOB NOT NULL,
    PRIMARY KEY (owner, passage_id)
) WITHOUT ROWID;

-- Passages whose vector is to be made: new ones, and those whose text changed.
CREATE TABLE vector_pending (
    kind TEXT NOT NULL,
    owner TEXT NOT NULL,
    passage_id INTEGER NOT NULL,
    PRIMARY KEY (kind, owner, passage_id)
) WITHOUT ROWID;
INSERT INTO vector_pending (kind, owner, passage_id) SELECT 'passages', owner, id FROM passages;
INSERT INTO vector_pending (kind, owner, passage_id)
    SELECT 'recall', owner, id FROM recall_passages;

CREATE TRIGGER passage_vectors_on_insert AFTER INSERT ON passages
BEGIN
    INSERT OR IGNORE INTO vector_pending (kind, owner, passage_id)
        VALUES ('passages', NEW.owner, NEW.id);
END;
CREATE TRIGGER passage_vectors_on_update AFTER UPDATE OF text, owner ON passages
BEGIN
    DELETE FROM passage_vectors WHERE owner = OLD.owner AND passage_id = OLD.id;
    DELETE FROM vector_pending WHERE kind = 'passages' AND owner = OLD.owner AND passage_id = OLD.id;
    INSERT OR IGNORE INTO vector_pending (kind, owner, passage_id)
        VALUES ('passages', NEW.owner, NEW.id);
END;
CREATE TRIGGER passage_vectors_on_delete AFTER DELETE ON passages
BEGIN
    DELETE FROM passage_vectors WHERE owner = OLD.owner AND passage_id = OLD.id;
    DELETE FROM vector_pending WHERE kind = 'passages' AND owner = OLD.owner AND passage_id = OLD.id;
END;

CREATE TRIGGER recall_vectors_on_insert AFTER INSERT ON recall_passages
BEGIN
    INSERT OR IGNORE INTO vector_pending (kind, owner, passage_id)
        VALUES ('recall', NEW.owner, NEW.id);
END;
CREATE TRIGGER recall_vectors_on_update AFTER UPDATE OF text, owner ON recall_passages
BEGIN
    DELETE FROM recall_vectors WHERE owner = OLD.owner AND passage_id = OLD.id;
    DELETE FROM vector_pending WHERE kind = 'recall' AND owner = OLD.owner AND passage_id = OLD.id;
    INSERT OR IGNORE INTO vector_pending (kind, owner, passage_id)
        VALUES ('recall', NEW.owner, NEW.id);
END;
CREATE TRIGGER recall_vectors_on_delete AFTER DELETE ON recall_passages
BEGIN
    DELETE FROM recall_vectors WHERE owner = OLD.owner AND passage_id = OLD.id;
    DELETE FROM vector_pending WHERE kind = 'recall' AND owner = OLD.owner AND passage_id = OLD.id;
END;

-- Readers keep the vectors of an owner in memory while `generation` is unchanged.
CREATE TRIGGER passage_vectors_generation_insert AFTER INSERT ON passage_vectors
BEGIN
    UPDATE vector_models SET generation = generation + 1 WHERE kind = 'passages';
END;
CREATE TRIGGER passage_vectors_generation_delete AFTER DELETE ON passage_vectors
BEGIN
    UPDATE vector_models SET generation = generation + 1 WHERE kind = 'passages';
END;
CREATE TRIGGER recall_vectors_generation_insert AFTER INSERT ON recall_vectors
BEGIN
    UPDATE vector_models SET generation = generation + 1 WHERE kind = 'recall';
END;
CREATE TRIGGER recall_vectors_generation_delete AFTER DELETE ON recall_vectors
BEGIN
    UPDATE vector_models SET generation = generation + 1 WHERE kind = 'recall';
END;
