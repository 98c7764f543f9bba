-- The recall record is written after the hand-over, many sessions at a time: the worker
-- notes here which records of a session it handed over (in the transaction that reads
-- them), and a catch-up cuts them into passages later in one transaction for many
-- sessions (the worker's, at the end of a tick; a reader's or an erasure's, before it
-- reads the record). A row is deleted by the catch-up that stored its records.
CREATE TABLE recall_pending (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,                          -- the agent whose memory the session feeds
    after_id INTEGER NOT NULL,                    -- records with after_id < id <= until_id
    until_id INTEGER NOT NULL                     -- of session_history were handed over
) WITHOUT ROWID;                                  -- one B-tree written per note, not two
CREATE INDEX idx_recall_pending_owner ON recall_pending(owner);
