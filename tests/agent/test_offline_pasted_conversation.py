"""A pasted conversation (a meeting's auto-transcript, a chat log with times): each line
opens on who said it, so each sentence of the line is that speaker's, labelled with their
name (their role, said in brackets, a line of its own). "My" in someone else's line is theirs, never the
user's, and what they say is not the user's request."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY = "2028-03-09T19:30:00Z"

MINUTES = (
    "Notes from the allotment society AGM, I'm taking the minutes.\n"
    "\n"
    "[00:02:10] Rhiannon Blake (chair): Thanks for coming. Water butts are on order.\n"
    "[00:04:45] Mr Adeyemi (plot 7): The hedge is blocking my shed. My gate is broken too.\n"
    "[00:06:30] Tomasz Wrona (treasurer): The society has £860 in the bank after the seeds.\n"
    "[00:08:05] Mr Adeyemi (plot 7): Please forget the hedge, I'll sort it with my neighbour."
)


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def test_each_speakers_sentences_are_theirs_with_their_role(repo):
    run(repo, transcript("s-agm", ("user", DAY, MINUTES)))
    pages = _pages(repo)
    everything = "\n".join(b for p, b in pages.items() if not p.startswith("~/memory/archive"))
    # "my gate" is Mr Adeyemi's, written as his, on his page, never as the user's
    assert "the user's gate" not in everything and "the user's shed" not in everything
    adeyemi = pages.get("~/memory/people/mr-adeyemi", "")
    assert "gate is broken" in adeyemi, sorted(pages)
    # the role, said in brackets, is kept with the name
    assert "Tomasz Wrona: treasurer" in everything and "£860" in everything
    assert "Rhiannon Blake: chair" in pages.get("~/memory/people/rhiannon-blake", "")


def test_a_speakers_forget_is_not_the_users_request(repo):
    run(repo, transcript("s-agm", ("user", DAY, MINUTES)))
    everything = "\n".join(_pages(repo).values())
    assert "hedge is blocking" in everything  # Mr Adeyemi asked the meeting, not the memory
