"""Titles and paths under hostile text: a YAML `"\\ud800"` escape (a lone surrogate) in a
frontmatter title, and bidi controls and other invisible format characters (U+202E, U+200B)
that make one name pass for another. Each is one clear error naming the rule (and the code
point), through the library, `doctree write` and `doctree import`; nothing is stored."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from doctree.errors import PathError, TitleError
from doctree.store.paths import invisible_character, strip_invisible

DOCTREE = [sys.executable, "-m", "doctree"]
SURROGATE_TITLE = b'---\ntitle: "\\ud800"\n---\nhello\n'
RLO = "\u202e"


def run(db, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [*DOCTREE, "--db", str(db), *args], input=stdin, capture_output=True, timeout=120
    )


def one_line_error(result: subprocess.CompletedProcess, code: int = 2) -> str:
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == code, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.slow
def test_write_of_a_frontmatter_title_with_a_lone_surrogate_is_one_clear_error(db_path, repo):
    err = one_line_error(run(db_path, "write", "~/memory/x", stdin=SURROGATE_TITLE))
    assert "frontmatter title is not UTF-8 text" in err
    assert repo.get("main", "~/memory/x") is None


@pytest.mark.slow
def test_import_of_a_frontmatter_title_with_a_lone_surrogate_is_one_clear_error(
    db_path, repo, tmp_path
):
    folder = tmp_path / "vault"
    folder.mkdir()
    (folder / "ok.md").write_bytes(b"# Fine\nstays out too\n")
    (folder / "bad.md").write_bytes(SURROGATE_TITLE)
    err = one_line_error(run(db_path, "import", str(folder)))
    assert "frontmatter title is not UTF-8 text" in err
    assert repo.documents("main") == []  # the import is all or nothing


def test_library_write_refuses_a_frontmatter_title_with_a_lone_surrogate(repo):
    with pytest.raises(TitleError, match="not UTF-8"):
        repo.write("a", "~/memory/x", SURROGATE_TITLE.decode())
    assert repo.get("a", "~/memory/x") is None


@pytest.mark.parametrize("hidden", [RLO, "\u2066", "\u200b", "\ufeff", "\u2061"])
def test_a_title_with_a_bidi_control_or_invisible_character_is_refused_naming_it(repo, hidden):
    code = re.escape(f"U+{ord(hidden):04X}")
    with pytest.raises(TitleError, match=code):
        repo.write("a", "~/memory/x", "body", title=f"invoice{hidden}fdp.exe")
    with pytest.raises(TitleError, match=f"frontmatter title holds {code}"):
        repo.write("a", "~/memory/x", f"---\ntitle: 'invoice{hidden}fdp.exe'\n---\nbody\n")
    assert repo.get("a", "~/memory/x") is None


def test_a_title_from_a_heading_drops_the_reordering_character_and_keeps_the_body(repo):
    body = f"# evil{RLO}txt.exe\nhello\n"
    doc = repo.write("a", "~/memory/x", body)
    assert doc.title == "eviltxt.exe"
    assert repo.read("a", "~/memory/x").body == body  # the body is stored as given


def test_a_title_from_a_heading_with_a_lone_surrogate_is_not_a_traceback():
    from doctree.store.model import title_for

    assert title_for("~/x", "# a\ud800b\n") == "a?b"


@pytest.mark.slow
def test_a_path_with_a_bidi_control_is_refused_naming_the_code_point(db_path, repo):
    with pytest.raises(PathError, match="U\\+202E RIGHT-TO-LEFT OVERRIDE"):
        repo.write("a", f"~/memory/gpj{RLO}exe", "x")
    err = one_line_error(run(db_path, "write", f"~/memory/a{RLO}b", stdin=b"hi\n"))
    assert "U+202E RIGHT-TO-LEFT OVERRIDE (a bidi control)" in err


@pytest.mark.parametrize(
    "title",
    [
        "می\u200cخواهم",  # Persian: a zero-width non-joiner inside a word
        "family \U0001f468\u200d\U0001f469\u200d\U0001f467",  # emoji joined by ZWJ
        "\u200fשלום world",  # a right-to-left mark
        "flag \U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # England
    ],
)
def test_joiners_direction_marks_and_flag_tags_stay_allowed_in_titles(repo, title):
    assert repo.write("a", "~/memory/x", "body", title=title).title == title


def test_tag_characters_outside_a_flag_are_invisible_and_refused():
    assert invisible_character("x\U000e0067") is not None
    assert strip_invisible("a\u202eb\u200bc") == "abc"
    assert invisible_character("plain ascii") is None


@pytest.mark.slow
def test_write_of_a_path_whose_word_mixes_look_alike_alphabets_is_one_clear_error(db_path, repo):
    repo.write("main", "~/memory/people/alice", "# Alice\n")
    lookalike = "~/memory/people/\u0430lice"  # a Cyrillic 'а', then Latin letters
    err = one_line_error(run(db_path, "write", lookalike, stdin=b"# Not Alice\n"))
    assert "mixes the letters of two alphabets" in err and "U+0430" in err
    assert [d.path for d in repo.documents("main", "~/memory/people")] == [
        "~/memory/people",
        "~/memory/people/alice",
    ]
