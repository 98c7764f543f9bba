-- Sessions and their history: what the memory worker collects from.
-- A session belongs to an agent descriptor (agent_type, agent_id); sessions of a
-- 'memory-agent' descriptor are never invalidated.
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    agent_type TEXT NOT NULL,           -- 'agent', 'memory-agent', ...
    agent_id TEXT NOT NULL,             -- the agent whose ~/memory the session feeds
    created_at TEXT NOT NULL,           -- ISO 8601, UTC
    ended_at TEXT,                      -- set when a reset or a compaction ends the session
    ended_reason TEXT,                  -- 'reset' or 'compaction'
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
CREATE INDEX idx_sessions_agent ON sessions(agent_type, agent_id, created_at);

CREATE TABLE session_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL
        CHECK (kind IN ('user', 'assistant', 'system', 'tool_call', 'tool_result')),
    content TEXT NOT NULL,              -- JSON: a string for text kinds, an object for tools
    time TEXT NOT NULL                  -- ISO 8601, as the engine gave it
);
CREATE INDEX idx_session_history_session ON session_history(session_id, id);
