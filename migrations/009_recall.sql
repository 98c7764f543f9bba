-- Recall: the verbatim record of everything handed to the memory agent (the second layer of
-- memory, beside the curated pages), and the queue that keeps the chunk index current.
--
-- `recall_passages` holds the transcript records of each hand-over, a passage per record
-- (long records cut at sentence ends), with their session, speaker and time; `recall_fts`
-- indexes them. Written at hand-over, incrementally: a record handed over twice (a retry)
-- is stored once.

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
    context,                                      -- the records around it in its session
    speaker,                                      -- who said it
    dates,                                        -- normalised date tokens (d20230508 m202305 y2023)
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Documents the chunk index has not caught up with: filled by the triggers below on every
-- change of a document, emptied as the index catches up, so that finding what to re-chunk
-- never reads every document.
CREATE TABLE chunk_pending (
    document_id INTEGER PRIMARY KEY REFERENCES documents(id),
    owner TEXT NOT NULL
);
CREATE INDEX idx_chunk_pending_owner ON chunk_pending(owner);

INSERT INTO chunk_pending (document_id, owner)
    SELECT d.id, d.owner FROM documents d LEFT JOIN chunk_sources s ON s.document_id = d.id
    WHERE s.version IS NULL OR s.version != d.version;

CREATE TRIGGER chunk_pending_on_insert AFTER INSERT ON documents
BEGIN
    INSERT OR REPLACE INTO chunk_pending (document_id, owner) VALUES (NEW.id, NEW.owner);
END;

-- What chunks are cut from: a new version, a new path or title, a deletion or a restore.
-- (A rewrite of how the same body is stored changes none of these, and re-chunks nothing.)
CREATE TRIGGER chunk_pending_on_update AFTER UPDATE OF version, path, title, deleted_at
    ON documents
BEGIN
    INSERT OR REPLACE INTO chunk_pending (document_id, owner) VALUES (NEW.id, NEW.owner);
END;
