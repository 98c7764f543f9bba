-- The versioned document tree: documents (current state), their immutable versions,
-- the references each version makes, and a full-text index over current documents.

CREATE TABLE documents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,         -- stable, never reused, kept across moves
    owner TEXT NOT NULL,                          -- agent id whose home `~` holds it
    path TEXT NOT NULL,                           -- current path, e.g. ~/memory/people/alice
    parent_id INTEGER REFERENCES documents(id),   -- NULL for top-level documents
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    version INTEGER NOT NULL,                     -- number of the current version
    content_sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    links TEXT,                                   -- JSON list of declared links (current version)
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT                               -- set when the current version is a tombstone
);
CREATE UNIQUE INDEX idx_documents_live_path ON documents(owner, path) WHERE deleted_at IS NULL;
CREATE INDEX idx_documents_parent ON documents(parent_id) WHERE deleted_at IS NULL;
CREATE INDEX idx_documents_owner_path ON documents(owner, path);

CREATE TABLE document_versions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id INTEGER NOT NULL REFERENCES documents(id),
    owner TEXT NOT NULL,
    version INTEGER NOT NULL,
    operation TEXT NOT NULL
        CHECK (operation IN ('created', 'modified', 'moved', 'deleted', 'restored', 'redacted')),
    path TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT,                                    -- NULL once redacted
    content_sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    actor_kind TEXT NOT NULL
        CHECK (actor_kind IN ('agent', 'memory-agent', 'user', 'system')),
    actor_id TEXT NOT NULL,
    session_id TEXT,
    run_id INTEGER,
    links TEXT,                                   -- JSON list of links declared through the API
    deleted INTEGER NOT NULL DEFAULT 0            -- 1: the document is a tombstone as of this
        CHECK (deleted IN (0, 1)),                --    version (a deletion, or a later redaction)
    created_at TEXT NOT NULL,
    redacted_at TEXT,
    redacted_by TEXT,
    UNIQUE (document_id, version)
);
CREATE INDEX idx_versions_owner_time ON document_versions(owner, created_at);
CREATE INDEX idx_versions_path_time ON document_versions(owner, path, created_at);
CREATE INDEX idx_versions_run ON document_versions(run_id) WHERE run_id IS NOT NULL;

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

CREATE VIRTUAL TABLE documents_fts USING fts5(
    path, title, body,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
-- `ORDER BY rank` is BM25 with the title weighted above the path above the body; FTS5 can
-- then produce the best hits first, and snippets are made only for the rows returned.
INSERT INTO documents_fts (documents_fts, rank) VALUES ('rank', 'bm25(2.0, 4.0, 1.0)');
