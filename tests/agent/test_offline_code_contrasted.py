"""A code of capitals and figures corrected as "it's KT4471 not KT4417": the earlier line
that said the old code is put right, as a figure said wrong is; codes of another shape are
not set against each other."""

from __future__ import annotations

from doctree.agent.offline.resolve import values_contrasted
from tests.agent.offline_runs import page_lines, run, transcript

DAY = "2031-05-06T10:00:00Z"


def test_a_code_said_wrong_is_put_right_on_its_line(repo):
    run(
        repo,
        transcript(
            "s-parts",
            ("user", DAY, "Two parts came today: a wiper motor (KT4417) and a fuel cap (RB2290)."),
            ("assistant", "2031-05-06T10:01:00Z", "Noted both parts."),
            (
                "user",
                "2031-05-06T10:02:00Z",
                "Also I misread the motor label, it's KT4471 not KT4417.",
            ),
        ),
    )
    now, _ = page_lines(repo)
    assert any("wiper motor (KT4471)" in ln and "RB2290" in ln for ln in now)
    assert not any("KT4417" in ln for ln in now)


def test_codes_of_another_shape_are_not_set_against_each_other():
    assert values_contrasted("it's KT4471 not KT4417") == ("KT4471", "KT4417")
    assert values_contrasted("the flight is BA117 not BAW1170") is None
    assert values_contrasted("we chose the Rav4 not the CX5") is None
