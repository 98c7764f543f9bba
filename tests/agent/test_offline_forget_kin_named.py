"""A request naming a person by the user's kin word alone ("forget about my uncle") reaches
the person the session or memory knows by that word ("my uncle Bram …"): their page and the
lines naming them go, as "forget about Bram" would; what is theirs ("my uncle's boat") is
the thing as it concerns them. Unsure (two uncles named, someone else's uncle), no person
is taken for it."""

from __future__ import annotations

from doctree.agent.offline import OfflineMemoryAgent
from doctree.interop.tools import MemoryTools
from doctree.sessions.transcripts import parse_transcript
from tests.agent.offline_runs import transcript


def replay(repo, *texts: str) -> str:
    said: dict[str, object] = {}
    for text in texts:
        t = parse_transcript(text)
        OfflineMemoryAgent().run(
            text, MemoryTools(repo, t.owner, session_id=t.session_id), earlier=said.get
        )
        said[t.session_id] = t
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )


def said(session: str, day: str, *lines: str) -> str:
    return transcript(
        session, *(("user", f"2032-04-{day}T10:0{i}:00Z", x) for i, x in enumerate(lines))
    )


UNCLE = (
    "My uncle Bram is selling his farm in Drenthe.",
    "Bram's knee operation went well.",
    "I practise the cello on Wednesdays.",
)


def test_forget_about_my_uncle_reaches_the_uncle_named_before(repo):
    got = replay(repo, said("s-1", "01", *UNCLE), said("s-2", "02", "Forget about my uncle."))
    assert "Drenthe" not in got
    assert "knee" not in got
    assert "people/bram" not in got
    assert "cello" in got


def test_forget_about_my_uncle_in_the_same_session(repo):
    got = replay(repo, said("s-1", "01", *UNCLE, "Please forget everything about my uncle."))
    assert "Drenthe" not in got
    assert "knee" not in got
    assert "cello" in got


def test_a_thing_of_my_uncles_is_that_thing_only(repo):
    got = replay(
        repo,
        said("s-1", "01", *UNCLE, "Bram's boat is moored at Harlingen."),
        said("s-2", "02", "Forget about my uncle's boat."),
    )
    assert "Harlingen" not in got
    assert "Drenthe" in got
    assert "knee" in got


def test_two_uncles_named_takes_neither_by_name(repo):
    got = replay(
        repo,
        said(
            "s-1",
            "01",
            "My uncle Bram is selling his farm in Drenthe.",
            "My uncle Joost repairs clocks in Delft.",
            "Joost's shop opens at nine.",
        ),
        said("s-2", "02", "Forget about my uncle."),
    )
    assert "opens at nine" in got  # a line naming one of them, not the word, stays
