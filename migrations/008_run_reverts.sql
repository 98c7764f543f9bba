-- Reverting a run: when its changes were put back, and by whom. A run keeps the status it
-- ended with (a failed run stays 'failed'); these columns say it was reverted afterwards.
ALTER TABLE runs ADD COLUMN reverted_at TEXT;
ALTER TABLE runs ADD COLUMN reverted_by TEXT;
