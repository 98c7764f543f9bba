-- One word per concept, as the SQLite migration 014 does (docs/concepts.md, "Glossary"):
-- `owner` for the agent id whose memory a row belongs to, `runs.definition` for the agent
-- definition a run used, `passage` for the pieces of documents retrieval ranks, and
-- 'context-compaction' for a session ended by its host shortening its context. Every row,
-- id and search vector is kept; tables, columns, indexes, constraints, sequences, the
-- trigger function and its triggers are renamed.

ALTER TABLE sessions RENAME COLUMN agent_id TO owner;
ALTER INDEX idx_sessions_agent RENAME TO idx_sessions_owner;
UPDATE sessions SET ended_reason = 'context-compaction' WHERE ended_reason = 'compaction';

ALTER TABLE runs RENAME COLUMN agent TO definition;
ALTER TABLE runs RENAME COLUMN source_agent TO owner;
ALTER INDEX idx_runs_source RENAME TO idx_runs_owner;

ALTER TABLE chunk_sources RENAME TO passage_sources;
ALTER TABLE passage_sources RENAME CONSTRAINT chunk_sources_pkey TO passage_sources_pkey;
ALTER TABLE passage_sources RENAME CONSTRAINT chunk_sources_document_id_fkey
    TO passage_sources_document_id_fkey;
ALTER INDEX idx_chunk_sources_owner RENAME TO idx_passage_sources_owner;

ALTER TABLE chunks RENAME TO passages;
ALTER TABLE passages RENAME CONSTRAINT chunks_pkey TO passages_pkey;
ALTER TABLE passages RENAME CONSTRAINT chunks_document_id_fkey TO passages_document_id_fkey;
ALTER SEQUENCE chunks_id_seq RENAME TO passages_id_seq;
ALTER INDEX idx_chunks_document RENAME TO idx_passages_document;
ALTER INDEX idx_chunks_owner_path RENAME TO idx_passages_owner_path;
ALTER INDEX idx_chunks_owner_speaker RENAME TO idx_passages_owner_speaker;
ALTER INDEX idx_chunks_search RENAME TO idx_passages_search;

DROP TRIGGER chunk_pending_on_insert ON documents;
DROP TRIGGER chunk_pending_on_update ON documents;
DROP FUNCTION doctree_chunk_pending();
ALTER TABLE chunk_pending RENAME TO passage_pending;
ALTER TABLE passage_pending RENAME CONSTRAINT chunk_pending_pkey TO passage_pending_pkey;
ALTER TABLE passage_pending RENAME CONSTRAINT chunk_pending_document_id_fkey
    TO passage_pending_document_id_fkey;
ALTER INDEX idx_chunk_pending_owner RENAME TO idx_passage_pending_owner;

-- Documents whose passages are behind their current version.
CREATE FUNCTION doctree_passage_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO passage_pending (document_id, owner) VALUES (NEW.id, NEW.owner)
        ON CONFLICT (document_id) DO UPDATE SET owner = EXCLUDED.owner;
    RETURN NULL;
END;
$$;
CREATE TRIGGER passage_pending_on_insert AFTER INSERT ON documents
    FOR EACH ROW EXECUTE FUNCTION doctree_passage_pending();
CREATE TRIGGER passage_pending_on_update AFTER UPDATE OF version, path, title, deleted_at
    ON documents FOR EACH ROW EXECUTE FUNCTION doctree_passage_pending();
