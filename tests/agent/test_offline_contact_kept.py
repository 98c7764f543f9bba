"""A plain sentence whose only specific word is an e-mail or a web address ("My email is
ola@example.org.") is a statement worth a line: it was dropped, a user's line lost. A short
sentence with no such word stays out as before."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


@pytest.mark.parametrize(
    "sentence",
    [
        "My email is wren.o@example.net.",
        "my work email is w.o@firm.example",
        "The sign-up form is at https://example.org/join.",
    ],
)
def test_an_address_to_write_to_is_specific(sentence):
    assert lang.worth_keeping(sentence)


@pytest.mark.parametrize("sentence", ["My email is down.", "Email is fine.", "Write to me?"])
def test_without_one_nothing_changes(sentence):
    assert not lang.worth_keeping(sentence)


def test_the_users_email_is_kept_and_forgotten(repo: DocumentsRepository):
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2031-09-01T10:00:00Z", "My email is wren.o@example.net."),
            ("assistant", "2031-09-01T10:01:00Z", "Noted."),
        ),
    )
    text = "\n".join(d.body for d in repo.documents("main", "~/memory/notes"))
    assert "The user's email is wren.o@example.net." in text
    run(repo, transcript("s-two", ("user", "2031-09-04T10:00:00Z", "Forget my email.")))
    text = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "wren.o@example.net" not in text
