"""Sessions and their history, transcripts, the memory worker and the engine facade."""
