-- A passage's text is stored as doctree.store.encoding.encode_full makes it (BYTEA: raw
-- DEFLATE of the UTF-8 where that is smaller, behind one byte naming the kind), as SQLite
-- stores it since its migration 006. PostgreSQL compresses a value only in a row of more
-- than 2 kB (TOAST), so the text of a short passage, often a whole short note that
-- `documents.body_data` holds compressed already, was kept a second time uncompressed.
-- The passages stored before are kept as full copies without compression (kind 0x00, the
-- same UTF-8 bytes); each is packed when its document's passages are cut again.
-- The trigger that queues a changed passage for its vector names the column: it is made
-- again, the same, around the change of type.
DROP TRIGGER passage_vectors_on_update ON passages;
ALTER TABLE passages ALTER COLUMN text TYPE BYTEA
    USING decode('00', 'hex') || convert_to(text, 'UTF8');
CREATE TRIGGER passage_vectors_on_update AFTER UPDATE OF text, owner ON passages
    FOR EACH ROW EXECUTE FUNCTION doctree_vector_pending('passages', 'passage_vectors');
