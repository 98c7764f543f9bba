"""A request to keep something, said before it ("make a note that …", "put down that …"), is
not part of what is kept: the line says what was asked to be kept, as "remember that …"
already did."""

from __future__ import annotations

import pytest

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY = "2031-05-05T10:00:00Z"


def pages(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Make a note that the gym closes at 9.", "The gym closes at 9."),
        ("Also put down that the recycling goes out on Thursdays.",
         "The recycling goes out on Thursdays."),
        ("Jot down that the spare fuse is in the hall drawer.",
         "The spare fuse is in the hall drawer."),
    ],
)  # fmt: skip
def test_a_request_to_keep_is_not_written_with_what_it_keeps(repo, said, kept):
    run(repo, transcript("s-keep", ("user", DAY, said), ("assistant", DAY, "Noted.")))
    text = pages(repo)
    assert kept in text, text
    facts = [ln for ln in text.split("\n") if ln.startswith("- ") and "`" not in ln]
    assert facts and not any("note that" in f.lower() or "down that" in f.lower() for f in facts)
