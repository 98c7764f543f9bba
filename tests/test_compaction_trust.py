"""Compaction that can be trusted: the offline condenser loses no line, pages written by hand
are left alone unless asked, the memory root is compacted only when asked for, and one
command (`doctree revert --run N`) puts a compaction back."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from doctree.cli import cli
from doctree.errors import UserError
from doctree.interop.exchange import import_tree
from doctree.memory.compaction import (
    CompactionPolicy,
    Compactor,
    ExtractiveCondenser,
    SourceDocument,
    line_key,
    link_tokens,
)
from doctree.memory.lines import normal_key
from doctree.memory.revert import revert_run
from doctree.store.documents import Actor, Provenance
from tests.test_readme_tour import tour_lines

OWNER = "main"
MEMORY_AGENT = Actor("memory-agent", OWNER)
PERSON = Actor("user", "alice")


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "DOCTREE_COMPACTION_KEEP"):
        monkeypatch.delenv(name, raising=False)


def compactor(repo):
    return Compactor(repo, condenser="offline")


# -- the offline condenser loses nothing ----------------------------------------------------

words = st.sampled_from(
    ["Alice", "prefers", "tea", "Bob", "moved", "to", "Berlin", "launch", "on", "the", "API"]
)
links = st.sampled_from(
    ["[[~/memory/people/alice]]", "[[~/memory/s/1|s1]]", "[notes](~/memory/notes)"]
)
prefixes = st.sampled_from(["", "- ", "* ", "1. ", "2026-11-18: ", "- 09:02 [decision] ", "## "])


@st.composite
def a_line(draw) -> str:
    text = " ".join(draw(st.lists(words, min_size=1, max_size=5)))
    tail = " ".join(draw(st.lists(links, max_size=2)))
    return (draw(prefixes) + text + (" " + tail if tail else "")).rstrip()


@st.composite
def a_source(draw, i: int) -> SourceDocument:
    lines = draw(st.lists(st.one_of(a_line(), st.just("")), min_size=1, max_size=12))
    title = f"Page {i}"
    heading = [f"# {title}", ""] if draw(st.booleans()) else []
    return SourceDocument(i, f"~/memory/p/page-{i}", title, "\n".join(heading + lines), 1)


@st.composite
def sources(draw) -> list[SourceDocument]:
    n = draw(st.integers(1, 4))
    return [draw(a_source(i)) for i in range(n)]


def sections_of(text: str) -> dict[str, list[str]]:
    """The condensed text's lines by the source link of the section they are in."""
    out: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines():
        if line.startswith("## "):
            found = re.search(r"\[\[([^\]|]*)", line)
            current = found.group(1) if found else ""
            continue
        out.setdefault(current, []).append(line)
    return out


@given(sources())
def test_every_line_of_every_source_is_in_the_condensed_text(srcs):
    """Property: a line that is not a repeat of one kept before is in the output as it was
    (headings two levels down); a repeat is in the line it repeats, with its own links and
    a link to its page when that line is under another page."""
    text = ExtractiveCondenser().condense(srcs, previous=None, under="~/memory/p")
    by_section = sections_of(text)
    everywhere = [ln for lines in by_section.values() for ln in lines]
    for src in srcs:
        mine = by_section.get(src.path, [])
        body_lines = src.body.splitlines()
        if body_lines and body_lines[0] == f"# {src.title}":
            body_lines = body_lines[1:]  # the section's heading names the source
        for line in filter(str.strip, body_lines):
            expected = "##" + line if line.startswith("#") else line
            if expected in mine:
                continue
            key = line_key(line) or normal_key(line)
            found = [o for o in everywhere if (line_key(o) or normal_key(o)) == key]
            assert found, f"{line!r} of {src.path} is missing"
            assert any(
                all(t in o for t in link_tokens(line)) and (o in mine or f"[[{src.path}]]" in o)
                for o in found
            ), f"{line!r} of {src.path}: its links or its page are lost in {found}"


def test_a_repeated_line_is_said_once():
    fact = "Bob moved to Berlin in the spring, with his family and the two cats."
    srcs = [
        SourceDocument(1, "~/memory/p/a", "A", f"- {fact}\n- Alice likes tea", 1),
        SourceDocument(2, "~/memory/p/b", "B", f"- {fact.lower()}\n- Bob is new", 1),
    ]
    text = ExtractiveCondenser().condense(srcs, previous=None, under="~/memory/p")
    assert text.lower().count("bob moved to berlin") == 1
    assert f"- {fact} (also [[~/memory/p/b]])" in text
    assert "- Bob is new" in text and "- Alice likes tea" in text


def test_recompaction_keeps_every_line_of_the_earlier_condensed_text(repo):
    for i in range(3):
        repo.write(
            OWNER,
            f"~/memory/p/n{i}",
            f"- fact {i} one\n- fact {i} two\n",
            provenance=Provenance(MEMORY_AGENT),
        )
    compactor(repo).compact(OWNER, "~/memory/p")
    repo.write(
        OWNER,
        "~/memory/p/n9",
        "- fact 9 one\n(a remark in brackets)\n",
        provenance=Provenance(MEMORY_AGENT),
    )
    compactor(repo).compact(OWNER, "~/memory/p")
    body = repo.read(OWNER, "~/memory/p/compacted").body
    for i in (0, 1, 2, 9):
        assert f"- fact {i} one" in body
    assert "(a remark in brackets)" in body


# -- pages written by hand ------------------------------------------------------------------


def seed(repo):
    repo.write(
        OWNER,
        "~/memory/people/bob",
        "# Bob\n\n- Bob moved to Berlin.\n",
        provenance=Provenance(MEMORY_AGENT),
    )
    repo.write(
        OWNER,
        "~/memory/people/carol",
        "# Carol\n\n- Carol leads QA.\n",
        provenance=Provenance(MEMORY_AGENT),
    )
    repo.write(
        OWNER, "~/memory/people/alice", "# Alice\n\nLikes tea.\n", provenance=Provenance(PERSON)
    )


def test_a_page_a_person_wrote_is_skipped_and_said_so(repo):
    seed(repo)
    result = compactor(repo).compact(OWNER, "~/memory/people")
    assert result.status == "compacted"
    assert result.skipped == ["~/memory/people/alice"]
    assert repo.read(OWNER, "~/memory/people/alice").version == 1
    assert "Likes tea" not in repo.read(OWNER, "~/memory/people/compacted").body
    assert sorted(result.retired) == ["~/memory/people/bob", "~/memory/people/carol"]


def test_a_memory_agent_page_a_person_edited_is_skipped(repo):
    seed(repo)
    repo.write(
        OWNER,
        "~/memory/people/bob",
        "# Bob\n\n- Bob moved to Munich.\n",
        provenance=Provenance(PERSON),
    )
    result = compactor(repo).compact(OWNER, "~/memory/people")
    assert "~/memory/people/bob" in result.skipped


def test_pages_written_by_hand_are_condensed_when_asked(repo):
    seed(repo)
    result = compactor(repo).compact(OWNER, "~/memory/people", include_hand_written=True)
    assert result.skipped == []
    assert "Likes tea." in repo.read(OWNER, "~/memory/people/compacted").body
    assert not repo.exists(OWNER, "~/memory/people/alice")


def test_imported_pages_are_skipped(repo, tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "recipe.md").write_text("# Recipe\n\nTwo eggs.\n", encoding="utf-8")
    (tmp_path / "in" / "list.md").write_text("# List\n\n- milk\n", encoding="utf-8")
    import_tree(repo, OWNER, tmp_path / "in", under="~/memory/imported")
    result = compactor(repo).compact(OWNER, "~/memory/imported")
    assert result.status == "nothing"
    assert result.skipped == ["~/memory/imported/list", "~/memory/imported/recipe"]


def test_a_page_restored_by_a_person_stays_the_memory_agents(repo):
    """Putting back a compaction is not writing by hand: the pages can be compacted again."""
    seed(repo)
    result = compactor(repo).compact(OWNER, "~/memory/people")
    revert_run(repo, result.run_id, actor=PERSON)
    again = compactor(repo).compact(OWNER, "~/memory/people")
    assert sorted(again.retired) == ["~/memory/people/bob", "~/memory/people/carol"]


def test_a_parent_of_a_page_written_by_hand_is_not_retired(repo):
    for name in ("x", "y", "z"):
        repo.write(
            OWNER,
            f"~/memory/t/{name}",
            f"# {name}\n\n- {name} one\n",
            provenance=Provenance(MEMORY_AGENT),
        )
    repo.write(OWNER, "~/memory/t/y/mine", "# Mine\n\n- my note\n", provenance=Provenance(PERSON))
    result = compactor(repo).compact(OWNER, "~/memory/t")
    assert result.retired == ["~/memory/t/x", "~/memory/t/z"]
    assert result.skipped == ["~/memory/t/y/mine"]
    assert repo.read(OWNER, "~/memory/t/y").version == 1
    assert "y one" not in repo.read(OWNER, "~/memory/t/compacted").body


def test_compact_command_names_the_pages_it_skipped(db_path, repo):
    seed(repo)
    result = CliRunner().invoke(
        cli, ["--db", str(db_path), "compact", "~/memory/people", "--backend", "offline", "--yes"]
    )
    assert result.exit_code == 0, result.output
    assert "skipped 1 page(s) written by hand: ~/memory/people/alice" in result.output
    assert "--include-hand-written" in result.output
    assert "undo: doctree revert --run " in result.output


# -- the memory root -------------------------------------------------------------------------


@pytest.mark.parametrize("root", ["~/memory", "~"])
def test_compacting_the_memory_root_is_refused(repo, root):
    seed(repo)
    with pytest.raises(UserError, match="--whole-memory"):
        compactor(repo).compact(OWNER, root)
    assert not repo.exists(OWNER, "~/memory/compacted")


def test_compact_command_refuses_the_memory_root_in_one_line(db_path, repo):
    seed(repo)
    result = CliRunner().invoke(cli, ["--db", str(db_path), "compact", "~/memory"])
    assert result.exit_code == 2
    assert result.output.startswith("error: compact ~/memory: that is the whole memory")
    assert len(result.output.strip().splitlines()) == 1
    assert repo.read(OWNER, "~/memory/people/bob").version == 1


def test_the_whole_memory_is_compacted_when_asked(db_path, repo):
    seed(repo)
    result = CliRunner().invoke(
        cli,
        [
            "--db",
            str(db_path),
            "compact",
            "~/memory",
            "--whole-memory",
            "--backend",
            "offline",
            "--yes",
        ],
    )
    assert result.exit_code == 0, result.output
    assert repo.exists(OWNER, "~/memory/compacted")
    assert repo.exists(OWNER, "~/memory/people/alice")  # still written by hand


def test_the_workers_policy_compacts_the_root_it_names(repo):
    seed(repo)
    shared = "".join(
        f"- Step {i}: Bob and Carol run the Tuesday review of the launch checklist with QA, "
        "then send the notes to the whole team and file the open questions for Friday.\n"
        for i in range(8)
    )
    for name in ("x", "y", "z"):
        repo.write(
            OWNER,
            f"~/memory/log/{name}",
            f"# {name}\n\n{shared}",
            provenance=Provenance(MEMORY_AGENT),
        )
    result = Compactor(repo, condenser="offline", policy=CompactionPolicy(threshold=10))
    assert result.maybe_compact(OWNER).status == "compacted"


def test_the_readme_tour_never_compacts_the_root():
    compacts = [ln.split("#")[0].split() for ln in tour_lines() if ln.startswith("doctree compact")]
    assert compacts, "the tour shows compact"
    for words in compacts:
        paths = [w for w in words[2:] if w.startswith("~")]
        assert paths and all(p.rstrip("/") not in ("~", "~/memory") for p in paths), words
        assert "--whole-memory" not in words


# -- one command puts a compaction back ------------------------------------------------------


def doctree(db, *args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    return subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def confirmed(db, command: str) -> list[str]:
    """`--yes` where the command asks before it changes anything (no terminal here)."""
    return ["--yes"] if "--yes" in doctree(db, command, "--help").stdout else []


def test_revert_of_a_compactions_run_puts_every_source_back(db_path, repo):
    seed(repo)
    repo.write(
        OWNER,
        "~/memory/people/dan",
        "# Dan\n\n- Bob moved to Berlin.\n",
        provenance=Provenance(MEMORY_AGENT),
    )
    repo.write(
        OWNER,
        "~/memory/people/teams/qa",
        "- Carol leads QA.\n",
        provenance=Provenance(MEMORY_AGENT),
    )
    before = {d.path: (d.id, d.body) for d in repo.documents(OWNER)}

    done = doctree(
        db_path, "compact", "~/memory/people", "--backend", "offline", "--json",
        *confirmed(db_path, "compact"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "compacted" and len(result["retired"]) == 5  # with teams
    assert not repo.exists(OWNER, "~/memory/people/bob")

    back = doctree(db_path, "revert", "--run", str(result["run_id"]), *confirmed(db_path, "revert"))
    assert back.returncode == 0, back.stderr
    assert not repo.exists(OWNER, "~/memory/people/compacted")
    assert {d.path: (d.id, d.body) for d in repo.documents(OWNER)} == before


def test_a_person_editing_the_condensed_page_keeps_the_edit_through_the_next_pass(repo):
    seed(repo)
    compactor(repo).compact(OWNER, "~/memory/people")
    target = "~/memory/people/compacted"
    edited = repo.read(OWNER, target).body.replace(
        "## Sources", "- Bob speaks German.\n\n## Sources"
    )
    repo.write(OWNER, target, edited, provenance=Provenance(PERSON))
    repo.write(
        OWNER,
        "~/memory/people/erin",
        "# Erin\n\n- Erin joined.\n",
        provenance=Provenance(MEMORY_AGENT),
    )
    result = compactor(repo).compact(OWNER, "~/memory/people")
    assert result.status == "compacted", result.error
    body = repo.read(OWNER, target).body
    assert "- Bob speaks German." in body and "- Erin joined." in body
