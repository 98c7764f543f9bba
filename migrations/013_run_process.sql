-- The process that runs a run: its host and process id. A run still 'running' whose process
-- on this host is gone was orphaned (killed mid-run): `doctree runs` shows it as failed, and
-- the worker that takes its session over marks it failed and reverts it before the retry.
ALTER TABLE runs ADD COLUMN host TEXT;
ALTER TABLE runs ADD COLUMN pid INTEGER;
