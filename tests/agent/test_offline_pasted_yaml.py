"""A YAML mapping pasted in a fenced block (a rota, a schedule) is read field by field: each
field a statement named by the keys above it, with the comment its line ends with, so that
each can be found, corrected and forgotten alone; a weekday key is every such day, not the
coming one. A later "X is moving from Friday to Saturday" moves the one line that put X on
Fridays under Past."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline.resolve import resolve_relative
from doctree.agent.offline.segment import pasted_rows
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

ROTA = """The allotment watering rota Odile sent, for reference:

```yaml
# Hillside allotments - June watering
tuesday:
  slot: "07:00-08:00"
  lead: Benedikt Haas
  helpers: [Priya, Osei]
thursday:
  slot: "19:00-20:00"
  lead: Marta Lind
  helpers: [Osei, Gwen]
hose_keeper: Marta Lind  # keeps the shed hose, returns it Sundays
```
"""


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory") if "/archive" not in d.path}


def _current(repo: DocumentsRepository) -> str:
    return "\n".join(
        ln for b in _pages(repo).values() for ln in b.split("## Past")[0].split("\n")
        if ln.startswith("- 2") and " — past: " not in ln
    )  # fmt: skip


def test_each_field_of_a_pasted_yaml_mapping_is_a_statement_of_its_own():
    block = ROTA.split("```yaml\n")[1].split("```")[0].split("\n")
    rows = pasted_rows(block)
    title = "Hillside allotments - June watering"
    assert f"Tuesdays, slot: 07:00-08:00 — {title}." in rows, rows
    assert f"Thursdays, lead: Marta Lind — {title}." in rows
    assert f"Hose keeper: Marta Lind (keeps the shed hose, returns it Sundays) — {title}." in rows


def test_a_block_of_prose_or_code_gives_no_yaml_rows():
    assert pasted_rows(["def f(x):", "    return x", "print(f(2))"]) == []


def test_the_rows_of_a_rota_are_all_kept_and_never_dated(repo):
    run(repo, transcript("s-rota", ("user", "2029-06-01T10:00:00Z", ROTA)))
    now = _current(repo)
    for said in ("Tuesdays, slot: 07:00-08:00", "Thursdays, slot: 19:00-20:00"):
        assert said in now, now  # two slots side by side: neither replaces the other
    assert "Tuesdays (" not in now and "(2029-06-05)" not in now


def test_a_helper_moved_from_one_day_to_another_retires_the_old_row(repo):
    run(
        repo,
        transcript(
            "s-rota",
            ("user", "2029-06-01T10:00:00Z", ROTA),
            ("user", "2029-06-01T10:05:00Z", "Gwen is moving from Thursday to Tuesday evenings."),
        ),
    )
    now = _current(repo)
    assert "helpers: Osei, Gwen" not in now, now
    assert "Gwen is moving from Thursday" in now
    assert "helpers: Priya, Osei" in now  # the row that never named her stays


def test_the_last_weekday_of_the_month_is_that_day_of_this_month_or_the_next():
    said, _ = resolve_relative("The AGM is the last Friday of the month.", date(2029, 6, 3))
    assert "(2029-06-29)" in said, said
    said, _ = resolve_relative("Book club is the first Monday of the month.", date(2029, 6, 12))
    assert "(2029-07-02)" in said, said
    said, _ = resolve_relative("We met last Thursday.", date(2029, 6, 12))
    assert "(2029-06-07)" in said, said
