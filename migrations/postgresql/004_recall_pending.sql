-- As the SQLite migration of the same number: the records handed over and not yet in the
-- recall record, written by a catch-up after the hand-over, many sessions at a time.
CREATE TABLE recall_pending (
    session_id TEXT COLLATE "C" PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    owner TEXT COLLATE "C" NOT NULL,
    after_id BIGINT NOT NULL,
    until_id BIGINT NOT NULL
);
CREATE INDEX idx_recall_pending_owner ON recall_pending(owner);
