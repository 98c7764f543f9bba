-- Runs: one row per memory agent run (one transcript handed to the memory agent of a source
-- agent). Versions written by a run carry its id in document_versions.run_id.
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    agent TEXT NOT NULL,                  -- the agent definition, e.g. 'memory-agent'
    source_agent TEXT NOT NULL,           -- whose ~/memory the run writes
    session_id TEXT,                      -- the source session the transcript came from
    memory_session_id TEXT,               -- the memory agent's own session (its conversation)
    first_history_id INTEGER,             -- the transcript's history records, when known
    last_history_id INTEGER,
    backend TEXT NOT NULL,                -- anthropic, replay, offline
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
    ended_at TEXT
);
CREATE INDEX idx_runs_source ON runs(source_agent, id);
CREATE INDEX idx_runs_session ON runs(session_id);
