-- One word per concept (docs/concepts.md, "Glossary").
--   * owner: the agent id whose memory a row belongs to (`sessions.owner`, `runs.owner`,
--     as `documents.owner`); `runs.definition` names the agent definition a run used.
--   * passage: a piece of a document's text that retrieval ranks on its own. Its tables
--     are `passages`, `passage_sources`, `passages_fts` and `passage_pending`.
--   * context compaction: the reason a session ended when its host shortened its context
--     (`sessions.ended_reason = 'context-compaction'`).
-- Nothing is lost: every row is kept under its new name.

-- Sessions: renamed in place (session_history refers to sessions, so it is not rebuilt).
ALTER TABLE sessions RENAME COLUMN agent_id TO owner;
DROP INDEX idx_sessions_agent;
CREATE INDEX idx_sessions_owner ON sessions(agent_type, owner, created_at);
UPDATE sessions SET ended_reason = 'context-compaction' WHERE ended_reason = 'compaction';

-- Runs: renamed in place.
ALTER TABLE runs RENAME COLUMN agent TO definition;
ALTER TABLE runs RENAME COLUMN source_agent TO owner;
DROP INDEX idx_runs_source;
CREATE INDEX idx_runs_owner ON runs(owner, id);

-- The passage index: rebuilt under its new names with the same rows and ids (it is
-- derived data, referred to by no other table), so that the schema says one word.
DROP TRIGGER IF EXISTS chunk_pending_on_insert;
DROP TRIGGER IF EXISTS chunk_pending_on_update;

CREATE TABLE passage_sources (
    document_id INTEGER PRIMARY KEY REFERENCES documents(id),
    owner TEXT NOT NULL,
    version INTEGER NOT NULL                      -- the document version the passages come from
);
INSERT INTO passage_sources (document_id, owner, version)
    SELECT document_id, owner, version FROM chunk_sources;
DROP TABLE chunk_sources;
CREATE INDEX idx_passage_sources_owner ON passage_sources(owner);

CREATE TABLE passages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id INTEGER NOT NULL REFERENCES documents(id),
    owner TEXT NOT NULL,
    path TEXT NOT NULL,                           -- the document's path when it was cut
    seq INTEGER NOT NULL,                         -- position within the document
    speaker TEXT,                                 -- who said it, for transcript turns
    day TEXT,                                     -- ISO date the passage belongs to, if known
    heading TEXT NOT NULL DEFAULT '',             -- the headings above it, joined by ' / '
    text TEXT NOT NULL,                           -- the passage as it appears in the document
    words INTEGER NOT NULL,
    timed INTEGER NOT NULL DEFAULT 0              -- 1 if it says when (a date, a year, 'yesterday')
);
INSERT INTO passages (id, document_id, owner, path, seq, speaker, day, heading, text, words, timed)
    SELECT id, document_id, owner, path, seq, speaker, day, heading, text, words, timed
    FROM chunks ORDER BY id;
-- Ids keep growing from where they were, never reusing one.
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'passages', seq FROM sqlite_sequence WHERE name = 'chunks'
    AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'passages');
UPDATE sqlite_sequence SET seq = MAX(seq, (SELECT seq FROM sqlite_sequence WHERE name = 'chunks'))
    WHERE name = 'passages' AND EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'chunks');
DROP TABLE chunks;
CREATE INDEX idx_passages_document ON passages(document_id, seq);
CREATE INDEX idx_passages_owner_path ON passages(owner, path);
CREATE INDEX idx_passages_owner_speaker ON passages(owner, speaker);

CREATE VIRTUAL TABLE passages_fts USING fts5(
    owner,                                        -- lets a match stay inside one owner's passages
    text,                                         -- the passage itself
    context,                                      -- its neighbours and headings
    speaker,                                      -- the speaker's name
    dates,                                        -- normalised date tokens (d20230508 m202305 y2023)
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO passages_fts (rowid, owner, text, context, speaker, dates)
    SELECT rowid, owner, text, context, speaker, dates FROM chunks_fts ORDER BY rowid;
DROP TABLE chunks_fts;

-- Documents the passage index has not caught up with (see 009): filled by the triggers
-- below on every change of a document, emptied as the index catches up.
CREATE TABLE passage_pending (
    document_id INTEGER PRIMARY KEY REFERENCES documents(id),
    owner TEXT NOT NULL
);
INSERT INTO passage_pending (document_id, owner) SELECT document_id, owner FROM chunk_pending;
DROP TABLE chunk_pending;
CREATE INDEX idx_passage_pending_owner ON passage_pending(owner);

CREATE TRIGGER passage_pending_on_insert AFTER INSERT ON documents
BEGIN
    INSERT OR REPLACE INTO passage_pending (document_id, owner) VALUES (NEW.id, NEW.owner);
END;

-- What passages are cut from: a new version, a new path or title, a deletion or a restore.
CREATE TRIGGER passage_pending_on_update AFTER UPDATE OF version, path, title, deleted_at
    ON documents
BEGIN
    INSERT OR REPLACE INTO passage_pending (document_id, owner) VALUES (NEW.id, NEW.owner);
END;
