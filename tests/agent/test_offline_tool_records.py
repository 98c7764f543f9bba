"""A tool's structured result (XML, CSV or TSV, JSON, `key: value` lines) is read record by
record into lines a person would note, dates in ISO form, units and currencies moved from the
field's name to its value; the records the assistant then reported (or the user's question
named) are kept like its findings, the rest stay out."""

from __future__ import annotations

import json

from doctree.agent.offline.records import iso, read_records, source_name, used_by
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

_XML = """<?xml version="1.0"?>
<boilerLog engineer="Priya Nair" company="Warmway Heating">
  <visit date="14/02/2030" durationMin="45">
    <part>Pressure valve replaced</part>
    <part>Flue seal renewed</part>
    <charge currency="EUR">210.00</charge>
  </visit>
  <visit date="2029-03-02T09:30:00Z">
    <note>Annual inspection passed</note>
  </visit>
  <nextVisit dueDate="2031-02-14"/>
</boilerLog>"""


def _lines(text: str, context: str = "") -> list[str]:
    return [r.line for r in read_records(text, context)]


def test_an_xml_record_reads_its_attributes_and_elements_as_one_line():
    lines = _lines(_XML)
    assert lines[0] == (
        "Visit 2030-02-14: duration: 45 min; Pressure valve replaced; Flue seal renewed; "
        "charge: €210.00 (boiler log: engineer: Priya Nair; company: Warmway Heating)."
    )
    assert lines[1].startswith("Visit 2029-03-02 09:30: note: Annual inspection passed")
    assert lines[2].startswith("Next visit: due date: 2031-02-14")


def test_xml_that_expands_entities_is_refused():
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        "<r><x>&b;</x><y>1</y></r>"
    )
    assert read_records(bomb) == []


def test_csv_and_tsv_with_a_header_row_give_a_line_per_row():
    csv_text = "date,time,room,speaker\n2030-04-02,14:00,Room B,Ines Duarte\n2030-04-09,14:00,Room C,Olu Bakare\n"
    assert _lines(csv_text, "Seminar list") == [
        "2030-04-02 14:00: room: Room B; speaker: Ines Duarte (Seminar list).",
        "2030-04-09 14:00: room: Room C; speaker: Olu Bakare (Seminar list).",
    ]
    tsv_text = "plant\twater_ml\tlast fed\nFern\t250\t03/05/2030\nCactus\t50\t28/04/2030\n"
    assert _lines(tsv_text) == [
        "Fern: water: 250 ml; last fed: 2030-05-03.",
        "Cactus: water: 50 ml; last fed: 2030-04-28.",
    ]  # fmt: skip


def test_json_records_and_key_value_blocks_are_read_the_same_way():
    data = {"loans": [{"title": "Middlemarch", "due": "2030-06-01", "fine_gbp": 0.5}]}
    assert _lines(json.dumps(data)) == ["Middlemarch: due: 2030-06-01; fine: £0.5."]
    kv = "name: Harbour Dental\nphone: 0131 555 2020\nnext check-up: 12/09/2030\n"
    assert _lines(kv) == ["Harbour Dental: phone: 0131 555 2020; next check-up: 2030-09-12."]


def test_prose_a_log_and_code_give_no_records():
    assert read_records("The build passed and everything is green.") == []
    assert read_records("def f(x):\n    return x + 1\n") == []


def test_a_day_said_with_slashes_is_read_day_first_unless_it_cannot_be():
    assert iso("05/11/2029") == "2029-11-05"
    assert iso("05/13/2029") == "2029-05-13"
    assert iso("2029-11-05T18:30:00Z") == "2029-11-05 18:30"
    assert iso("next week") == "next week"


def test_the_source_a_tool_was_asked_for_is_its_title_like_input():
    assert source_name({"sheet": "Riverside Rowing summer 2030", "range": "A1:D9"}) == (
        "Riverside Rowing summer 2030"
    )
    assert source_name({"email": "a.b@example.com", "format": "csv"}) == ""


def test_only_records_whose_values_were_reported_are_used():
    records = read_records(_XML)
    used = used_by(records, "The valve and the flue seal were done, €210 in all.")
    assert [r.line.split(":")[0] for r in used] == ["Visit 2030-02-14"]


def _session(result: str, reply: str, first: str = "Can you pull the engineer's log?") -> str:
    return transcript(
        "s-log",
        ("user", "2030-02-20T10:00:00Z", first),
        ("tool_call", "2030-02-20T10:00:05Z", {"id": "t1", "name": "log_read", "input": {"house": "home"}}),
        ("tool_result", "2030-02-20T10:00:07Z", {"tool_use_id": "t1", "content": result, "is_error": False}),
        ("assistant", "2030-02-20T10:01:00Z", reply),
        ("user", "2030-02-20T10:02:00Z", "great, thanks"),
    )  # fmt: skip


def _current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body.split("## Past")[0]
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
    )


def test_the_records_the_assistant_reported_are_kept_with_their_iso_dates(repo):
    run(repo, _session(_XML, "Priya replaced the pressure valve and renewed the flue seal, €210."))
    now = _current(repo)
    assert "Pressure valve replaced" in now and "2030-02-14" in now, now
    assert "Annual inspection passed" not in now  # a record nobody reported or asked about


def test_a_tool_result_the_user_did_not_ask_for_keeps_its_records_out(repo):
    run(
        repo,
        _session(
            _XML,
            "Priya replaced the pressure valve and renewed the flue seal, €210.",
            first="I sorted the boiler out last week.",
        ),
    )
    assert "Pressure valve replaced" not in _current(repo)


def test_a_small_number_in_the_reply_names_no_record_but_an_amount_does():
    rows = "seat,price_gbp\n12,40\n14,42\n"
    records = read_records(rows)
    assert used_by(records, "Two seats are left, 2 of them by the aisle.") == []
    assert [r.line for r in used_by(records, "Seat 14 is £42.")] == ["14: price: £42."]
