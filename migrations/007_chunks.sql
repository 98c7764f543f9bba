-- Retrieval chunks: passages cut from current documents (a transcript turn, a paragraph, a
-- list item), each with the context around it, its speaker and the dates it speaks of,
-- indexed by FTS5. Derived data: rebuilt lazily from `documents` whenever a document's
-- version differs from the version its chunks were cut from.

CREATE TABLE chunk_sources (
    document_id INTEGER PRIMARY KEY REFERENCES documents(id),
    owner TEXT NOT NULL,
    version INTEGER NOT NULL                      -- the document version the chunks come from
);
CREATE INDEX idx_chunk_sources_owner ON chunk_sources(owner);

CREATE TABLE chunks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id INTEGER NOT NULL REFERENCES documents(id),
    owner TEXT NOT NULL,
    path TEXT NOT NULL,                           -- the document's path when chunked
    seq INTEGER NOT NULL,                         -- position within the document
    speaker TEXT,                                 -- who said it, for transcript turns
    day TEXT,                                     -- ISO date the passage belongs to, if known
    heading TEXT NOT NULL DEFAULT '',             -- the headings above it, joined by ' / '
    text TEXT NOT NULL,                           -- the passage as it appears in the document
    words INTEGER NOT NULL,
    timed INTEGER NOT NULL DEFAULT 0              -- 1 if it says when (a date, a year, 'yesterday')
);
CREATE INDEX idx_chunks_document ON chunks(document_id, seq);
CREATE INDEX idx_chunks_owner_path ON chunks(owner, path);
CREATE INDEX idx_chunks_owner_speaker ON chunks(owner, speaker);

CREATE VIRTUAL TABLE chunks_fts USING fts5(
    owner,                                        -- lets a match stay inside one owner's chunks
    text,                                         -- the passage itself
    context,                                      -- its neighbours and headings
    speaker,                                      -- the speaker's name
    dates,                                        -- normalised date tokens (d20230508 m202305 y2023)
    tokenize = 'porter unicode61 remove_diacritics 2'
);
