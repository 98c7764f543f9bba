"""When the user pastes a log or a config and asks about it, what the assistant's answer
reads out of it (a host, a port, a version) is found, as a tool's result is: kept when the
user's reply takes it ("ugh, yes", "yes"), left out when the reply turns it down or nothing
was asked."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

PASTE = "```\n[mail]\nrelay = smtp-out.corp.example\nrelay_port = 2525\nretries = 3\n```\n"
ANSWER = (
    "The relay in that file is smtp-out.corp.example on port 2525, which your firewall only "
    "opens to the office range. Point the service at port 587 instead."
)


def _current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body.split("## Past")[0]
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
    )


def _session(ask: str, reply: str) -> str:
    return transcript(
        "s-relay",
        ("user", "2031-02-03T09:00:00Z", f"{ask}\n\n{PASTE}"),
        ("assistant", "2031-02-03T09:01:00Z", ANSWER),
        ("user", "2031-02-03T09:05:00Z", reply),
    )


@pytest.mark.parametrize("reply", ["ugh, yes. I'll change it.", "Yes, that makes sense."])
def test_what_the_answer_reads_out_of_a_paste_the_user_asked_about_is_kept(repo, reply):
    run(repo, _session("Mail from the billing service never arrives. Why?", reply))
    now = _current(repo)
    assert "firewall only opens to the office range" in now, now


def test_an_answer_turned_down_is_left_out(repo):
    run(repo, _session("Mail from the billing service never arrives. Why?", "No, that's wrong."))
    assert "firewall" not in _current(repo)


def test_a_paste_nothing_was_asked_about_keeps_the_answer_out(repo):
    run(repo, _session("Here's the mail config for the record.", "ugh, yes."))
    assert "firewall" not in _current(repo)


@pytest.mark.parametrize("reply", ["ugh, yes.", "argh, ok", "oof, yeah, go ahead"])
def test_a_sigh_before_a_yes_still_accepts(reply):
    assert lang.accepts(reply)


@pytest.mark.parametrize("reply", ["ugh.", "damn, no.", "oof, that is wrong"])
def test_a_sigh_alone_or_before_a_no_accepts_nothing(reply):
    assert not lang.accepts(reply)
