-- Vectors, as the SQLite migration of the same number makes them (see it for what each
-- table holds): the vector is BYTEA (its scale as float32, then int8 components),
-- compared by the client, so no extension is needed (pgvector is not packaged for the
-- PostgreSQL 15 servers this project targets; see docs/retrieval.md).

CREATE TABLE vector_models (
    kind TEXT COLLATE "C" PRIMARY KEY,
    model TEXT COLLATE "C" NOT NULL,
    dimension INTEGER NOT NULL
);
INSERT INTO vector_models (kind, model, dimension) VALUES ('passages', '', 0), ('recall', '', 0);

CREATE TABLE vector_generations (
    kind TEXT COLLATE "C" NOT NULL,
    owner TEXT COLLATE "C" NOT NULL,
    generation BIGINT NOT NULL,                   -- starts at random (see the SQLite migration)
    PRIMARY KEY (kind, owner)
);

CREATE TABLE passage_vectors (
    owner TEXT COLLATE "C" NOT NULL,
    passage_id BIGINT NOT NULL,
    vector BYTEA NOT NULL,
    stamp BIGINT NOT NULL,
    PRIMARY KEY (owner, passage_id)
);

CREATE TABLE recall_vectors (
    owner TEXT COLLATE "C" NOT NULL,
    passage_id BIGINT NOT NULL,
    vector BYTEA NOT NULL,
    stamp BIGINT NOT NULL,
    PRIMARY KEY (owner, passage_id)
);

-- What a reader holding an owner's vectors reads to catch up: the rows stored since.
CREATE INDEX idx_passage_vectors_stamp ON passage_vectors(owner, stamp);
CREATE INDEX idx_recall_vectors_stamp ON recall_vectors(owner, stamp);

CREATE TABLE vector_pending (
    kind TEXT COLLATE "C" NOT NULL,
    owner TEXT COLLATE "C" NOT NULL,
    passage_id BIGINT NOT NULL,
    PRIMARY KEY (kind, owner, passage_id)
);
INSERT INTO vector_pending (kind, owner, passage_id) SELECT 'passages', owner, id FROM passages;
INSERT INTO vector_pending (kind, owner, passage_id)
    SELECT 'recall', owner, id FROM recall_passages;

-- A passage inserted, rewritten or deleted: its vector goes, and a new one is pending.
-- TG_ARGV[0] is the kind, TG_ARGV[1] the vector table.
CREATE FUNCTION doctree_vector_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        EXECUTE format('DELETE FROM %I WHERE owner = $1 AND passage_id = $2', TG_ARGV[1])
            USING OLD.owner, OLD.id;
        DELETE FROM vector_pending
            WHERE kind = TG_ARGV[0] AND owner = OLD.owner AND passage_id = OLD.id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO vector_pending (kind, owner, passage_id) VALUES (TG_ARGV[0], NEW.owner, NEW.id)
            ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER passage_vectors_on_insert AFTER INSERT ON passages
    FOR EACH ROW EXECUTE FUNCTION doctree_vector_pending('passages', 'passage_vectors');
CREATE TRIGGER passage_vectors_on_update AFTER UPDATE OF text, owner ON passages
    FOR EACH ROW EXECUTE FUNCTION doctree_vector_pending('passages', 'passage_vectors');
CREATE TRIGGER passage_vectors_on_delete AFTER DELETE ON passages
    FOR EACH ROW EXECUTE FUNCTION doctree_vector_pending('passages', 'passage_vectors');
CREATE TRIGGER recall_vectors_on_insert AFTER INSERT ON recall_passages
    FOR EACH ROW EXECUTE FUNCTION doctree_vector_pending('recall', 'recall_vectors');
CREATE TRIGGER recall_vectors_on_update AFTER UPDATE OF text, owner ON recall_passages
    FOR EACH ROW EXECUTE FUNCTION doctree_vector_pending('recall', 'recall_vectors');
CREATE TRIGGER recall_vectors_on_delete AFTER DELETE ON recall_passages
    FOR EACH ROW EXECUTE FUNCTION doctree_vector_pending('recall', 'recall_vectors');

-- Every vector stored or deleted moves its owner's generation. TG_ARGV[0] is the kind.
CREATE FUNCTION doctree_vector_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO vector_generations (kind, owner, generation)
            VALUES (TG_ARGV[0], NEW.owner, (random() * 1e12)::bigint)
            ON CONFLICT (kind, owner)
            DO UPDATE SET generation = vector_generations.generation + 1;
    ELSE
        UPDATE vector_generations SET generation = generation + 1
            WHERE kind = TG_ARGV[0] AND owner = OLD.owner;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER passage_vectors_generation AFTER INSERT OR DELETE ON passage_vectors
    FOR EACH ROW EXECUTE FUNCTION doctree_vector_generation('passages');
CREATE TRIGGER recall_vectors_generation AFTER INSERT OR DELETE ON recall_vectors
    FOR EACH ROW EXECUTE FUNCTION doctree_vector_generation('recall');
