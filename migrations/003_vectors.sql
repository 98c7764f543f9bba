-- Vectors: what each passage means, as an embedder reads it, for retrieval by meaning beside
-- BM25 (docs/retrieval.md). One row per passage of the pages (`passage_vectors`) and of the
-- recall record (`recall_vectors`), keyed by the passage's id: a passage deleted or whose
-- text changes (forget, redact, any rewrite) loses its vector in the same statement, by the
-- triggers below, and waits in `vector_pending` until the index next catches up and embeds
-- its new text. `vector_models` records which model and dimension the vectors of each
-- index come from (none until retrieval by meaning is first asked for): vectors of another
-- model are dropped and made again.
--
-- A vector is stored as its scale (float32) followed by its components as int8 (see
-- doctree/store/vectors.py), a quarter of a float32 vector's size.

CREATE TABLE vector_models (
    kind TEXT PRIMARY KEY,                        -- 'passages' or 'recall'
    model TEXT NOT NULL,                          -- the embedder's name ('' before any)
    dimension INTEGER NOT NULL
);
INSERT INTO vector_models (kind, model, dimension) VALUES ('passages', '', 0), ('recall', '', 0);

-- Readers keep an owner's vectors in memory while its generation is unchanged: it grows with
-- every vector of the owner stored or deleted (the triggers at the end). A generation
-- starts at random, so that a database made anew at the same place never repeats one that
-- a reader holds in memory.
CREATE TABLE vector_generations (
    kind TEXT NOT NULL,
    owner TEXT NOT NULL,
    generation INTEGER NOT NULL,
    PRIMARY KEY (kind, owner)
) WITHOUT ROWID;

CREATE TABLE passage_vectors (
    owner TEXT NOT NULL,
    passage_id INTEGER NOT NULL,                  -- passages.id
    vector BLOB NOT NULL,
    stamp INTEGER NOT NULL,                       -- the owner's generation when stored
    PRIMARY KEY (owner, passage_id)
) WITHOUT ROWID;

CREATE TABLE recall_vectors (
    owner TEXT NOT NULL,
    passage_id INTEGER NOT NULL,                  -- recall_passages.id
    vector BLOB NOT NULL,
    stamp INTEGER NOT NULL,                       -- the owner's generation when stored
    PRIMARY KEY (owner, passage_id)
) WITHOUT ROWID;

-- Passages whose vector is to be made: new ones, and those whose text changed.
-- What a reader holding an owner's vectors reads to catch up: the rows stored since.
CREATE INDEX idx_passage_vectors_stamp ON passage_vectors(owner, stamp);
CREATE INDEX idx_recall_vectors_stamp ON recall_vectors(owner, stamp);

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

-- Every vector stored or deleted moves its owner's generation.
CREATE TRIGGER passage_vectors_generation_insert AFTER INSERT ON passage_vectors
BEGIN
    INSERT INTO vector_generations (kind, owner, generation)
        VALUES ('passages', NEW.owner, abs(random() % 1000000000000))
        ON CONFLICT (kind, owner) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER passage_vectors_generation_delete AFTER DELETE ON passage_vectors
BEGIN
    UPDATE vector_generations SET generation = generation + 1
        WHERE kind = 'passages' AND owner = OLD.owner;
END;
CREATE TRIGGER recall_vectors_generation_insert AFTER INSERT ON recall_vectors
BEGIN
    INSERT INTO vector_generations (kind, owner, generation)
        VALUES ('recall', NEW.owner, abs(random() % 1000000000000))
        ON CONFLICT (kind, owner) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER recall_vectors_generation_delete AFTER DELETE ON recall_vectors
BEGIN
    UPDATE vector_generations SET generation = generation + 1
        WHERE kind = 'recall' AND owner = OLD.owner;
END;
