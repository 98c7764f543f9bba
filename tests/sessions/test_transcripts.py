"""The transcript format: formatting, parsing, the round trip, and errors with line numbers."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doctree.errors import UserError
from doctree.sessions.transcripts import (
    KINDS,
    Message,
    Transcript,
    TranscriptError,
    format_transcript,
    parse_transcript,
    transcript_of,
)

EXAMPLE = """\
# Transcript of session s-2026-11-20-apollo

- agent: main
- session: s-2026-11-20-apollo
- started: 2026-11-20T09:00:00Z
- ended: 2026-11-20T09:42:10Z

## user · 2026-11-20T09:00:00Z

Free markdown text of the message (may hold lists, code, links).

- one
- [two](https://example.com)

## assistant · 2026-11-20T09:00:05Z

Text.

### a sub-heading stays inside the message

```python
print("hi")
```

## tool call · 2026-11-20T09:00:06Z

```json
{"id": "toolu_01", "name": "web_search", "input": {"query": "apollo launch"}}
```

## tool result · 2026-11-20T09:00:07Z

```json
{
  "tool_use_id": "toolu_01",
  "content": "Launch on 2026-12-01",
  "is_error": false
}
```

## system · 2026-11-20T09:42:10Z

Session ended.
"""


def _header(body: str = "") -> str:
    return "# Transcript of session s1\n\n- agent: main\n- session: s1\n\n" + body


def _error(text: str) -> TranscriptError:
    with pytest.raises(TranscriptError) as info:
        parse_transcript(text, source="fixture.md")
    return info.value


def test_parse_reads_header_fields():
    t = parse_transcript(EXAMPLE)
    assert (t.owner, t.session_id, t.started, t.ended) == (
        "main",
        "s-2026-11-20-apollo",
        "2026-11-20T09:00:00Z",
        "2026-11-20T09:42:10Z",
    )


def test_parse_reads_messages_in_order_with_kinds_and_times():
    t = parse_transcript(EXAMPLE)
    assert [(m.kind, m.time) for m in t.messages] == [
        ("user", "2026-11-20T09:00:00Z"),
        ("assistant", "2026-11-20T09:00:05Z"),
        ("tool_call", "2026-11-20T09:00:06Z"),
        ("tool_result", "2026-11-20T09:00:07Z"),
        ("system", "2026-11-20T09:42:10Z"),
    ]


def test_text_message_keeps_its_markdown_verbatim():
    t = parse_transcript(EXAMPLE)
    assert t.messages[1].content == (
        'Text.\n\n### a sub-heading stays inside the message\n\n```python\nprint("hi")\n```'
    )


def test_tool_messages_parse_to_dicts():
    t = parse_transcript(EXAMPLE)
    assert t.messages[2].content == {
        "id": "toolu_01",
        "name": "web_search",
        "input": {"query": "apollo launch"},
    }
    assert t.messages[3].content["is_error"] is False


def test_format_writes_the_documented_shape():
    text = format_transcript(
        [
            Message("user", "2026-11-20T09:00:00Z", "Hi"),
            Message("tool_call", "2026-11-20T09:00:06Z", {"id": "t1", "name": "x", "input": {}}),
        ],
        owner="main",
        session_id="s1",
    )
    assert text == (
        "# Transcript of session s1\n\n"
        "- agent: main\n- session: s1\n"
        "- started: 2026-11-20T09:00:00Z\n- ended: 2026-11-20T09:00:06Z\n\n"
        "## user · 2026-11-20T09:00:00Z\n\nHi\n\n"
        "## tool call · 2026-11-20T09:00:06Z\n\n"
        '```json\n{"id": "t1", "name": "x", "input": {}}\n```\n'
    )


def test_example_round_trips_through_format():
    t = parse_transcript(EXAMPLE)
    assert parse_transcript(t.format()) == t


def test_text_that_would_read_as_a_message_heading_is_fenced():
    m = Message("assistant", "2026-11-20T09:00:00Z", "## user · 2026-11-20T09:00:00Z\nfake")
    text = format_transcript([m], owner="main", session_id="s1")
    assert "```verbatim" in text
    assert parse_transcript(text).messages == (m,)


def test_unclosed_fence_in_text_does_not_swallow_the_next_message():
    msgs = [
        Message("user", "2026-11-20T09:00:00Z", "```python\nunclosed"),
        Message("assistant", "2026-11-20T09:00:01Z", "after"),
    ]
    text = format_transcript(msgs, owner="main", session_id="s1")
    assert parse_transcript(text).messages == tuple(msgs)


def test_control_characters_survive_in_json_verbatim_form():
    m = Message("user", "2026-11-20T09:00:00Z", "a\rb\x00c")
    text = format_transcript([m], owner="main", session_id="s1")
    assert "```json-verbatim" in text
    assert parse_transcript(text).messages == (m,)


def test_empty_transcript_has_no_times_and_round_trips():
    text = format_transcript([], owner="main", session_id="s1")
    assert parse_transcript(text) == Transcript("main", "s1", None, None, ())


_times = st.datetimes(min_value=datetime(1970, 1, 1)).map(
    lambda d: d.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
_messages = st.one_of(
    st.builds(Message, st.sampled_from(["user", "assistant", "system"]), _times, st.text()),
    st.builds(
        Message,
        st.sampled_from(["tool_call", "tool_result"]),
        _times,
        st.dictionaries(st.text(), _json, max_size=4),
    ),
)
_markdownish = st.lists(
    st.sampled_from(
        [
            "## user · 2026-01-01T00:00:00Z",
            "# title",
            "```",
            "~~~",
            "<pre>",
            "- item",
            "> q",
            "",
            "   ",
            "text",
            "    indented",
            "---",
            "Heading\n===",
            "\t",
            "`",
            "> ```",
            "- ```python",
            "1. item",
            "***",
            "[ref]: https://example.com",
            "<!-- open comment",
            "  <script>",
            "| a | b |",
            "  ## indented heading",
            "> ## quoted heading",
            "- ## listed heading",
            "    ```",
        ]
    ),
    max_size=8,
).map("\n".join)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(_messages, max_size=6))
def test_round_trip_property_for_arbitrary_messages(messages):
    text = format_transcript(messages, owner="main", session_id="s-1")
    t = parse_transcript(text)
    assert list(t.messages) == messages


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(_messages, max_size=6))
def test_transcript_of_records_is_what_their_markdown_parses_back_to(messages):
    # the worker hands both to the memory agent; the agent reads `parsed` without parsing
    text = format_transcript(messages, owner="main", session_id="s-1")
    assert transcript_of(messages, owner="main", session_id="s-1") == parse_transcript(text)


def test_parsing_is_linear_in_the_number_of_messages():
    # token positions are found once: the parser used to look each heading up with
    # list.index, quadratic in the messages. Counted, not timed: lookups per message.
    import doctree.sessions.transcripts as t

    calls = []
    real = list.index

    class Spy(list):
        def index(self, *a):
            calls.append(1)
            return real(self, *a)

    md = t.markdown_parser()
    text = format_transcript(
        [Message("user", "2026-01-01T00:00:00Z", f"m{i}") for i in range(300)],
        owner="main",
        session_id="s-1",
    )

    class Md:
        def parse(self, text):
            return Spy(md.parse(text))

    assert len(parse_transcript(text, _md=Md()).messages) == 300
    assert calls == []


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(_markdownish, min_size=1, max_size=5))
def test_round_trip_property_for_markdown_that_looks_like_structure(texts):
    messages = [Message("user", f"2026-01-01T00:00:0{i}Z", x) for i, x in enumerate(texts)]
    text = format_transcript(messages, owner="main", session_id="s-1")
    assert list(parse_transcript(text).messages) == messages


def test_transcript_error_is_a_user_error():
    assert issubclass(TranscriptError, UserError)


def test_missing_title_names_source_and_line():
    err = _error("- agent: main\n")
    assert (err.source, err.line) == ("fixture.md", 1)
    assert "fixture.md:1" in str(err) and "Transcript of session" in str(err)


def test_missing_session_field_is_an_error():
    err = _error("# Transcript of session s1\n\n- agent: main\n")
    assert err.line == 3 and "'session' is missing" in err.reason


def test_session_in_header_must_match_title():
    err = _error("# Transcript of session s1\n\n- agent: main\n- session: s2\n")
    assert "differs" in err.reason


def test_unknown_header_field_is_an_error():
    err = _error("# Transcript of session s1\n\n- agent: main\n- session: s1\n- mood: ok\n")
    assert err.line == 5 and "unknown header field 'mood'" in err.reason


def test_text_before_first_message_is_an_error():
    err = _error(_header("stray paragraph\n"))
    assert err.line == 6 and "before the first message" in err.reason


def test_unknown_kind_names_the_heading_line():
    err = _error(
        _header("## user · 2026-11-20T09:00:00Z\n\nhi\n\n## robot · 2026-11-20T09:00:00Z\n")
    )
    assert err.line == 10 and "'robot · 2026-11-20T09:00:00Z'" in err.reason


def test_bad_time_is_an_error():
    err = _error(_header("## user · yesterday\n\nhi\n"))
    assert err.line == 6 and "time 'yesterday'" in err.reason


def test_tool_call_without_json_fence_is_an_error():
    err = _error(_header("## tool call · 2026-11-20T09:00:00Z\n\nsearch the web\n"))
    assert err.line == 6 and "```json" in err.reason


def test_invalid_json_names_the_line_inside_the_fence():
    err = _error(_header("## tool result · 2026-11-20T09:00:00Z\n\n```json\n{\n  bad\n}\n```\n"))
    assert err.line == 10 and "not valid JSON" in err.reason


def test_tool_content_must_be_an_object():
    err = _error(_header("## tool call · 2026-11-20T09:00:00Z\n\n```json\n[1, 2]\n```\n"))
    assert "JSON object" in err.reason


def test_second_title_is_an_error():
    err = _error(_header("## user · 2026-11-20T09:00:00Z\n\nhi\n\n# Another\n"))
    assert err.line == 10 and "title" in err.reason


def test_crlf_line_endings_parse_like_lf():
    assert parse_transcript(EXAMPLE.replace("\n", "\r\n")) == parse_transcript(EXAMPLE)


def test_underscore_kind_names_are_accepted_in_headings():
    t = parse_transcript(
        _header('## tool_call · 2026-11-20T09:00:00Z\n\n```json\n{"name": "x"}\n```\n')
    )
    assert t.messages[0].kind == "tool_call"


def test_format_rejects_unknown_kind():
    with pytest.raises(TranscriptError, match="kind 'robot'"):
        format_transcript(
            [Message("robot", "2026-11-20T09:00:00Z", "x")], owner="a", session_id="s"
        )


def test_format_rejects_session_id_with_whitespace():
    with pytest.raises(TranscriptError, match="session 'a b'"):
        format_transcript([], owner="main", session_id="a b")


def test_all_kinds_are_documented_in_order():
    assert KINDS == ("user", "assistant", "system", "tool_call", "tool_result")


# -- the line-by-line reading agrees with markdown-it ---------------------------------------


def _both(text: str):
    """(line-by-line reading or None, markdown-it's reading or the error it raised)."""
    from doctree.sessions.transcripts import _read_plain, markdown_parser

    plain = _read_plain(text.split("\n")) if "\x00" not in text else None
    try:
        full = parse_transcript(text, _md=markdown_parser())
    except TranscriptError as e:
        full = e
    return plain, full


def test_the_formatters_shape_is_read_line_by_line_as_markdown_it_reads_it():
    messages = [
        Message("user", "2026-01-01T00:00:00Z", "Alice owns Apollo.\n\n- a list\n> a quote"),
        Message("assistant", "2026-01-01T00:00:01Z", "## user · 2026-01-01T00:00:00Z"),
        Message("assistant", "2026-01-01T00:00:02Z", "```\nunclosed fence"),
        Message("tool_call", "2026-01-01T00:00:03Z", {"id": "t1", "input": {"q": "x"}}),
        Message("tool_result", "2026-01-01T00:00:04Z", {"content": "```\n## not a heading"}),
        Message("system", "2026-01-01T00:00:05Z", "a \r is kept"),
        Message("user", "2026-01-01T00:00:06Z", ""),
    ]
    text = format_transcript(messages, owner="main", session_id="s-1")
    plain, full = _both(text)
    assert plain is not None and plain == full
    assert list(plain.messages) == messages


@pytest.mark.parametrize(
    "body",
    [
        "<div>\n\n## user · 2026-01-01T00:00:00Z\n\nx",  # an HTML block
        "~~~\n## user · 2026-01-01T00:00:00Z\n~~~",  # a tilde fence swallows the heading
        "  ```\n## user · 2026-01-01T00:00:00Z\n```",  # an indented fence
        "```json\n{}\n```\n[ref]: https://example.com",  # a fence beside a reference
        "# a second title",
        "\t<pre>",
        "```python\nprint()\n```",  # a fence of another language: text, as written
    ],
)
def test_any_other_shape_is_left_to_markdown_it(body):
    text = (
        "# Transcript of session s\n\n- agent: a\n- session: s\n\n"
        f"## user · 2026-01-01T00:00:00Z\n\n{body}\n"
    )
    plain, full = _both(text)
    assert plain is None
    if isinstance(full, Exception):
        with pytest.raises(TranscriptError, match=re.escape(str(full))):
            parse_transcript(text)
    else:
        assert parse_transcript(text) == full


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["user", "tool call", "assistant"]), _markdownish),
        min_size=1,
        max_size=5,
    ),
    st.sampled_from(["", "- started: 2026-01-01T00:00:00Z\n", "- ended: nope\n", "x\n"]),
)
def test_line_by_line_reading_is_markdown_its_or_declines(sections, header):
    # Raw markdown, not the formatter's: whatever the text, the line-by-line reading
    # either gives exactly what markdown-it gives, or declines and markdown-it decides.
    text = "# Transcript of session s\n\n- agent: a\n- session: s\n" + header + "\n"
    for i, (kind, body) in enumerate(sections):
        text += f"## {kind} · 2026-01-01T00:00:0{i}Z\n\n{body}\n\n"
    plain, full = _both(text)
    if plain is not None:
        assert plain == full
    if isinstance(full, Exception):
        with pytest.raises(TranscriptError, match=re.escape(str(full))):
            parse_transcript(text)
    else:
        assert parse_transcript(text) == full


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(_messages, max_size=6))
def test_line_by_line_reading_of_formatted_messages_is_markdown_its(messages):
    text = format_transcript(messages, owner="main", session_id="s-1")
    plain, full = _both(text)
    assert plain is None or plain == full
