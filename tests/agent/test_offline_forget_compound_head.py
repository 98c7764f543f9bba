"""A thing named by one word that is the last word of a compound ("the garden" of "the beer
garden"): the line that says it only after another noun is that other thing when memory
also says the word of its own; a request naming the compound ("forget the beer garden")
reaches the compound's lines and not the others. Replayed as `doctree replay` gives the
earlier sessions to the agent (their sentences are read too), and without them."""

from __future__ import annotations

import pytest

from doctree.agent.offline import OfflineMemoryAgent
from doctree.agent.offline.language import named_with, only_headed
from doctree.interop.tools import MemoryTools
from doctree.sessions.transcripts import parse_transcript
from tests.agent.offline_runs import transcript


def replay(repo, *texts: str, earlier: bool = True) -> str:
    said: dict[str, object] = {}
    for text in texts:
        t = parse_transcript(text)
        tools = MemoryTools(repo, t.owner, session_id=t.session_id)
        OfflineMemoryAgent().run(text, tools, earlier=said.get if earlier else None)
        said[t.session_id] = t
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )


def first(*lines: str) -> str:
    return transcript("s-1", *(("user", f"2032-03-01T10:0{i}:00Z", x) for i, x in enumerate(lines)))


def ask(line: str) -> str:
    return transcript("s-2", ("user", "2032-03-02T10:00:00Z", line))


GARDEN = "Our garden needs a new fence before the summer."
BEER = "The beer garden at the Crown opens on 4 May."


@pytest.mark.parametrize("earlier", [True, False])
def test_forget_the_garden_leaves_the_beer_garden(repo, earlier):
    got = replay(repo, first(GARDEN, BEER), ask("Forget the garden."), earlier=earlier)
    assert "fence" not in got
    assert "4 May" in got


@pytest.mark.parametrize("earlier", [True, False])
def test_forget_the_beer_garden_reaches_it_and_leaves_the_garden(repo, earlier):
    got = replay(repo, first(GARDEN, BEER), ask("Forget the beer garden."), earlier=earlier)
    assert "4 May" not in got
    assert "fence" in got


def test_a_compound_said_alone_is_what_the_request_means(repo):
    got = replay(repo, first(BEER, "I cycle to work on Tuesdays."), ask("Forget the garden."))
    assert "4 May" not in got
    assert "Tuesdays" in got


def test_a_word_saying_what_the_thing_is_like_leaves_it_the_thing(repo):
    got = replay(
        repo,
        first(GARDEN, "The back garden floods every winter."),
        ask("Forget the garden."),
    )
    assert "fence" not in got
    assert "floods" not in got


def test_the_thing_said_before_a_time_is_still_the_thing(repo):
    got = replay(
        repo,
        first("We sit in the garden every evening.", BEER),
        ask("Forget the garden."),
    )
    assert "every evening" not in got
    assert "4 May" in got


@pytest.mark.parametrize(
    ("line", "word", "headed"),
    [
        ("The beer garden at the Crown opens on 4 May.", "garden", True),
        ("The guest bedroom needs a lamp.", "bedroom", True),
        ("Our garden needs a new fence.", "garden", False),
        ("The back garden floods.", "garden", False),
        ("The lovely garden floods.", "garden", False),
        ("We went to the garden.", "garden", False),
        ("Three gardens won prizes.", "garden", False),
        ("Garden tools are in the shed.", "garden", False),
        ("The beer garden and our garden.", "garden", False),
        ("Nothing here says it.", "garden", False),
    ],
)
def test_only_headed(line, word, headed):
    assert only_headed(line, word) is headed


@pytest.mark.parametrize(
    ("what", "word", "before"),
    [
        ("the beer garden", "garden", "beer"),
        ("beer garden", "garden", "beer"),
        ("the garden", "garden", None),
        ("my old garden", "garden", None),
        ("garden", "garden", None),
    ],
)
def test_named_with(what, word, before):
    assert named_with(what, word) == before
