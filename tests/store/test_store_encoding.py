"""Encoded storage of bodies: the encoding (full copies and deltas), the full-text index over
the store's own text, and redaction leaving nothing of an erased body anywhere in the file."""

from __future__ import annotations

import random
import sqlite3
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doctree.memory.erase import forget
from doctree.store import encoding
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.rows import decoded_history

OWNER = "a"
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "garden",
    "tea",
    "coffee",
    "river",
    "stone",
    "cloud",
    "paper",
    "lamp",
]


def note(rnd: random.Random, lines: int = 30) -> str:
    return "".join(" ".join(rnd.choice(WORDS) for _ in range(9)) + "\n" for _ in range(lines))


def edit_line(rnd: random.Random, body: str, line: str | None = None) -> str:
    lines = body.splitlines(keepends=True)
    lines[rnd.randrange(len(lines))] = line or note(rnd, 1)
    return "".join(lines)


def stored_values(conn: sqlite3.Connection) -> list[tuple[str, int, int, bytes | None]]:
    rows = [
        ("documents", r[0], 0, r[1]) for r in conn.execute("SELECT id, body_data FROM documents")
    ]
    rows += [
        ("document_versions", r[0], r[1], r[2])
        for r in conn.execute(
            "SELECT document_id, version, body_data FROM document_versions"
            " ORDER BY document_id, version"
        )
    ]
    return rows


def every_stored_body(conn: sqlite3.Connection) -> list[str]:
    """Every body the file holds, decoded from its stored value, whatever its encoding."""
    out = []
    values = stored_values(conn)
    current = {doc: value for table, doc, _, value in values if table == "documents"}
    chains: dict[int, list[tuple[int, bytes | None]]] = {}
    for table, doc, version, value in values:
        if table == "documents":
            out.append(encoding.decode(value, None))
        elif encoding.is_current(value):  # the current version: the document's own body
            chains.setdefault(doc, []).append((version, current[doc]))
        else:
            chains.setdefault(doc, []).append((version, value))
    for pairs in chains.values():
        out += [t for _, t in encoding.decode_sequence(sorted(pairs)) if t is not None]
    return out


def histories(repo: DocumentsRepository) -> dict[int, list[tuple]]:
    out: dict[int, list[tuple]] = {}
    for v in repo.iter_versions(OWNER):
        out.setdefault(v.document_id, []).append(
            (v.version, v.operation, v.path, v.title, v.body, v.content_sha256, v.size)
        )
    return out


# -- encoding ---------------------------------------------------------------------------------


@given(st.text(max_size=300), st.text(max_size=300), st.integers(min_value=1, max_value=200))
def test_any_text_encodes_against_any_base_and_decodes_exactly(base, text, version):
    value = encoding.encode(text, base, version)
    assert encoding.decode(value, base) == text
    assert encoding.decode(encoding.reencode_after(base, value), None) == text


def test_a_one_line_edit_is_stored_as_a_small_delta():
    rnd = random.Random(1)
    base = note(rnd, 150)
    text = edit_line(rnd, base)
    value = encoding.encode(text, base, 2)
    assert not encoding.is_full(value)
    assert len(value) < 120
    assert encoding.decode(value, base) == text


def test_an_older_version_packs_its_delta_with_the_next_text_as_dictionary():
    """A line put back by the delta of an older version is made of words the next version
    holds: packed with that text as DEFLATE's preset dictionary, the delta is well under
    the one packed alone, and decodes exactly against the next text only."""
    rnd = random.Random(3)
    newer = note(rnd, 150)
    older = edit_line(rnd, newer)
    value = encoding.encode_older(older, newer, 2)
    assert value[0] == encoding.NEXT_DICT
    assert encoding.needs_next(value) and not encoding.is_full(value)
    ops = encoding._inflate(value[1:], encoding._dictionary(newer))
    alone = encoding._deflate(ops)  # the same ops packed without a dictionary
    assert len(value) <= 0.7 * (1 + len(alone)), (len(value), len(alone))
    assert encoding.decode(value, newer) == older
    with pytest.raises(encoding.EncodingError, match="no next version"):
        encoding.decode(value, None)
    with pytest.raises(encoding.EncodingError, match="damaged"):
        encoding.decode(value[:-2], newer)  # a truncated value is an error, not garbage


def test_scattered_edits_in_a_long_body_copy_the_unchanged_lines():
    rnd = random.Random(2)
    base = note(rnd, 200)
    lines = base.splitlines(keepends=True)
    lines[10], lines[190] = "first change\n", "second change\n"
    text = "".join(lines)
    value = encoding.encode(text, base, 2)
    assert len(value) < 200 and encoding.decode(value, base) == text


# Lengths where a stream stops fitting one window size and needs the next (zlib's reach is
# the window less 262 bytes), and a few either side.
_EDGES = [(1 << b) - 262 + d for b in range(9, 16) for d in (-2, -1, 0, 1, 2)]


@st.composite
def _streams(draw, most: int = 34_000) -> bytes:
    """Bytes of a few words repeated (DEFLATE finds matches at every distance), as long
    as a window's edge or any length."""
    words = draw(st.lists(st.binary(min_size=1, max_size=9), min_size=1, max_size=12))
    size = draw(st.one_of(st.sampled_from(_EDGES), st.integers(0, most)))
    seed = draw(st.integers(0, 2**32))
    rnd = random.Random(seed)
    out = bytearray()
    while len(out) < size:
        out += rnd.choice(words)
    return bytes(out[:size])


@given(_streams())
def test_a_body_is_packed_to_the_bytes_of_the_full_window(data):
    """A body gets a window sized to it, and the very bytes the 32 KB window gives: what
    is stored does not depend on the window chosen."""
    assert encoding._deflate(data) == zlib.compress(data, encoding.LEVEL, -15)
    assert encoding._inflate(encoding._deflate(data)) == data


@given(_streams(most=6_000), _streams(most=encoding.DICTIONARY))
def test_a_delta_is_packed_to_the_bytes_of_the_full_window(data, dictionary):
    full = zlib.compressobj(encoding.LEVEL, zlib.DEFLATED, -15, zdict=dictionary)
    packed = encoding._deflate_with(data, dictionary)
    assert packed == full.compress(data) + full.flush()
    assert encoding._inflate(packed, dictionary) == data


def test_a_short_body_is_packed_with_a_window_of_its_size(monkeypatch):
    """Setting up the 32 KB window's state was most of a short body's DEFLATE: a body of a
    few hundred bytes, and a delta with its dictionary, get the smallest window that holds
    them."""
    windows: list[tuple[str, int]] = []
    compress, compressobj = zlib.compress, zlib.compressobj

    def recording_compress(data, level, wbits):
        windows.append(("body", wbits))
        return compress(data, level, wbits)

    def recording_compressobj(level, method, wbits, *args, **kwargs):
        windows.append(("delta", wbits))
        return compressobj(level, method, wbits, *args, **kwargs)

    monkeypatch.setattr(encoding.zlib, "compress", recording_compress)
    monkeypatch.setattr(encoding.zlib, "compressobj", recording_compressobj)
    rnd = random.Random(5)
    body = note(rnd, 10)
    assert 512 - 262 < len(body) <= 1024 - 262  # held by a 1 KB window, not by 512 bytes
    assert encoding.decode(encoding.encode_full(body), None) == body
    assert windows == [("body", -10)]
    newer = note(rnd, 200)  # the dictionary is its last 4 KB
    older = edit_line(rnd, newer)
    windows.clear()
    assert (
        encoding.decode(encoding._encode_delta(newer, older, encoding.NEXT_PLAIN), newer) == older
    )
    assert windows == [("delta", -13)]  # 4 KB of dictionary and a few ops: 8 KB
    huge = note(rnd, 1000)  # more than the largest window holds
    windows.clear()
    assert encoding.decode(encoding.encode_full(huge), None) == huge
    assert windows == [("body", -15)]


def test_keyframes_bound_the_rows_a_read_needs():
    assert [encoding.is_keyframe(v) for v in (1, 2, encoding.CHAIN, encoding.CHAIN + 1)] == [
        True,
        False,
        False,
        True,
    ]
    for v in range(1, 200):
        assert v - encoding.chain_start(v) < encoding.CHAIN
        assert encoding.is_keyframe(encoding.chain_start(v))


def test_a_damaged_value_is_an_error_not_garbage():
    with pytest.raises(encoding.EncodingError):
        encoding.decode(b"\x01not deflate", None)
    with pytest.raises(encoding.EncodingError):
        encoding.decode(b"\x09", None)
    with pytest.raises(encoding.EncodingError, match="no previous version"):
        long = "a line of text that repeats\n" * 20
        encoding.decode(encoding.encode(long + "more", long, 2), None)


# -- the store ----------------------------------------------------------------------------------


def test_a_long_history_reads_back_exactly_and_sizes_are_of_the_plain_text(repo):
    rnd = random.Random(3)
    bodies = [note(rnd, 40)]
    while len(bodies) < 3 * encoding.CHAIN + 5:
        line = "ünïcode line 🙂\n" if rnd.random() < 0.2 else None
        if (body := edit_line(rnd, bodies[-1], line)) != bodies[-1]:
            bodies.append(body)
    for b in bodies:
        repo.write(OWNER, "~/doc", b)
    got = repo.history(OWNER, "~/doc")
    assert [v.body for v in got] == bodies
    assert [repo.read(OWNER, "~/doc", version=n).body for n in range(1, len(bodies) + 1)] == bodies
    assert all(v.size == len(v.body.encode()) for v in got)
    keyframes = sum(
        encoding.is_full(r[0]) for r in repo.conn.execute("SELECT body_data FROM document_versions")
    )
    assert keyframes == 4  # versions 1, 33, 65, 97: every other version is a delta
    assert [v.body for v in repo.log(OWNER, limit=None)][::-1] == bodies


def test_iter_versions_decodes_every_version_under_a_path(repo):
    repo.write(OWNER, "~/x/a", "one")
    repo.write(OWNER, "~/x/a", "one two")
    repo.write(OWNER, "~/y", "elsewhere")
    repo.move(OWNER, "~/y", "~/x/y")
    got = [(v.path, v.version, v.body) for v in repo.iter_versions(OWNER, "~/x")]
    assert got == [
        ("~/x", 1, ""),
        ("~/x/a", 1, "one"),
        ("~/x/a", 2, "one two"),
        ("~/x/y", 2, "elsewhere"),
    ]


@pytest.mark.sqlite_only
def test_the_full_text_index_holds_no_copy_of_the_bodies(repo):
    repo.write(OWNER, "~/n", "a garden of tea")
    tables = {r[0] for r in repo.conn.execute("SELECT name FROM sqlite_master")}
    assert "documents_fts_content" not in tables
    [hit] = repo.search(OWNER, "garden")
    assert hit.path == "~/n" and hit.snippet == "a [garden] of tea"


# -- redaction leaves nothing behind --------------------------------------------------------------

SECRET = "zanzibar-otter-7731-quokkapass"
TOKENS = [b"zanzibar", b"quokkapass", SECRET.encode()]


def file_bytes(repo: DocumentsRepository) -> bytes:
    repo.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = repo.path.read_bytes()
    wal = repo.path.with_name(repo.path.name + "-wal")
    return data + (wal.read_bytes() if wal.exists() else b"")


def assert_secret_gone(repo: DocumentsRepository) -> None:
    if repo.path is not None:  # SQLite: its file's bytes (a server's files are its own)
        data = file_bytes(repo)
        for token in TOKENS:
            assert token not in data
    assert not any(SECRET in body for body in every_stored_body(repo.conn))
    assert repo.search(OWNER, "zanzibar quokkapass") == []


def test_redacting_a_version_others_are_deltas_of_erases_it_and_keeps_them(repo):
    rnd = random.Random(8)
    bodies = [note(rnd)]
    bodies.append(edit_line(rnd, bodies[-1], f"the code is {SECRET}\n"))
    bodies.append(bodies[-1].replace(f"the code is {SECRET}\n", "no code here\n"))
    for _ in range(10):
        bodies.append(edit_line(rnd, bodies[-1]))
    for b in bodies:
        repo.write(OWNER, "~/doc", b)
    assert any(SECRET in b for b in every_stored_body(repo.conn))

    repo.erase_version(OWNER, "~/doc", 2, provenance=Provenance(Actor("user", "admin")))

    history = repo.history(OWNER, "~/doc")
    assert [v.body for v in history[:13]] == [bodies[0], None, *bodies[2:]]
    assert_secret_gone(repo)


def test_forget_across_keyframes_and_a_deleted_document_leaves_no_copy(repo):
    rnd = random.Random(9)
    body = note(rnd)
    repo.write(OWNER, "~/keep", body)
    for k in range(encoding.CHAIN + 8):  # the secret lives in versions 2..12 and 30..40
        line = f"noted {SECRET} line\n" if k < 11 or 28 <= k < 39 else None
        body = edit_line(rnd, body, line) if line else body.replace(f"noted {SECRET} line\n", "")
        body = edit_line(rnd, body) if not line else body
        repo.write(OWNER, "~/keep", body)
    repo.write(OWNER, "~/gone", f"only {SECRET}")
    repo.write(OWNER, "~/gone", f"only {SECRET} and more")
    repo.delete(OWNER, "~/gone")

    report = forget(repo, OWNER, SECRET, actor=Actor("user", "admin"))

    assert report.rewritten > 10
    for v in repo.history(OWNER, "~/keep"):
        assert v.body is None or SECRET not in v.body
        if v.body is not None:
            assert len(v.body.encode()) == v.size
    assert not repo.exists(OWNER, "~/gone")
    assert_secret_gone(repo)


# -- one document's chain under any edits and redactions -------------------------------------------

LONG = "".join(f"line {i * 104729 % 1009} of the note\n" for i in range(40))
OPS = st.lists(
    st.one_of(
        st.tuples(
            st.just("edit"),
            st.integers(0, len(LONG)),
            st.integers(0, 30),
            st.text(alphabet="xyz é\n🙂", max_size=20),
        ),
        st.tuples(st.just("redact"), st.integers(0, 6)),
        st.tuples(st.just("delete")),
        st.tuples(st.just("restore"), st.integers(0, 6)),
    ),
    max_size=40,
)


@given(OPS)
def test_any_edits_and_redactions_of_one_document_read_back_exactly(tmp_path_factory, ops):
    """With a full copy every 4 versions, any mix of small edits, redactions (of versions that
    later ones are deltas of), deletes and restores reads back byte for byte."""
    saved, encoding.CHAIN = encoding.CHAIN, 4
    tmp = tmp_path_factory.mktemp("chain")
    try:
        with DocumentsRepository(tmp / "s.db") as repo:
            repo.write(OWNER, "~/d", LONG)
            want: list[str | None] = [LONG]  # what each version reads back
            content = [LONG]  # what each version held when it was made
            kinds = ["created"]
            live = True

            def append(body: str, kind: str) -> None:
                want.append(body)
                content.append(body)
                kinds.append(kind)

            for op in ops:
                if op[0] == "edit" and live:
                    _, at, cut, text = op
                    cur = content[-1]
                    body = cur[:at] + text + cur[at + cut :]
                    if body != cur:
                        repo.write(OWNER, "~/d", body)
                        append(body, "modified")
                elif op[0] == "redact":
                    version = max(1, len(want) - op[1])
                    erased = content[version - 1]
                    # the current state is emptied too when it holds the redacted content;
                    # a version erased before holds nothing to compare (its digest is gone)
                    held = want[version - 1] is not None
                    current = version == len(want) or (held and erased == content[-1])
                    repo.erase_version(OWNER, "~/d", version)
                    want[version - 1] = None
                    # earlier redactions that carried it (a version erased already holds
                    # nothing more to erase: the same content made current again since, by a
                    # restore, is not what was erased)
                    for i, kind in enumerate(kinds):
                        if held and kind == "redacted" and content[i] == erased and erased:
                            want[i] = None
                    append("" if current else content[-1], "redacted")
                elif op[0] == "delete" and live:
                    repo.delete(OWNER, "~/d")
                    append(content[-1], "deleted")
                    live = False
                elif op[0] == "restore":
                    version = max(1, len(want) - op[1])
                    old = repo.version(1, version)
                    if old.body is not None and not old.deleted:
                        repo.restore(OWNER, "~/d", version)
                        append(old.body, "restored")
                        live = True
            got = [v.body for v in repo.history(OWNER, "~/d")]
            assert got == want
            assert [repo.version(1, n).body for n in range(1, len(want) + 1)] == want
            assert [v.body for v in repo.iter_versions(OWNER)] == want
    finally:
        encoding.CHAIN = saved


# -- chains of random edits, at the encoding level ------------------------------------------------

# Long enough that copy offsets and lengths take one, two and three varint bytes.
HUGE = "".join(f"row {i * 7919 % 4099} é of the long note\n" for i in range(700))
EDITS = st.lists(
    st.tuples(
        st.floats(0, 1),  # where, as a fraction of the body
        st.integers(0, 400),  # characters cut there
        st.text(alphabet="ab \né🙂\u00a0", max_size=300),  # text put in their place
    ),
    min_size=1,
    max_size=12,
)


@given(st.sampled_from(["", "x", LONG, HUGE]), EDITS, st.integers(1, 5))
def test_any_chain_of_edits_decodes_exactly_from_every_keyframe(start, edits, chain):
    """A body edited anywhere, encoded version after version as the store does (a full copy
    every `chain` versions), decodes byte for byte: by `decode_sequence` from each version's
    chain start, and by one forward pass over the whole history (`decoded_history`)."""
    texts = [start]
    for where, cut, put in edits:
        cur = texts[-1]
        at = int(where * len(cur))
        texts.append(cur[:at] + put + cur[at + cut :])
    saved, encoding.CHAIN = encoding.CHAIN, chain
    try:
        values = [
            encoding.encode(t, texts[v - 2] if v > 1 else None, v)
            for v, t in enumerate(texts, start=1)
        ]
        for v in range(1, len(texts) + 1):
            lo = encoding.chain_start(v)
            assert encoding.is_full(values[lo - 1])
            pairs = [(k, values[k - 1]) for k in range(lo, v + 1)]
            assert list(encoding.decode_sequence(pairs))[-1] == (v, texts[v - 1])
    finally:
        encoding.CHAIN = saved
    rows = [
        (v, 1, OWNER, v, "modified", "~/d", "d", 0, "user", OWNER, None, None, "t", None, None, 0,
         value)
        for v, value in enumerate(values, start=1)
    ]  # fmt: skip
    assert [v.body for v in decoded_history(rows)] == texts
    gap = rows[:1] + rows[2:]
    if len(gap) > 1:
        with pytest.raises(encoding.EncodingError, match="not consecutive"):
            decoded_history(gap)


WIDE = "".join(
    f"row {i * 7919 % 4099} é🙂 of a note longer than the dictionary\n" for i in range(300)
)


@given(st.sampled_from(["", "x", LONG, HUGE, WIDE]), EDITS, st.integers(1, 5))
def test_any_chain_of_edits_stored_against_the_next_version_decodes_exactly(start, edits, chain):
    """As the store keeps a history (the newest text whole, each older one as `encode_older`
    makes it against the one after it, a full copy closing each block of `chain`), every
    version decodes byte for byte from its block, also from a text whose UTF-8 is longer
    than the dictionary (`WIDE`, non-ASCII: the dictionary's first character may be cut)."""
    texts = [start]
    for where, cut, put in edits:
        cur = texts[-1]
        at = int(where * len(cur))
        texts.append(cur[:at] + put + cur[at + cut :])
    saved, encoding.CHAIN = encoding.CHAIN, chain
    try:
        n = len(texts)
        values = [encoding.encode_older(texts[v - 1], texts[v], v) for v in range(1, n)]
        values.append(encoding.encode_full(texts[-1]))  # the current body
        decoded = dict(encoding.decode_sequence(enumerate(values, start=1)))
        assert [decoded[v] for v in range(1, n + 1)] == texts
        for v in range(1, n + 1):
            lo, hi = encoding.block(v)
            pairs = [(k, values[k - 1]) for k in range(lo, min(hi, n) + 1)]
            assert dict(encoding.decode_sequence(pairs))[v] == texts[v - 1]
    finally:
        encoding.CHAIN = saved
