"""A message that asks the same thing to be forgotten many times is read once for it: what the
thing refers to, and whether a document is being edited, are worked out once per message, so
that the time such a message takes grows with its length, not with its square."""

from __future__ import annotations

import doctree.agent.offline.extract as extract
import doctree.agent.offline.referred as referred_module
from tests.agent.offline_runs import current_facts, run, transcript

T1 = "2031-10-04T09:00:00Z"
T2 = "2031-10-04T09:01:00Z"
T3 = "2031-10-04T09:02:00Z"


def test_the_same_request_many_times_is_read_once(repo, monkeypatch):
    calls = []
    real = referred_module._read_turn

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(referred_module, "_read_turn", counted)
    run(
        repo,
        transcript(
            "s-again",
            (
                "user",
                T1,
                "My pension pot is 48,200 now. I volunteer at the food bank on Saturdays.",
            ),
            ("assistant", T2, "Noted."),
            ("user", T3, " ".join(["Forget my pension."] * 60)),
        ),
    )
    assert len(calls) <= 2 * 3  # each of the 3 turns read once (or twice)
    facts = current_facts(repo)
    assert "48,200" not in facts
    assert "food bank" in facts


def test_many_deletes_of_a_detail_read_the_conversation_once(repo, monkeypatch):
    calls = []
    real = extract._edited

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(extract, "_edited", counted)
    run(
        repo,
        transcript(
            "s-again",
            ("user", T1, "My address is 12 Heron Walk. I volunteer at the food bank on Saturdays."),
            ("assistant", T2, "Noted."),
            ("user", T3, " ".join(["Delete my address."] * 60)),
        ),
    )
    assert len(calls) == 1
    facts = current_facts(repo)
    assert "Heron Walk" not in facts
    assert "food bank" in facts


def test_a_withdrawal_after_the_requests_still_withdraws_them(repo):
    run(
        repo,
        transcript(
            "s-again",
            ("user", T1, "My pension pot is 48,200 now."),
            ("assistant", T2, "Noted."),
            ("user", T3, "Forget my pension. Forget my pension. Just kidding, keep it."),
        ),
    )
    assert "48,200" in current_facts(repo)


def test_the_same_request_in_a_later_message_acts_again(repo):
    run(
        repo,
        transcript(
            "s-again",
            ("user", T1, "My pension pot is 48,200 now. Forget my pension."),
            ("assistant", T2, "Done."),
            ("user", T3, "My pension pays out at 67. Forget my pension."),
        ),
    )
    facts = current_facts(repo)
    assert "48,200" not in facts and "67" not in facts
