"""What was said of a thing let go of in other words than "forget": "never mind what I said
about X", "please ignore what I told you about X", "disregard everything I mentioned about
X" forget X ("ignore the noise" and "never mind, keep it" ask nothing). A forget that deletes
a page also takes the bare link to it off the earlier session pages that listed it. A
relative of someone else's ("Priya's sister") is never the user's own relative."""

from __future__ import annotations

import pytest

from doctree.agent.offline import OfflineMemoryAgent
from doctree.agent.offline.language import forget_request
from doctree.interop.tools import MemoryTools
from doctree.sessions.transcripts import parse_transcript
from tests.agent.offline_runs import transcript


def replay(repo, *texts: str, archive: bool = False) -> str:
    said: dict[str, object] = {}
    for text in texts:
        t = parse_transcript(text)
        OfflineMemoryAgent().run(
            text, MemoryTools(repo, t.owner, session_id=t.session_id), earlier=said.get
        )
        said[t.session_id] = t
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if archive or "/archive/" not in d.path
    )


def said(session: str, day: str, *lines: str) -> str:
    return transcript(
        session, *(("user", f"2032-06-{day}T10:0{i}:00Z", x) for i, x in enumerate(lines))
    )


@pytest.mark.parametrize(
    "request_",
    [
        "Never mind what I said about the roofer.",
        "Please ignore what I told you about the roofer.",
        "Disregard everything I mentioned about the roofer.",
    ],
)
def test_letting_go_of_what_was_said_forgets_the_thing(repo, request_):
    got = replay(
        repo,
        said("s-1", "01", "The roofer quoted 2,400 for the gutters.", "I swim 2k on Saturdays."),
        said("s-2", "02", request_),
    )
    assert "2,400" not in got
    assert "Saturdays" in got


@pytest.mark.parametrize(
    "sentence",
    ["Ignore the hammering next door.", "Never mind, keep it.", "Never mind the weather."],
)
def test_other_ignoring_asks_nothing_of_the_thing_said(sentence):
    asked = forget_request(sentence)
    assert asked is None or asked[1] is None


def test_a_page_emptied_leaves_no_bare_link_on_the_earlier_session_page(repo):
    got = replay(
        repo,
        said(
            "s-1", "01", "I'm thinking of leaving my job at Corvel Ltd.", "I swim 2k on Saturdays."
        ),
        said("s-2", "02", "Forget what I told you about leaving my job."),
        archive=True,
    )
    assert "corvel" not in got.lower()  # its page and the links to it
    assert "Saturdays" in got


def test_someone_elses_relative_is_not_the_users(repo):
    got = replay(
        repo,
        said(
            "s-1",
            "01",
            "My brother Tomas is moving to Porto in August.",
            "Priya says her brother is visiting in June.",
        ),
        said("s-2", "02", "Forget about Priya's brother."),
    )
    assert "Porto" in got
