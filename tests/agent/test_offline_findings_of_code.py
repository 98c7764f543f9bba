"""What the assistant found, said with a name of code ("REDIS_HOST", "app.yaml", a path), is
specific enough to keep when the user credits it, and a credit after a yes counts."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import SPECIFIC
from tests.agent.offline_runs import current_facts, run, transcript

DAY = "2033-06-01T09:00:00Z"


@pytest.mark.parametrize(
    "text",
    [
        "the worker reads REDIS_HOST at start",
        "the port is set in app.yaml",
        "the cache sits under /srv/cache/thumbs",
        "set max_retries higher",
    ],
)
def test_a_name_of_code_is_specific(text):
    assert SPECIFIC.search(text)


def test_an_ordinary_lower_case_line_is_not_specific():
    assert not SPECIFIC.search("the cat sat on the warm mat all afternoon")


def test_a_finding_named_by_its_variable_is_kept_when_credited(repo):
    run(
        repo,
        transcript(
            "s-code",
            ("user", DAY, "The queue worker on the test box won't start."),
            (
                "assistant",
                DAY,
                "The log shows the QUEUE_URL variable is empty in the test config. Set it "
                "and restart the worker.",
            ),
            ("user", DAY, "That sorted it, thanks."),
        ),
    )
    assert "QUEUE_URL variable is empty" in current_facts(repo)


def test_a_credit_after_a_yes_keeps_the_finding(repo):
    run(
        repo,
        transcript(
            "s-yes",
            ("user", DAY, "The photo sync on the laptop stopped last week."),
            (
                "assistant",
                DAY,
                "The sync folder /home/ade/Pictures/.sync is probably out of space. Check it "
                "and clear the old thumbnails.",
            ),
            ("user", DAY, "Yes, it was full. Cleared them and it works now."),
        ),
    )
    assert "probably out of space" in current_facts(repo)
