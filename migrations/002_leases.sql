-- Leases: a named claim held by one process until it releases it or it expires.
-- The worker leases sessions; compaction leases an owner's memory.
CREATE TABLE leases (
    name TEXT PRIMARY KEY,          -- e.g. 'session:abc', 'compaction:main'
    holder TEXT NOT NULL,           -- who holds it, e.g. 'worker:host:1234:1'
    acquired_at REAL NOT NULL,      -- unix seconds
    expires_at REAL NOT NULL        -- unix seconds; an expired lease may be taken over
);
CREATE INDEX idx_leases_expires ON leases(expires_at);
