"""A list of records pasted as YAML, alone or under one key (a schedule of bookings, a list
of episodes), is read a record a line, as the same list pasted as JSON is."""

from __future__ import annotations

import pytest

from tests.agent.offline_runs import current_facts, run, transcript

_UNDER_A_KEY = """Our lesson bookings for the term:

```yaml
bookings:
  - pupil: Ines Morel
    instrument: cello
    slot: 2031-09-08 16:30
    room: B2
  - pupil: Tom Achebe
    instrument: viola
    slot: 2031-09-09 17:00
    room: B4
```"""

_ALONE = """Our lesson bookings for the term:

```yaml
- pupil: Ines Morel
  instrument: cello
  slot: 2031-09-08 16:30
- pupil: Tom Achebe
  instrument: viola
  slot: 2031-09-09 17:00
```"""


@pytest.mark.parametrize("pasted", [_UNDER_A_KEY, _ALONE])
def test_a_yaml_list_of_records_is_read_a_record_a_line(repo, pasted):
    run(repo, transcript("s-bookings", ("user", "2031-08-30T10:00:00Z", pasted)))
    now = current_facts(repo)
    lines = [ln for ln in now.split("\n") if "Tom Achebe" in ln]
    assert any("viola" in ln and "2031-09-09" in ln for ln in lines), now
    assert any(
        "Ines Morel" in ln and "cello" in ln and "2031-09-08" in ln for ln in now.split("\n")
    )
