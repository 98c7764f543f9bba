-- Documents a revert of a run could not put back (a later run changed the run's own lines,
-- its old path is taken, an earlier version was redacted): flagged for a person to review,
-- never kept silently. Open while resolved_at is NULL; a later revert that puts the document
-- back, or a person keeping it (`doctree revert --run N --keep-changed`), resolves it. The
-- reason names versions and actors, never a body or a path.
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
