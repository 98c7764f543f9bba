"""Someone named with a role and later meant by it alone, through `doctree replay` and
`doctree show` and `doctree read`: the later line is on their page, with the name in
brackets, and no page is made of the role."""

from __future__ import annotations

from pathlib import Path

from tests.cli.replaying import doctree, in_turn, write_session


def session(tmp_path: Path, sid: str, day: str, *said: str) -> str:
    return write_session(tmp_path, sid, in_turn(day, said, hour="20"))


def test_a_role_said_alone_is_shown_on_the_page_of_the_person_it_named(db_path, tmp_path):
    first = session(
        tmp_path, "s-named", "2032-02-23",
        "The wife (Dana, for the record) has her driving test on Wednesday 3 March at "
        "Crawley. Dad (Gordon) is coming for Sunday lunch.",
        "Noted.",
    )  # fmt: skip
    later = session(
        tmp_path, "s-alone", "2032-03-08",
        "The wife passed! Dad's hip is sore again, he's seeing the GP on Friday.",
        "Congratulations!",
    )  # fmt: skip
    doctree(db_path, "replay", "--backend", "offline", first, later)
    people = doctree(db_path, "show", "~/memory/people")
    assert [ln.split()[1] for ln in people.splitlines()[1:] if ln.strip()] == [
        "dana",
        "gordon",
    ], people
    dana = doctree(db_path, "read", "~/memory/people/dana")
    assert "Relation: the user's wife" in dana
    assert "The wife (Dana) passed!" in dana
    gordon = doctree(db_path, "read", "~/memory/people/gordon")
    assert "Dad's (Gordon's) hip is sore again" in gordon
