"""A request to forget a thing that nothing says in its words ("the bit about her operation"
of a line about surgery) removes nothing, and the session page says so — without naming
the thing — rather than counting it among the subjects removed."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY = "2031-04-07T10:00:00Z"
LATER = "2031-04-07T10:05:00Z"


def session_page(repo: DocumentsRepository) -> str:
    pages = [d for d in repo.documents("main", "~/memory/archive") if d.path.count("/") == 4]
    assert len(pages) == 1, [d.path for d in pages]
    return pages[0].body


def test_a_thing_nothing_says_is_not_counted_as_removed(repo):
    run(
        repo,
        transcript(
            "s-unfound",
            ("user", DAY, "Marta's having her gallbladder out on the 22nd. We're converting "
             "the loft in June with Hadley Builders."),
            ("user", LATER, "Please scrub the thing about Marta's operation. And forget "
             "everything I said about the loft conversion."),
        ),
    )  # fmt: skip
    page = session_page(repo)
    assert "1 subject removed from current memory" in page
    assert "1 request(s) to forget a thing memory does not say in those words" in page
    assert "operation" not in page.split("## Not acted on", 1)[1]  # not named
    pages = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "Hadley" not in pages and "loft" not in pages.lower()


def test_a_thing_said_is_removed_and_nothing_is_reported_unfound(repo):
    run(
        repo,
        transcript(
            "s-found",
            ("user", DAY, "We're converting the loft in June with Hadley Builders."),
            ("user", LATER, "Forget everything I said about the loft conversion."),
        ),
    )  # fmt: skip
    page = session_page(repo)
    assert "does not say in those words" not in page
    assert "removed from current memory" in page or "left out of memory" in page


def test_a_thing_nothing_says_is_looked_for_once_before_the_writes(repo, monkeypatch):
    """Whether memory says a thing asked to be forgotten in a later conversation (the agent
    reading the earlier ones, as `doctree replay` and the runtime give them) is looked for
    once before the pages are written (the look for what goes on from it counts its lines),
    not once more to count it unfound; the forget itself, after the writes, is the only
    other look."""
    from doctree.agent.offline import OfflineMemoryAgent
    from doctree.agent.offline.write import Writer
    from doctree.interop.tools import MemoryTools
    from doctree.sessions.transcripts import parse_transcript

    said: dict[str, object] = {}
    looks: list[tuple[str, bool]] = []
    forget = Writer.forget

    def counted(self, what, *args, dry=False, **kwargs):
        looks.append((what, dry))
        return forget(self, what, *args, dry=dry, **kwargs)

    monkeypatch.setattr(Writer, "forget", counted)
    for text in [
        transcript(
            "s-first",
            ("user", DAY, "We're converting the loft in June with Hadley Builders."),
        ),
        transcript(
            "s-later",
            ("user", "2031-04-09T10:00:00Z", "Forget what I told you about Aoife."),
        ),
    ]:
        t = parse_transcript(text)
        OfflineMemoryAgent().run(
            text, MemoryTools(repo, t.owner, session_id=t.session_id), earlier=said.get
        )
        said[t.session_id] = t
    assert looks == [("Aoife", True), ("Aoife", False)], looks
    page = [d for d in repo.documents("main", "~/memory/archive") if "s-later" in d.body]
    assert any("does not say in those words" in d.body for d in page)
