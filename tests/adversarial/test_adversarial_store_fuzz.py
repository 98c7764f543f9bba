"""Hypothesis over the library's doors with hostile input: lone surrogates, control
characters, huge integers, deep frontmatter, long titles. Every call either works or raises
one of doctree's own errors (DoctreeError), and a refused write stores nothing."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doctree.errors import DoctreeError, NotTextError, TitleError, UserError
from doctree.memory.erase import forget
from doctree.store.documents import MAX_TITLE_BYTES, DocumentsRepository

hostile_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1),
    st.sampled_from(["\x00", "\x1b[2J", "~/memory/\udcff", "---\nx: " + "[" * 5000, "\u2028"]),
)
hostile_int = st.one_of(st.integers(), st.just(2**63), st.just(2**70), st.just(-(2**70)))
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
def seeded(repo):
    repo.write("main", "~/memory/a", "# A\nalpha apollo\n")
    repo.write("main", "~/memory/a", "# A\nalpha apollo kafka\n")
    return repo


def _stored(repo: DocumentsRepository) -> list:
    return [(v.document_id, v.version, v.body, v.title, v.path) for v in repo.log(None, limit=None)]


@FUZZ
@given(path=hostile_text, body=hostile_text, title=st.none() | hostile_text)
def test_write_with_hostile_text_works_or_is_refused_cleanly(seeded, path, body, title):
    before = _stored(seeded)
    try:
        seeded.write("main", path, body, title=title)
    except DoctreeError:
        assert _stored(seeded) == before


@FUZZ
@given(
    op=st.sampled_from(["read", "restore", "diff", "redact", "log", "search", "version"]),
    n=hostile_int,
)
def test_integer_arguments_out_of_range_are_refused_cleanly(seeded, op, n):
    calls = {
        "read": lambda: seeded.read("main", "~/memory/a", version=n),
        "restore": lambda: seeded.restore("main", "~/memory/a", n),
        "diff": lambda: seeded.diff("main", "~/memory/a", n, n),
        "redact": lambda: seeded.erase_version("main", "~/memory/a", n),
        "log": lambda: seeded.log("main", run_id=n, limit=5),
        "search": lambda: seeded.search("main", "apollo", limit=n),
        "version": lambda: seeded.version(n, 1),
    }
    with contextlib.suppress(DoctreeError):
        calls[op]()


@FUZZ
@given(query=st.text(max_size=30) | st.sampled_from(['"', "-", "*", '-"a b"', "a* -b", "NOT"]))
def test_any_search_text_works_or_is_refused_cleanly(seeded, query):
    with contextlib.suppress(UserError):
        seeded.search("main", query)


@FUZZ
@given(pattern=hostile_text, regex=st.booleans())
def test_forget_with_any_pattern_works_or_is_refused_cleanly(seeded, pattern, regex):
    with contextlib.suppress(DoctreeError):
        forget(seeded, "main", pattern, regex=regex, vacuum_file=False)


def test_deep_frontmatter_is_refused_with_its_own_message(repo):
    body = "---\nx: " + "[" * 30_000 + "\n---\nbody\n"
    with pytest.raises(UserError, match="frontmatter nested too deep"):
        repo.write("main", "~/deep", body)
    assert not repo.exists("main", "~/deep")


def test_a_lone_surrogate_is_not_utf8_text(repo):
    with pytest.raises(NotTextError, match="is not UTF-8 text"):
        repo.write("main", "~/x", "a\ud800b")
    with pytest.raises(UserError, match="not UTF-8 text"):
        repo.write("main", "~/x\udcff", "body")


@pytest.mark.parametrize(
    ("title", "rule"),
    [
        ("a\x00b", "control characters"),
        ("\x1b[31mred", "control characters"),
        ("x" * (MAX_TITLE_BYTES + 1), "at most"),
        ("a\udc80", "not UTF-8"),
    ],
)
def test_titles_follow_their_rules(repo, title, rule):
    with pytest.raises(TitleError, match=rule):
        repo.write("main", "~/t", "body", title=title)
    assert not repo.exists("main", "~/t")


def test_a_derived_title_is_made_to_follow_the_rules(repo):
    doc = repo.write("main", "~/t", '---\ntitle: "bell\\a ' + "y" * 3000 + '"\n---\nbody\n')
    assert "\x07" not in doc.title
    assert len(doc.title.encode()) <= MAX_TITLE_BYTES and doc.title.endswith("…")


def test_search_supports_prefix_phrase_and_exclusion(repo):
    repo.write("main", "~/apollo", "Apollo launch plans, no queues\n")
    repo.write("main", "~/kafka", "apollo apollo apollo uses kafka queues\n")
    repo.write("main", "~/tea", "green tea, not black tea; tea green\n")
    assert {h.path for h in repo.search("main", "apol*")} == {"~/apollo", "~/kafka"}
    assert [h.path for h in repo.search("main", "apollo -kafka")] == ["~/apollo"]
    assert [h.path for h in repo.search("main", '"green tea"')] == ["~/tea"]
    assert repo.search("main", '"tea black"') == []
    with pytest.raises(UserError, match="at least one word"):
        repo.search("main", "-kafka")


def test_a_large_body_gets_a_snippet_around_the_match(repo):
    big = repo.__class__(repo.conn, max_body_bytes=1_000_000)
    big.write("main", "~/big", "filler " * 50_000 + "the needle is here " + "filler " * 50_000)
    [hit] = big.search("main", "needle")
    assert "[needle]" in hit.snippet and len(hit.snippet) < 400


@FUZZ
@given(
    session_id=hostile_text,
    kind=st.sampled_from(["user", "assistant", "tool_call", "bogus"]),
    content=hostile_text | st.dictionaries(hostile_text, hostile_text, max_size=3),
)
def test_session_history_with_hostile_input_works_or_is_refused_cleanly(
    repo, session_id, kind, content
):
    from doctree.sessions.repository import SessionsRepository
    from doctree.sessions.sessions import AgentDescriptor

    sessions = SessionsRepository(repo.conn)
    try:
        sessions.ensure(AgentDescriptor("agent", "main"), session_id)
        sessions.append_history(session_id, kind, content)
    except DoctreeError:
        pass


@FUZZ
@given(
    when=hostile_text
    | st.sampled_from(["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "2026-13-01"])
    | st.datetimes().map(lambda d: d.isoformat())
    | st.builds(
        lambda d, h: f"{d.isoformat()}{h}",
        st.datetimes(),
        st.sampled_from(["+14:00", "-14:00", "Z", "+00:00"]),
    )
)
def test_any_time_text_works_or_is_refused_cleanly(seeded, when):
    for call in (
        lambda: seeded.read("main", "~/memory/a", at=when),
        lambda: seeded.tree("main", "~", at=when),
        lambda: seeded.log("main", since=when),
    ):
        with contextlib.suppress(DoctreeError):
            call()
