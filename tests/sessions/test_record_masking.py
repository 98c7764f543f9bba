"""A record's content is masked before it is written: every string of a tool call's JSON,
keys included. The encoding is tested once for the words a secret needs (`_masked_json`),
and must give what masking each string gives."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from doctree.sessions.records import _masked_json
from doctree.sessions.repository import SessionsRepository
from doctree.store import secrets
from doctree.store.secrets import mask_value

#: Pieces the strings are made of: words some secret needs, secrets' shapes, what JSON
#: escapes, letters whose lower case is not one letter or depends on its neighbours.
PIECES = [
    "password",
    "Password is ",
    "api key: ",
    "token=",
    "pin ",
    "card ",
    "https://",
    "user:",
    "Tr0ub4dor&3xyz",
    "sk-ant-" + "a1B2c3D4e5F6g7H8i9J0kLmN",
    "4111 1111 1111 1111",
    "123456",
    " ",
    "\n",
    '"',
    "\\",
    "\x01",
    "Σ",
    "ΑΣ",
    "κωδικός ",
    "ΚΩΔΙΚΌΣ ",
    "İ",
    "é",
    "the launch is on Friday",
]

texts = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
values = st.recursive(
    texts | st.integers() | st.booleans() | st.none(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=400, deadline=None)
@given(values)
def test_a_records_json_is_what_masking_each_of_its_strings_gives(value):
    assert _masked_json(value) == json.dumps(mask_value(value), ensure_ascii=False)


def test_no_word_a_secret_needs_is_one_json_escapes():
    """What lets one test of the encoding stand for a test of each string."""
    for word in secrets._ALL_WORDS:  # noqa: SLF001 - the gate's words
        assert json.dumps(word, ensure_ascii=False) == f'"{word}"', word


def test_a_secret_in_a_tool_calls_key_or_nested_value_is_stored_as_its_marker(tmp_path):
    with SessionsRepository(tmp_path / "s.db") as s:
        s.create("main", "s1")
        s.append_many(
            "s1",
            [
                (
                    "tool_call",
                    {"id": "t1", "input": {"q": ["login", "password is Tr0ub4dor&3xyz"]}},
                    None,
                ),
                ("tool_result", {"password is Tr0ub4dor&3xyz": "ok", "note": "ΑΣ"}, None),
                ("tool_call", {"id": "t2", "input": {"q": "the launch is on Friday"}}, None),
            ],
        )
        rows = [r[0] for r in s.conn.execute("SELECT content FROM session_history ORDER BY id")]
    assert all("Tr0ub4dor" not in r for r in rows)
    assert "[secret: password]" in rows[0] and "[secret: password]" in rows[1]
    assert json.loads(rows[2]) == {"id": "t2", "input": {"q": "the launch is on Friday"}}


# -- a value given in reply to a question for a secret ----------------------------------

#: (the text before, the reply, what of the reply must not be stored)
ANSWERED = [
    ("Great. What's the code for the key safe?", "4471", "4471"),
    ("Thanks. And the wifi password?", "kettle42pond", "kettle42pond"),
    ("my bank PIN is", "8823", "8823"),
    ("Could you send me the alarm code?", "it's 7 3 0 1, thanks", "7 3 0"),
    ("Can you remind me what the gate code is?", "Sure: 2219", "2219"),
    ("door code:", "1-9-8-4", "1-9-8-4"),
]
#: Replies to a text that asks for no secret, or about something else than its value.
NOT_ANSWERED = [
    ("I changed the door code.", "1984 was a great year"),
    ("What year did you change the door code?", "2019"),
    ("How long is the gate code?", "4 digits"),
    ("What's your password manager?", "1Password"),
    ("When does the parcel arrive?", "4471 is the order number"),
]


def _stored(tmp_path, records, *, one_by_one: bool) -> list[str]:
    with SessionsRepository(tmp_path / "s.db") as s:
        s.create("main", "s1")
        if one_by_one:
            for kind, content in records:
                s.append_history("s1", kind, content)
        else:
            s.append_many("s1", [(kind, content, None) for kind, content in records])
        return [
            json.loads(r[0])
            for r in s.conn.execute("SELECT content FROM session_history ORDER BY id")
        ]


def test_a_value_given_in_reply_to_a_question_for_a_secret_is_stored_as_its_marker(tmp_path):
    for i, (lead, reply, value) in enumerate(ANSWERED):
        for one_by_one in (True, False):
            where = tmp_path / f"{i}-{one_by_one}"
            where.mkdir()
            kind = "user" if lead.endswith(("is", ":")) else "assistant"
            stored = _stored(where, [(kind, lead), ("user", reply)], one_by_one=one_by_one)
            assert stored[0] == lead, lead
            assert value not in stored[1] and "[secret: " in stored[1], (lead, reply, stored)


def test_a_tool_call_between_the_question_and_the_reply_changes_nothing(tmp_path):
    stored = _stored(
        tmp_path,
        [
            ("assistant", "What's the code for the key safe?"),
            ("tool_call", {"id": "t1", "input": {"q": "key safe"}}),
            ("user", "4471"),
        ],
        one_by_one=False,
    )
    assert stored[2] == "[secret: pin]"


def test_a_reply_to_a_text_that_asks_for_no_secret_is_stored_as_it_is(tmp_path):
    for i, (lead, reply) in enumerate(NOT_ANSWERED):
        for one_by_one in (True, False):
            where = tmp_path / f"{i}-{one_by_one}"
            where.mkdir()
            stored = _stored(where, [("assistant", lead), ("user", reply)], one_by_one=one_by_one)
            assert stored == [lead, reply], lead
