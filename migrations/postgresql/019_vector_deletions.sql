-- The vectors deleted since a generation, as the SQLite migration 017 keeps them (see it
-- for what each table holds): ids and generations, never text.
CREATE TABLE vector_deletions (
    kind TEXT COLLATE "C" NOT NULL,
    owner TEXT COLLATE "C" NOT NULL,
    generation BIGINT NOT NULL,                   -- the owner's generation after the deletion
    passage_id BIGINT NOT NULL,
    PRIMARY KEY (kind, owner, generation, passage_id)
);

CREATE TABLE vector_deletion_floors (
    kind TEXT COLLATE "C" NOT NULL,
    owner TEXT COLLATE "C" NOT NULL,
    generation BIGINT NOT NULL,                   -- deletions up to it are no longer listed
    PRIMARY KEY (kind, owner)
);
INSERT INTO vector_deletion_floors (kind, owner, generation)
    SELECT kind, owner, generation FROM vector_generations;

-- Every vector stored or deleted moves its owner's generation; one deleted is then listed
-- with the generation its deletion made. TG_ARGV[0] is the kind.
CREATE OR REPLACE FUNCTION doctree_vector_generation() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    moved BIGINT;
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO vector_generations (kind, owner, generation)
            VALUES (TG_ARGV[0], NEW.owner, (random() * 1e12)::bigint)
            ON CONFLICT (kind, owner)
            DO UPDATE SET generation = vector_generations.generation + 1;
    ELSE
        UPDATE vector_generations SET generation = generation + 1
            WHERE kind = TG_ARGV[0] AND owner = OLD.owner
            RETURNING generation INTO moved;
        IF FOUND THEN
            INSERT INTO vector_deletions (kind, owner, generation, passage_id)
                VALUES (TG_ARGV[0], OLD.owner, moved, OLD.passage_id);
        END IF;
    END IF;
    RETURN NULL;
END;
$$;
