-- doctree's schema on SQLite, as of 0.1.0 (the first schema; docs/schema.md describes every
-- table). Later changes are new files appended after this one (002_..., 003_...): an
-- applied migration is never edited, and its sha256 is checked on every open.
--
-- The `doctree_migrations` table that records applied migrations is made by the migration
-- runner itself (doctree/store/db.py), before this file runs.

-- ---------------------------------------------------------------------------------------
-- Documents: the versioned tree.
-- ---------------------------------------------------------------------------------------

-- The current state of every document (a deleted one keeps its row, with `deleted_at` set).
-- Bodies are stored encoded (doctree/store/encoding.py): `body_data` is a compressed full
-- copy of the current body.
CREATE TABLE documents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,         -- stable, never reused, kept across moves
    owner TEXT NOT NULL,                          -- the agent id whose home `~` holds it
    path TEXT NOT NULL,                           -- current path, e.g. ~/memory/people/alice
    parent_id INTEGER REFERENCES documents(id),   -- NULL for top-level documents
    title TEXT NOT NULL,
    version INTEGER NOT NULL,                     -- number of the current version
    content_sha256 TEXT NOT NULL,                 -- of the plain body
    size INTEGER NOT NULL,                        -- bytes of the plain body (UTF-8)
    links TEXT,                                   -- JSON list of declared links (current version)
    created_at TEXT NOT NULL,                     -- ISO 8601, UTC
    updated_at TEXT NOT NULL,
    deleted_at TEXT,                              -- set when the current version is a tombstone
    body_data BLOB                                -- the current body, encoded
);
CREATE UNIQUE INDEX idx_documents_live_path ON documents(owner, path) WHERE deleted_at IS NULL;
CREATE INDEX idx_documents_parent ON documents(parent_id) WHERE deleted_at IS NULL;
CREATE INDEX idx_documents_owner_path ON documents(owner, path);
-- `show` of a tree reads every live document under a path in path order, from this
-- covering index alone (no table lookup per document).
CREATE INDEX idx_documents_tree
    ON documents(owner, path, id, title, version, size, updated_at)
    WHERE deleted_at IS NULL;

-- Every version of every document, immutable except for erasing (`redacted_at`). A body is
-- stored as a compressed full copy or as a delta against the version before, with a full
-- copy at least every 32 versions (doctree/store/encoding.py).
CREATE TABLE document_versions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id INTEGER NOT NULL REFERENCES documents(id),
    owner TEXT NOT NULL,
    version INTEGER NOT NULL,
    operation TEXT NOT NULL
        CHECK (operation IN ('created', 'modified', 'moved', 'deleted', 'restored', 'redacted')),
    path TEXT NOT NULL,                           -- the path at this version
    title TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,                 -- of the plain body
    size INTEGER NOT NULL,
    actor_kind TEXT NOT NULL
        CHECK (actor_kind IN ('agent', 'memory-agent', 'user', 'system')),
    actor_id TEXT NOT NULL,
    session_id TEXT,                              -- the session the change came from, if known
    run_id INTEGER,                               -- the run (runs.id) that made it, if any
    links TEXT,                                   -- JSON list of links declared through the API
    deleted INTEGER NOT NULL DEFAULT 0            -- 1: the document is a tombstone as of this
        CHECK (deleted IN (0, 1)),                --    version (a deletion, or a later redaction)
    created_at TEXT NOT NULL,
    redacted_at TEXT,                             -- set when the body was erased in place
    redacted_by TEXT,
    body_data BLOB,                               -- the body, encoded; NULL once erased whole
    UNIQUE (document_id, version)
);
CREATE INDEX idx_versions_owner_time ON document_versions(owner, created_at);
CREATE INDEX idx_versions_path_time ON document_versions(owner, path, created_at);
CREATE INDEX idx_versions_run ON document_versions(run_id) WHERE run_id IS NOT NULL;
-- The change log of one owner, newest first, without sorting every version of the owner.
CREATE INDEX idx_versions_owner_id ON document_versions(owner, id);

-- The references each version makes: its parent, its declared links, links in its body.
CREATE TABLE document_references (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source_id INTEGER NOT NULL REFERENCES documents(id),
    version INTEGER NOT NULL,                     -- the source's version that makes it
    kind TEXT NOT NULL CHECK (kind IN ('parent', 'link', 'body')),
    owner TEXT NOT NULL,                          -- references never cross owners
    target_path TEXT NOT NULL,                    -- as written (normalised)
    target_id INTEGER REFERENCES documents(id)    -- resolved target; NULL while dangling
);
CREATE INDEX idx_references_source ON document_references(source_id, version);
CREATE INDEX idx_references_target ON document_references(target_id);
CREATE INDEX idx_references_target_path ON document_references(owner, target_path);

-- The text of every document as the full-text index reads it: `doctree_body` (registered
-- on every connection by doctree.store.db.connect) decodes `body_data`.
CREATE VIEW documents_text AS
    SELECT id, path, title, doctree_body(body_data) AS body FROM documents;

-- Full-text index of the live documents, with external content: FTS5 reads path, title
-- and body from `documents_text` by id (for snippets), and the store tells it the old
-- values on every change, so it holds no copy of the bodies.
CREATE VIRTUAL TABLE documents_fts USING fts5(
    path, title, body,
    content = 'documents_text', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
-- `ORDER BY rank` is BM25 with the title weighted above the path above the body.
INSERT INTO documents_fts (documents_fts, rank) VALUES ('rank', 'bm25(2.0, 4.0, 1.0)');

-- ---------------------------------------------------------------------------------------
-- Leases: a named claim held by one process until it releases it or it expires. The
-- worker leases sessions; compaction leases an owner's memory.
-- ---------------------------------------------------------------------------------------
CREATE TABLE leases (
    name TEXT PRIMARY KEY,          -- e.g. 'session:abc', 'compaction:main'
    holder TEXT NOT NULL,           -- who holds it, e.g. 'worker:host:1234:1'
    acquired_at REAL NOT NULL,      -- unix seconds
    expires_at REAL NOT NULL        -- unix seconds; an expired lease may be taken over
);
CREATE INDEX idx_leases_expires ON leases(expires_at);

-- ---------------------------------------------------------------------------------------
-- Sessions and their history: what the memory worker collects from. A session belongs to
-- an agent descriptor (agent_type, owner); sessions of type 'memory-agent' are never
-- marked pending.
-- ---------------------------------------------------------------------------------------
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    agent_type TEXT NOT NULL,           -- 'agent', 'memory-agent', ...
    owner TEXT NOT NULL,                -- the agent whose ~/memory the session feeds
    created_at TEXT NOT NULL,           -- ISO 8601, UTC
    ended_at TEXT,                      -- set when a reset or a context compaction ends it
    ended_reason TEXT,                  -- 'reset' or 'context-compaction'
    invalidated_at INTEGER,             -- session_history.id of the mark; NULL = nothing pending
    processed_until INTEGER,            -- session_history.id of the last record handed over
    processed_at TEXT,                  -- when processed_until last moved
    failures INTEGER NOT NULL DEFAULT 0,-- failed attempts since the last success
    last_error TEXT,                    -- why the last attempt failed
    retry_at REAL                       -- unix seconds; the worker skips the session before it
);
-- Only pending sessions are in the index, so finding them costs the same at any total.
CREATE INDEX idx_sessions_invalidated_at ON sessions(invalidated_at)
    WHERE invalidated_at IS NOT NULL;
CREATE INDEX idx_sessions_owner ON sessions(agent_type, owner, created_at);

-- The records of a session, in order.
CREATE TABLE session_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL
        CHECK (kind IN ('user', 'assistant', 'system', 'tool_call', 'tool_result')),
    content TEXT NOT NULL,              -- JSON: a string for text kinds, an object for tools
    time TEXT NOT NULL                  -- ISO 8601, as the engine gave it
);
CREATE INDEX idx_session_history_session ON session_history(session_id, id);

-- ---------------------------------------------------------------------------------------
-- Runs: one row per memory agent (or compaction agent) run over one job. Versions written
-- by a run carry its id in document_versions.run_id.
-- ---------------------------------------------------------------------------------------
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    definition TEXT NOT NULL,             -- the agent definition, e.g. 'memory-agent'
    owner TEXT NOT NULL,                  -- whose ~/memory the run writes
    session_id TEXT,                      -- the source session the transcript came from
    memory_session_id TEXT,               -- the memory agent's own session (its conversation)
    first_history_id INTEGER,             -- the transcript's history records, when known
    last_history_id INTEGER,
    backend TEXT NOT NULL,                -- anthropic, openai, replay, offline, ...
    model TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running'
        CHECK (status IN ('running', 'completed', 'stopped', 'failed')),
    stop_reason TEXT,                     -- end_turn, max_turns, max_tokens, max_budget_usd, error, ...
    turns INTEGER NOT NULL DEFAULT 0,     -- model round trips
    tool_calls INTEGER NOT NULL DEFAULT 0,
    tool_errors INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cache_read_tokens INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL NOT NULL DEFAULT 0,
    error TEXT,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    reverted_at TEXT,                     -- when its changes were put back (the status stays)
    reverted_by TEXT,
    host TEXT,                            -- the process running it: a run still 'running'
    pid INTEGER                           -- whose process on this host is gone was orphaned
);
CREATE INDEX idx_runs_owner ON runs(owner, id);
CREATE INDEX idx_runs_session ON runs(session_id);

-- Documents a revert of a run could not put back (a later run changed the run's own lines,
-- its old path is taken, an earlier version was erased), flagged for a person. Open while
-- resolved_at is NULL. The reason names versions and actors, never a body or a path.
CREATE TABLE run_reviews (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    reason TEXT NOT NULL,
    flagged_at TEXT NOT NULL,
    resolved_at TEXT,
    resolved_by TEXT
);
CREATE INDEX idx_run_reviews_run ON run_reviews(run_id, document_id);

-- ---------------------------------------------------------------------------------------
-- Passages: pieces of current documents that retrieval ranks on their own (a transcript
-- turn, a paragraph, a list item), with the text around them, their speaker and the dates
-- they speak of. Derived data: rebuilt from `documents` whenever a document's version
-- differs from the version its passages were cut from.
-- ---------------------------------------------------------------------------------------
CREATE TABLE passage_sources (
    document_id INTEGER PRIMARY KEY REFERENCES documents(id),
    owner TEXT NOT NULL,
    version INTEGER NOT NULL                      -- the document version the passages come from
);
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
CREATE INDEX idx_passages_document ON passages(document_id, seq);
CREATE INDEX idx_passages_owner_path ON passages(owner, path);
CREATE INDEX idx_passages_owner_speaker ON passages(owner, speaker);

CREATE VIRTUAL TABLE passages_fts USING fts5(
    owner,                                        -- lets a match stay inside one owner's passages
    text,                                         -- the passage itself
    surroundings,                                 -- its neighbours and headings
    speaker,                                      -- the speaker's name
    dates,                                        -- normalised date tokens (d20230508 m202305 y2023)
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Documents the passage index has not caught up with: filled by the triggers below on
-- every change of a document, emptied as the index catches up, so that finding what to
-- cut again never reads every document.
CREATE TABLE passage_pending (
    document_id INTEGER PRIMARY KEY REFERENCES documents(id),
    owner TEXT NOT NULL
);
CREATE INDEX idx_passage_pending_owner ON passage_pending(owner);

CREATE TRIGGER passage_pending_on_insert AFTER INSERT ON documents
BEGIN
    INSERT OR REPLACE INTO passage_pending (document_id, owner) VALUES (NEW.id, NEW.owner);
END;

-- What passages are cut from: a new version, a new path or title, a deletion or a restore.
-- (A rewrite of how the same body is stored changes none of these, and cuts nothing again.)
CREATE TRIGGER passage_pending_on_update AFTER UPDATE OF version, path, title, deleted_at
    ON documents
BEGIN
    INSERT OR REPLACE INTO passage_pending (document_id, owner) VALUES (NEW.id, NEW.owner);
END;

-- ---------------------------------------------------------------------------------------
-- Recall: the verbatim record of everything handed to the memory agent (the second layer
-- of memory, beside the curated pages). A passage per transcript record (long records cut
-- at sentence ends), with its session, speaker and time; written at hand-over, a record
-- handed over twice (a retry) stored once.
-- ---------------------------------------------------------------------------------------
CREATE TABLE recall_passages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner TEXT NOT NULL,                          -- the agent whose memory the session feeds
    session_id TEXT NOT NULL,                     -- the session the record belongs to
    record TEXT NOT NULL,                         -- the record's key within the session
    piece INTEGER NOT NULL,                       -- 0, or the n-th piece of a long record
    speaker TEXT NOT NULL,                        -- who said it: user, assistant, ...
    time TEXT NOT NULL,                           -- when it was said, ISO 8601 as recorded
    day TEXT,                                     -- ISO date of `time`, if it parses
    text TEXT NOT NULL,                           -- the words, verbatim
    words INTEGER NOT NULL,
    UNIQUE (owner, session_id, record, piece)
);
CREATE INDEX idx_recall_passages_session ON recall_passages(owner, session_id, id);

CREATE VIRTUAL TABLE recall_fts USING fts5(
    owner,                                        -- lets a match stay inside one owner's passages
    text,                                         -- the passage itself
    surroundings,                                 -- the records around it in its session
    speaker,                                      -- who said it
    dates,                                        -- normalised date tokens (d20230508 m202305 y2023)
    tokenize = 'porter unicode61 remove_diacritics 2'
);
