"""A list, table or schedule pasted again changed (the same columns, keyed the same way):
an entry no longer there, and a value changed, move to Past, in the same session or a later
one; another list with the same columns is not the same list."""

from __future__ import annotations

import pytest

from doctree.agent.offline.segment import record_shape, same_list
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

TABLE = """Here's the volunteer rota for the fair:

| name | shift | stall |
| --- | --- | --- |
| Priya Shah | 9-12 | cakes |
| Tom Okafor | 12-3 | books |
| Lena Berg | 3-6 | tombola |
"""
TABLE_AGAIN = """Updated rota:

| name | shift | stall |
| --- | --- | --- |
| Priya Shah | 9-12 | cakes |
| Tom Okafor | 3-6 | books |
| Marta Ilic | 12-3 | tombola |
"""
CSV = """The class list, as a CSV:

```
pupil,group,pickup
Ines Duarte,Robins,3:15
Omar Haddad,Robins,3:30
Jan Novak,Wrens,3:15
```
"""
CSV_AGAIN = """New version of the class list:

```
pupil,group,pickup
Ines Duarte,Robins,3:15
Omar Haddad,Wrens,3:30
```
"""
OTHER_TABLE = """The rota for the autumn fête, a different event:

| name | shift | stall |
| --- | --- | --- |
| Priya Shah | 10-1 | plants |
| Ben Cole | 1-4 | raffle |
| Zoe Hart | 4-6 | games |
"""


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path}


def _current(body: str) -> str:
    return body.split("## Past")[0]


def _past(body: str) -> str:
    return body.split("## Past")[1] if "## Past" in body else ""


def _one_session(repo: DocumentsRepository, first: str, again: str) -> dict[str, str]:
    run(
        repo,
        transcript(
            "s-list",
            ("user", "2028-04-01T10:00:00Z", first),
            ("assistant", "2028-04-01T10:00:05Z", "Noted."),
            ("user", "2028-04-01T10:05:00Z", again),
        ),
    )
    return _pages(repo)


def _two_sessions(repo: DocumentsRepository, first: str, again: str) -> dict[str, str]:
    run(repo, transcript("s-one", ("user", "2028-04-01T10:00:00Z", first)))
    run(repo, transcript("s-two", ("user", "2028-04-03T10:00:00Z", again)))
    return _pages(repo)


def test_a_record_is_read_as_its_key_and_labelled_cells():
    assert record_shape("Priya Shah, shift: 9-12; stall: cakes.") == (
        "Priya Shah",
        frozenset({"shift", "stall"}),
        {"shift": "9-12", "stall": "cakes"},
    )
    assert record_shape("Priya Shah, who runs the cake stall, is back.") is None
    assert record_shape("I went to Leeds.") is None


def test_a_list_sharing_few_of_its_keys_is_another_list():
    assert same_list({"a", "b", "c"}, {"a", "b", "d"})
    assert not same_list({"a", "b", "c"}, {"a", "x", "y"})
    assert not same_list(set(), {"a"})


def test_an_entry_left_out_of_a_table_pasted_again_is_past_in_the_same_session(repo):
    pages = _one_session(repo, TABLE, TABLE_AGAIN)
    lena = pages["~/memory/people/lena-berg"]
    assert "3-6" not in _current(lena) and "3-6" in _past(lena)
    assert "no longer listed" in _current(lena)


def test_a_value_changed_in_a_table_pasted_again_is_past_in_the_same_session(repo):
    tom = _one_session(repo, TABLE, TABLE_AGAIN)["~/memory/people/tom-okafor"]
    assert "shift: 3-6" in _current(tom)
    assert "shift: 12-3" not in _current(tom) and "shift: 12-3" in _past(tom)


def test_an_entry_left_out_in_a_later_session_is_past(repo):
    pages = _two_sessions(repo, TABLE, TABLE_AGAIN)
    lena = pages["~/memory/people/lena-berg"]
    assert "3-6" not in _current(lena)
    assert "no longer listed on 2028-04-03" in _past(lena)
    assert "Priya Shah, shift: 9-12" in _current(pages["~/memory/people/priya-shah"])


def test_a_value_changed_in_a_later_session_is_past(repo):
    tom = _two_sessions(repo, TABLE, TABLE_AGAIN)["~/memory/people/tom-okafor"]
    assert "shift: 3-6" in _current(tom)
    assert "shift: 12-3" not in _current(tom) and "shift: 12-3" in _past(tom)


def test_a_csv_pasted_again_changed_moves_the_dropped_and_changed_rows(repo):
    pages = _two_sessions(repo, CSV, CSV_AGAIN)
    current = "\n".join(_current(b) for b in pages.values())
    past = "\n".join(_past(b) for b in pages.values())
    assert "Jan Novak, group: Wrens" not in current and "Jan Novak, group: Wrens" in past
    assert "Omar Haddad, group: Wrens" in current
    assert "Omar Haddad, group: Robins" not in current
    assert "Ines Duarte, group: Robins" in current


def test_another_list_with_the_same_columns_leaves_the_first_as_it_is(repo):
    pages = _two_sessions(repo, TABLE, OTHER_TABLE)
    assert "tombola" in _current(pages["~/memory/people/lena-berg"])
    assert "books" in _current(pages["~/memory/people/tom-okafor"])


def _then(repo: DocumentsRepository, said: str, *, same_session: bool) -> dict[str, str]:
    if same_session:
        run(
            repo,
            transcript(
                "s-list",
                ("user", "2028-04-01T10:00:00Z", TABLE),
                ("assistant", "2028-04-01T10:00:05Z", "Noted."),
                ("user", "2028-04-01T10:05:00Z", said),
            ),
        )
    else:
        run(repo, transcript("s-one", ("user", "2028-04-01T10:00:00Z", TABLE)))
        run(repo, transcript("s-two", ("user", "2028-04-03T10:00:00Z", said)))
    return _pages(repo)


@pytest.mark.parametrize(
    "said",
    [
        "Lena has been dropped from the rota, she is ill.",
        "Please take Lena Berg off the rota.",
        "Lena Berg is off the volunteer list now.",
        "We had to remove Lena from the schedule.",
    ],
)
@pytest.mark.parametrize("same_session", [True, False])
def test_someone_taken_off_a_list_is_no_longer_listed_where_a_record_of_theirs_was(
    repo, said, same_session
):
    pages = _then(repo, said, same_session=same_session)
    current = "\n".join(_current(b) for b in pages.values())
    assert "tombola" not in current
    assert "tombola" in "\n".join(_past(b) for b in pages.values())
    assert "Tom Okafor, shift: 12-3; stall: books" in current  # the others stay


def test_a_name_that_fits_two_records_takes_none_off(repo):
    two_toms = TABLE.replace("Lena Berg", "Tom Hale")
    run(repo, transcript("s-one", ("user", "2028-04-01T10:00:00Z", two_toms)))
    run(repo, transcript("s-two", ("user", "2028-04-03T10:00:00Z", "Take Tom off the rota.")))
    current = "\n".join(_current(b) for b in _pages(repo).values())
    assert "Tom Okafor, shift: 12-3; stall: books" in current
    assert "Tom Hale, shift: 3-6; stall: tombola" in current


def test_taking_off_a_list_is_said_of_someone_not_of_anything_taken_off():
    from doctree.agent.offline.extract import _TAKEN_OFF

    assert _TAKEN_OFF.search("Take Lena off the rota")
    assert not _TAKEN_OFF.search("Lena took her coat off")
    assert not _TAKEN_OFF.search("Lena is off work today")
