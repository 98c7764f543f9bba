"""One run of the offline memory agent, stage by stage."""

from __future__ import annotations

from doctree.agent.offline.directory import OTHER_KINDS, Directory
from doctree.agent.offline.extract import extract
from doctree.agent.offline.file import file_facts
from doctree.agent.offline.pageio import RunSummary, ToolsLike
from doctree.agent.offline.segment import segment
from doctree.agent.offline.write import Writer
from doctree.sessions.transcripts import Transcript


def run_session(root: str, transcript: Transcript, tools: ToolsLike) -> RunSummary:
    """Segment the transcript, extract and resolve what it says, file each fact on its page,
    and write the pages: the offline agent's pipeline, top to bottom."""
    writer = Writer(root, transcript, tools)
    listings = writer.read_known()  # the pages memory already has, by kind
    directory = Directory(
        listings.get("people", {}),
        listings.get("projects", {}),
        {kind: listings.get(kind, {}) for kind in OTHER_KINDS},
    )
    turns = segment(transcript)
    analysis = extract(turns, directory)  # resolves dates, corrections, pronouns as it reads
    filing = file_facts(analysis, directory, listings)
    return writer.write(filing)
