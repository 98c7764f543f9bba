"""`doctree context`: whole documents under a cap, or passages within a word budget."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from doctree.cli import cli

OWNER = "main"

SESSION = """---
date: 2023-05-08
---
# Session 1

- **Ann** [S1:1]: I adopted a puppy yesterday, her name is Pepper.
- **Bob** [S1:2]: Congratulations! What breed is she?
- **Ann** [S1:3]: A beagle. She already chewed my shoes.
- **Bob** [S1:4]: I went hiking in the Alps last weekend.
"""


@pytest.fixture
def filled(repo):
    repo.write(OWNER, "~/memory/archive/session-1", SESSION)
    repo.write(OWNER, "~/memory/people/ann", "# Ann\n\n- Ann has a beagle called Pepper.")
    repo.write(OWNER, "~/memory/notes", "# Notes\n\n" + "Unrelated filler words. " * 40)
    return repo


def run(db_path, *args: str):
    return CliRunner().invoke(cli, ["--db", str(db_path), "context", *args])


def test_words_prints_only_the_passages_that_match(db_path, filled):
    result = run(db_path, "--query", "What breed is Ann's puppy?", "--words", "60")
    assert result.exit_code == 0, result.output
    assert "**Ann** [S1:3]: A beagle." in result.output
    assert "Unrelated filler" not in result.output
    assert "<!--" not in result.output  # passages, not whole documents


def test_words_output_stays_within_the_budget(db_path, filled):
    result = run(db_path, "--query", "Ann puppy beagle hiking", "--words", "25")
    assert result.exit_code == 0, result.output
    assert 0 < len(result.output.split()) <= 25


def test_words_groups_passages_under_a_dated_document_header(db_path, filled):
    result = run(db_path, "--query", "Who adopted a puppy?", "--words", "40")
    assert "## ~/memory/archive/session-1 (2023-05-08)" in result.output


def test_words_json_gives_each_passage_with_path_version_speaker_day_score(db_path, filled):
    filled.write(OWNER, "~/memory/archive/session-1", SESSION + "- **Ann** [S1:5]: Bye!\n")
    result = run(db_path, "--query", "What breed is Ann's puppy?", "--words", "60", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    beagle = next(p for p in data["passages"] if "A beagle." in p["text"])
    assert beagle["path"] == "~/memory/archive/session-1"
    assert beagle["version"] == 2
    assert beagle["speaker"] == "Ann"
    assert beagle["day"] == "2023-05-08"
    assert beagle["score"] > 0
    assert data["mode"] == "passages" and data["words"] <= 60
    assert data["text"].count("A beagle.") == 1


def test_without_words_context_loads_whole_documents(db_path, filled):
    result = run(db_path, "--query", "What breed is Ann's puppy?")
    assert result.exit_code == 0, result.output
    assert "<!-- ~/memory/people/ann v1 -->\n# Ann\n\n- Ann has a beagle called Pepper." in (
        result.output
    )
    assert "\n---\n" in result.output


def test_documents_json_lists_the_loaded_documents_in_order(db_path, filled):
    result = run(db_path, "--query", "beagle Pepper", "--json")
    data = json.loads(result.output)
    paths = [d["path"] for d in data["documents"]]
    assert data["mode"] == "documents" and data["cap"] == 8000
    assert set(paths[:2]) == {"~/memory/people/ann", "~/memory/archive/session-1"}
    assert paths[2] == "~/memory/notes"
    assert data["chars"] == len(data["text"]) <= 8000


def test_words_without_query_is_refused_in_one_line(db_path, filled):
    result = run(db_path, "--words", "100")
    assert result.exit_code == 2
    assert result.output.strip() == (
        "error: --words 100: passage mode needs --query to choose passages"
    )


def test_cap_and_words_together_are_refused(db_path, filled):
    result = run(db_path, "--query", "beagle", "--words", "100", "--cap", "500")
    assert result.exit_code == 2
    assert "--cap 500 and --words 100: give one" in result.output


def test_negative_words_is_a_usage_error(db_path, filled):
    result = run(db_path, "--query", "beagle", "--words", "-3")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_words_with_nothing_relevant_prints_nothing(db_path, filled):
    result = run(db_path, "--query", "volcano eruption", "--words", "100")
    assert result.exit_code == 0 and result.output == ""


def test_words_stays_under_the_given_path(db_path, filled):
    filled.write(OWNER, "~/notes/pets", "Ann's beagle Pepper is three months old.")
    result = run(db_path, "--query", "beagle Pepper", "--words", "200", "--under", "~/notes")
    assert "three months old" in result.output
    assert "~/memory" not in result.output


def test_words_reads_only_the_agents_own_memory(db_path, filled):
    result = CliRunner().invoke(
        cli,
        [
            "--db",
            str(db_path),
            "--owner",
            "other",
            "context",
            "--query",
            "beagle",
            "--words",
            "100",
        ],
    )
    assert result.exit_code == 0 and result.output == ""


def test_help_shows_both_modes_with_examples():
    result = CliRunner().invoke(cli, ["context", "--help"])
    assert "--words N" in result.output
    assert 'doctree context --query "when is the Apollo launch" --words 200' in result.output
