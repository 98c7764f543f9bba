"""Path rules: each broken rule raises a PathError naming the input and the rule, and a
write with a bad path (or an oversized body) leaves the database untouched."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doctree.errors import BodyTooLargeError, PathError, UserError
from doctree.store.documents import DocumentsRepository
from doctree.store.paths import (
    HOME,
    MAX_OWNER_LENGTH,
    MAX_PATH_BYTES,
    MAX_SEGMENTS,
    _is_plain,
    _normalize_checked,
    ancestors,
    is_under,
    normalize_path,
    parent_of,
    slugify,
    validate_owner,
)

BAD_PATHS = [
    ("~/memory/../x", "'..' is not allowed"),
    ("~/memory/./x", "'.' is not allowed"),
    ("~/a\x01b", "control characters are not allowed"),
    ("~/a\nb", "control characters are not allowed"),
    ("~/a\x7fb", "control characters are not allowed"),
    ("~/a\x00b", "NUL bytes are not allowed"),
    ("/etc/passwd", "absolute paths are not allowed"),
    ("memory/x", "must start with '~/'"),
    ("", "must not be empty"),
    ("~/a//b", "empty segments"),
    ("~/a b", "is not a slug"),
    ("~/.hidden", "is not a slug"),
    ("~/-dash", "is not a slug"),
    ("~/a/~/b", "'~' may only be the first segment"),
    ("~/" + "/".join(["s"] * (MAX_SEGMENTS + 1)), f"at most {MAX_SEGMENTS} segments"),
    ("~/" + "/".join(["x" * 200] * 6), f"at most {MAX_PATH_BYTES} bytes"),
    ("~/people/\u0430lice", "mixes the letters of two alphabets"),  # Cyrillic a, then Latin
    ("~/people/ok-p\u0430ul", "mixes the letters of two alphabets"),  # in a later word
    ("~/people/\uff41lice", "mixes the letters of two alphabets"),  # a fullwidth a
    ("~/people/\U0001d41alice", "mixes the letters of two alphabets"),  # a mathematical a
    ("~/parts/10k\u03a9", "mixes the letters of two alphabets"),  # a Greek capital omega
]


@pytest.mark.parametrize(("path", "rule"), BAD_PATHS, ids=[r for _, r in BAD_PATHS])
def test_bad_path_raises_path_error_naming_input_and_rule(path, rule):
    with pytest.raises(PathError) as err:
        normalize_path(path)
    assert rule in str(err.value)
    assert str(err.value).startswith(f"path {path!r}"[:40])
    assert err.value.path == path or unicodedata.normalize("NFC", path) == err.value.path


@pytest.mark.parametrize(("path", "rule"), BAD_PATHS, ids=[r for _, r in BAD_PATHS])
def test_write_to_bad_path_writes_nothing(repo, path, rule):
    with pytest.raises(PathError, match=rule.replace(".", r"\.").replace("(", r"\(")):
        repo.write("main", path, "body")
    assert repo.log(None, limit=None) == []
    assert repo.owners() == []


def test_nfc_and_nfd_spellings_name_the_same_document(repo):
    composed = unicodedata.normalize("NFC", "~/café")
    decomposed = unicodedata.normalize("NFD", "~/café")
    assert composed != decomposed
    repo.write("main", decomposed, "one")
    assert repo.read("main", composed).body == "one"
    assert repo.read("main", composed).path == composed


def test_twenty_segments_are_allowed():
    path = "~/" + "/".join(["s"] * MAX_SEGMENTS)
    assert normalize_path(path) == path


def test_path_of_exactly_max_bytes_is_allowed():
    path = "~/" + "/".join(["x" * 200] * 5) + "/" + "y" * 17
    assert len(path.encode()) == MAX_PATH_BYTES
    assert normalize_path(path) == path


def test_segment_over_255_bytes_is_refused():
    with pytest.raises(PathError, match="longer than 255 bytes"):
        normalize_path("~/" + "x" * 256)


def test_trailing_slash_is_dropped():
    assert normalize_path("~/memory/") == "~/memory"
    assert normalize_path("~/") == HOME


def test_non_string_path_is_refused():
    with pytest.raises(PathError, match="must be a string"):
        normalize_path(42)


def test_unicode_letters_and_dots_are_slug_characters():
    assert normalize_path("~/notes/日本語/v1.2_draft-x") == "~/notes/日本語/v1.2_draft-x"


def test_combining_marks_after_the_first_character_are_slug_characters():
    assert normalize_path("~/notes/हिन्दी") == "~/notes/हिन्दी"
    with pytest.raises(PathError, match="is not a slug"):
        normalize_path("~/\u0301x")  # a mark cannot start a segment


def test_writing_the_home_itself_is_refused(repo):
    with pytest.raises(PathError, match="the home '~' is not a document"):
        repo.write("main", "~", "x")


def test_body_over_the_limit_raises_naming_path_size_and_limit(db_path):
    repo = DocumentsRepository(db_path, max_body_bytes=10)
    with pytest.raises(BodyTooLargeError) as err:
        repo.write("main", "~/big", "x" * 11)
    assert "'~/big'" in str(err.value) and "11 bytes" in str(err.value)
    assert "limit is 10 bytes" in str(err.value)
    assert repo.log(None, limit=None) == []
    repo.close()


def test_body_limit_counts_utf8_bytes_not_characters(db_path):
    repo = DocumentsRepository(db_path, max_body_bytes=4)
    repo.write("main", "~/ok", "éé")  # 4 bytes
    with pytest.raises(BodyTooLargeError):
        repo.write("main", "~/big", "ééé")  # 6 bytes
    repo.close()


def test_default_body_limit_is_100_kb(repo):
    repo.write("main", "~/max", "x" * 100_000)
    with pytest.raises(BodyTooLargeError):
        repo.write("main", "~/over", "x" * 100_001)


def test_body_limit_comes_from_the_environment(db_path, monkeypatch):
    monkeypatch.setenv("DOCTREE_MAX_BODY_BYTES", "5")
    repo = DocumentsRepository(db_path)
    with pytest.raises(BodyTooLargeError, match="limit is 5 bytes"):
        repo.write("main", "~/a", "123456")
    repo.close()


def test_nul_in_body_is_refused(repo):
    with pytest.raises(UserError, match="NUL bytes are not allowed in a body"):
        repo.write("main", "~/a", "a\x00b")
    assert repo.log(None, limit=None) == []


def test_bad_owner_is_refused_naming_it():
    with pytest.raises(UserError, match="agent id 'a b'"):
        validate_owner("a b")


def test_parent_ancestors_and_is_under():
    assert parent_of("~/a/b") == "~/a"
    assert parent_of("~/a") == HOME
    assert parent_of(HOME) is None
    assert ancestors("~/a/b/c") == ["~/a", "~/a/b"]
    assert is_under("~/a/b", "~/a") and is_under("~/a", "~/a")
    assert not is_under("~/ab", "~/a")


def test_a_word_that_mixes_look_alike_alphabets_is_refused_naming_both_letters():
    with pytest.raises(PathError) as err:
        normalize_path("~/people/\u0430lice")
    assert "the word '\u0430lice' mixes the letters of two alphabets" in str(err.value)
    assert "U+0430 CYRILLIC SMALL LETTER A with U+006C LATIN SMALL LETTER L" in str(err.value)


@pytest.mark.parametrize(
    "segment",
    ["ольга", "kyiv-київ", "β-blocker", "zoë-müller", "ipad用", "東京-tower", "µs", "ｔｏｋｙｏ"],
)
def test_words_of_one_alphabet_each_and_other_scripts_beside_latin_are_allowed(segment):
    assert normalize_path(f"~/notes/{segment}") == f"~/notes/{segment}"


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("\u0430lice", "\u0430-lice"),
        ("Naïve \u03a9mega", "naïve-\u03c9-mega"),
        ("Kyiv Київ", "kyiv-київ"),
    ],
)
def test_slugify_splits_a_word_where_its_alphabet_changes(text, slug):
    assert slugify(text) == slug
    assert normalize_path("~/" + slugify(text)) == "~/" + slug


def test_slugify_makes_a_valid_segment():
    assert slugify("Alice Smith!") == "alice-smith"
    assert normalize_path("~/" + slugify("  ../weird//name ")) == "~/weird-name"
    assert slugify("???") == "untitled"


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(
    st.lists(
        st.sampled_from(["~", "/", "a", "Z", "0", "_", "-", ".", "..", "é", " ", "\n", "x" * 200]),
        max_size=30,
    ).map("".join)
)
def test_fast_path_agrees_with_the_full_rules(path):
    try:
        expected = _normalize_checked(path)
    except PathError as e:
        with pytest.raises(PathError) as err:
            normalize_path(path)
        assert err.value.rule == e.rule
    else:
        assert normalize_path(path) == expected


def test_bad_body_limit_in_the_environment_is_a_user_error(db_path, monkeypatch):
    monkeypatch.setenv("DOCTREE_MAX_BODY_BYTES", "lots")
    with pytest.raises(UserError, match="DOCTREE_MAX_BODY_BYTES 'lots': must be a whole number"):
        DocumentsRepository(db_path)


def test_non_positive_body_limit_is_refused(db_path):
    with pytest.raises(UserError, match="must be a positive number"):
        DocumentsRepository(db_path, max_body_bytes=0)


# The patterns the checks of a plain path and of an owner stand for: they are tested without
# `re`, which a one-shot read (`doctree read PATH`) does not import.
PLAIN = r"~(?:/[A-Za-z0-9_][A-Za-z0-9_.\-]{0,254}){1,20}"
OWNER = r"[A-Za-z0-9][A-Za-z0-9_.:@\-]*"


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["~", "~/", "/", "//", "a", "Z", "0", "_", "-", ".", "é", "\n", ":", "x" * 120]
        ),
        max_size=45,
    ).map("".join)
)
def test_the_plain_path_check_is_the_pattern_it_stands_for(path):
    assert _is_plain(path) == bool(re.fullmatch(PLAIN, path))


def test_the_plain_path_check_at_its_limits():
    for path in ("~/" + "a" * 255, "~" + "/a" * 20, "~/_a.b-c"):
        assert _is_plain(path) and re.fullmatch(PLAIN, path)
    for path in ("~/" + "a" * 256, "~" + "/a" * 21, "~/-a", "~/.a", "~", "~/a/", "~/a\n"):
        assert not _is_plain(path) and not re.fullmatch(PLAIN, path)


@settings(max_examples=2000, deadline=None)
@given(
    st.one_of(
        st.text(alphabet="aZ09_.:@- /é\n", max_size=12),
        st.text(alphabet="a", min_size=MAX_OWNER_LENGTH - 1, max_size=MAX_OWNER_LENGTH + 1),
    )
)
def test_the_owner_check_is_the_pattern_it_stands_for(owner):
    valid = 0 < len(owner) <= MAX_OWNER_LENGTH and re.fullmatch(OWNER, owner) is not None
    try:
        validate_owner(owner)
    except UserError:
        assert not valid
    else:
        assert valid
