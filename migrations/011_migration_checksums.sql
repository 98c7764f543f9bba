-- The sha256 of each migration file as it was applied. Opening a database compares it with
-- the file shipped now and refuses a mismatch: a migration edited after a database applied
-- it would otherwise leave that database silently without the edit. Rows applied before this
-- column existed get the current file's sha256 recorded when the database is next opened.
ALTER TABLE doctree_migrations ADD COLUMN sha256 TEXT;
