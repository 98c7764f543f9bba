"""A form's fields set side by side on one line are two facts: each is kept on a line of its
own, never the pair run together (which read as no statement and was dropped)."""

from __future__ import annotations

import pytest

from doctree.agent.offline.blocks import fields_apart
from tests.agent.offline_runs import current_facts, run, transcript

FORM = """Here's the top of the letter:

```
Member: Ilse Vandenberg        Branch: Northgate
Case officer: Ms R. Abiodun      Deputy: Mr T. Kowal
Renewal due: 14 May 2035
```"""


def test_each_field_of_a_line_is_kept(repo):
    day = "2035-04-02T10:00:00Z"
    run(repo, transcript("s-form", ("user", day, FORM), ("assistant", day, "Noted.")))
    facts = current_facts(repo)
    for said in ("Case officer: Ms R. Abiodun", "Deputy: Mr T. Kowal", "Branch: Northgate"):
        assert said in facts, facts


@pytest.mark.parametrize(
    ("line", "parts"),
    [
        ("Start: 10:30    End: 12:15", ["Start: 10:30", "End: 12:15"]),
        ("Name: Odile\tRoom: 4B", ["Name: Odile", "Room: 4B"]),
        # one field, or no label opening the line: as it was
        ("Note: meet at the gate    then lunch", ["Note: meet at the gate    then lunch"]),
        ("Subject      Grade      Effort", ["Subject      Grade      Effort"]),
        ("Reading   Chapter: 4", ["Reading   Chapter: 4"]),
    ],
)
def test_fields_apart(line, parts):
    assert fields_apart([line]) == parts
