"""A debt paid ("Tom paid me back", "Ana sent me the £40", "Juan me devolvió los 20 €")
moves the line that states it under Past; the debts of others and the lines beside it stay."""

from __future__ import annotations

import pytest

from doctree.agent.offline.resolve import settles
from tests.agent.offline_runs import page_lines, run, transcript


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Tom finally paid me the £62, so he's square with me now.", "Tom owes me £62 for gas."),
        ("Priya paid me back yesterday.", "I lent Priya £40 for the train."),
        ("Ana sent me the £40 this morning.", "Ana owes me £40."),
        ("Juan me devolvió los 20 €.", "Juan me debe 20 € de la cena."),
    ],
)
def test_a_payment_settles_the_debt_it_names(text, said):
    assert settles(text, said)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Tom paid me back.", "Ana owes me £62 for gas."),  # another person's debt
        ("Ana sent me the £40.", "Ana owes me £75."),  # another amount
        ("Tom paid £62 for the pizza.", "Tom owes me £62 for gas."),  # no one paid back
        ("Tom paid me back.", "Tom paid £62 for the gas bill."),  # no debt stated
    ],
)
def test_a_payment_leaves_a_line_it_does_not_settle(text, said):
    assert not settles(text, said)


def test_a_debt_paid_in_a_later_session_goes_under_past_and_its_neighbours_stay(repo):
    run(
        repo,
        transcript(
            "s-debt-1",
            (
                "user",
                "2031-05-02T18:00:00Z",
                "Farid owes me £35 for the concert tickets. Lucia owes me £20 for the taxi."
                " The gas bill is £90 a month.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-debt-2",
            ("user", "2031-05-09T18:00:00Z", "Farid paid me back the £35 today."),
        ),
    )
    now, past = map("\n".join, page_lines(repo))
    assert "Farid owes" not in now, now
    assert "Farid owes" in past, past
    assert "Lucia owes the user £20" in now, now
    assert "The gas bill is £90 a month" in now, now
