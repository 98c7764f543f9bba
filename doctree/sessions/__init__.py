"""Sessions and their history (records, leases, runs of collection) and transcripts."""
