-- A changed document is put in `passage_pending` by the statement that changes it
-- (`doctree.store.backends.sqlite.SqliteDialect.queue_passages`), not by a trigger on
-- `documents`. A trigger makes every INSERT and UPDATE of `documents` write two tables, so
-- SQLite opens a statement journal for it, and with it a savepoint of each virtual table the
-- transaction has written: FTS5 then writes its pending entries to disk as a segment of
-- their own, one per write of a batch (and merges them), instead of once at the COMMIT.
-- The rows already queued stay queued.
DROP TRIGGER passage_pending_on_insert;
DROP TRIGGER passage_pending_on_update;
