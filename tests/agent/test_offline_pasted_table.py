"""A markdown table pasted into a message is read row by row: each row a fact of its own on
the page of the person it names (a kin title, "Aunt Mira", or a bracketed "(my niece)" says
who is a person and of which gender), so that a later "X, not Y" corrects the one row it
means and a later "she" finds the right person."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

TABLE = """Who brings what to the picnic, from the group chat:

| who | brings | notes |
|---|---|---|
| Aunt Mira | lemonade | two jugs |
| Oskar (my niece's husband) | folding chairs | |
| Lotte (my niece, 12) | a frisbee | |
"""


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def _current(body: str) -> str:
    return body.split("## Past")[0]


def test_each_row_of_a_pasted_table_is_a_fact_on_its_persons_page(repo):
    run(repo, transcript("s-picnic", ("user", "2029-06-01T10:00:00Z", TABLE)))
    pages = _pages(repo)
    mira = _current(pages.get("~/memory/people/mira", ""))
    lotte = _current(pages.get("~/memory/people/lotte", ""))
    assert "lemonade" in mira and "frisbee" not in mira, pages.keys()
    assert "frisbee" in lotte and "lemonade" not in lotte


def test_a_plain_word_said_instead_corrects_the_one_row_that_held_it(repo):
    run(
        repo,
        transcript(
            "s-picnic",
            ("user", "2029-06-01T10:00:00Z", TABLE),
            ("user", "2029-06-01T10:05:00Z", "One row is off. Mira brings iced tea, not lemonade."),
        ),
    )
    pages = _pages(repo)
    current = "\n".join(_current(b) for p, b in pages.items() if "/archive/" not in p)
    assert "iced tea" in current
    stale = [ln for ln in current.split("\n") if "lemonade" in ln and "not lemonade" not in ln]
    assert not stale, stale
    assert "lemonade" in pages["~/memory/people/mira"].split("## Past")[1]


def test_a_pronoun_after_a_kin_title_means_that_person(repo):
    run(
        repo,
        transcript(
            "s-picnic",
            ("user", "2029-06-01T10:00:00Z", TABLE),
            (
                "user",
                "2029-06-01T10:05:00Z",
                "Aunt Mira called again. She is bringing a plum cake as well.",
            ),
        ),
    )
    pages = _pages(repo)
    assert "Mira is bringing" in pages.get("~/memory/people/mira", ""), pages.keys()
    assert "bringing" not in pages.get("~/memory/people/lotte", "")


CSV = """Rota for the lighthouse open day, straight out of the sheet:

```
volunteer,shift,role,notes
Marguerite Oduya,morning,tickets,
Felix Amsel,afternoon,tours,knows the keeper
Oona Brandt,morning,cafe,no dairy - allergic
```
"""

JSON = """Here is the export of my bike repairs so far:

```json
[
  {"job": "R-1187", "customer": "Tamsin Hale", "price_eur": 1240, "status": "waiting for parts"},
  {"job": "R-1188", "customer": "Velo Nord", "price_eur": 85, "status": "done"}
]
```
"""


def test_each_row_of_a_pasted_csv_is_a_fact_on_its_persons_page(repo):
    run(repo, transcript("s-rota", ("user", "2029-06-01T10:00:00Z", CSV)))
    pages = _pages(repo)
    oona = _current(pages.get("~/memory/people/oona-brandt", ""))
    assert "cafe" in oona and "no dairy" in oona, pages.keys()
    assert "tours" not in oona


def test_each_record_of_a_pasted_json_array_is_a_fact_with_its_amount_written_out(repo):
    run(repo, transcript("s-jobs", ("user", "2029-06-01T10:00:00Z", JSON)))
    text = "\n".join(_pages(repo).values())
    assert "R-1187, customer: Tamsin Hale; price: €1,240; status: waiting for parts." in text


def test_a_value_named_wrong_by_the_code_of_its_row_is_corrected_in_that_row(repo):
    run(
        repo,
        transcript(
            "s-jobs",
            ("user", "2029-06-01T10:00:00Z", JSON),
            ("user", "2029-06-01T10:05:00Z", "1187 is wrong: it's €1,420, not €1,240."),
        ),
    )
    now = "\n".join(_current(b) for p, b in _pages(repo).items() if "/archive/" not in p)
    assert "price: €1,420" in now, now
    assert "price: €1,240" not in now.replace("— “€1,240”", "")


def test_a_value_swapped_from_one_word_to_another_changes_that_persons_row(repo):
    run(repo, transcript("s-rota", ("user", "2029-06-01T10:00:00Z", CSV)))
    run(
        repo,
        transcript(
            "s-swap",
            (
                "user",
                "2029-06-09T10:00:00Z",
                "Felix hurt his knee, so move him from tours to tickets.",
            ),
        ),
    )
    felix = _pages(repo)["~/memory/people/felix-amsel"]
    assert "role: tickets" in _current(felix), felix
    assert "role: tours" in felix.split("## Past")[1]
    marguerite = _pages(repo)["~/memory/people/marguerite-oduya"]
    assert "role: tickets" in _current(marguerite)  # another person's row is left alone


def test_a_fenced_block_that_is_no_table_gives_no_rows():
    from doctree.agent.offline.segment import pasted_rows

    assert pasted_rows(["def f(a, b):", "    return a, b", "print(f(1, 2))"]) == []
    assert pasted_rows(['{"error": "timeout"}']) == []


def test_a_record_said_later_to_be_in_another_state_has_its_status_changed(repo):
    run(repo, transcript("s-jobs", ("user", "2029-06-01T10:00:00Z", JSON)))
    run(
        repo,
        transcript(
            "s-paid",
            (
                "user",
                "2029-06-08T10:00:00Z",
                "Velo Nord cancelled the job, so only Tamsin is left.",
            ),
        ),
    )
    now = "\n".join(_current(b) for p, b in _pages(repo).items() if "/archive/" not in p)
    assert "customer: Velo Nord; price: €85; status: cancelled." in now, now
    assert "status: done" not in now
    assert "status: waiting for parts" in now  # the other record is left as it was
