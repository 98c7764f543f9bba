"""Numbers with a slash after a label's colon that are readings of one scale ("tank out:
4/4, tank in: 1/4"), or "24/7", are no dates; days with a slash after "on", or of another
scale, still are."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline.numeric import numeric_dates

REF = date(2031, 5, 6)


def test_readings_after_labels_are_no_dates():
    assert numeric_dates("Tank out: 4/4, tank in: 1/4, all good.", REF, "dmy") == []
    assert numeric_dates("Helpline: 24/7, free from a landline.", REF, "dmy") == []
    assert numeric_dates("Round one: 6/10, round two: 8/10.", REF, "dmy") == []


def test_days_with_a_slash_are_still_dates():
    assert [d for _, d in numeric_dates("Pickup on 2/8 and on 4/8.", REF, "dmy")] == [
        date(2031, 8, 2),
        date(2031, 8, 4),
    ]
    assert [d for _, d in numeric_dates("Check-in: 14/8, check-out: 21/8.", REF, "dmy")] == [
        date(2031, 8, 14),
        date(2031, 8, 21),
    ]
