"""Nested bullets whose leaves hold only values (an outliner's export) are read with the path
above each value: "ref CR-80442" under "Stay" / "Casa Ribeira" is Casa Ribeira's reference.
The outline pasted again is the same list again: an item no longer there is no longer
listed, one said the same is left as it was, and two items of it never replace each other."""

from __future__ import annotations

from doctree.agent.offline.outline import read_outline, shape
from tests.agent.offline_runs import current_facts, page_lines, run, transcript

HOLIDAY = """- Lisbon weekend
  - Train
    - out
      - Fri 4 Jul
      - 07:15 from Oxford
    - back
      - Sun 6 Jul
  - Hotel
    - Casa Azul
      - 2 nights
      - ref AZ-5512
  - People
    - Inês
      - my colleague
      - dinner on the Saturday"""


def test_each_bare_value_is_read_with_the_path_above_it():
    assert read_outline(HOLIDAY.split("\n")) == [
        "Lisbon weekend › Train › out: Fri 4 Jul; 07:15 from Oxford.",
        "Lisbon weekend › Train › back: Sun 6 Jul.",
        "Lisbon weekend › Hotel › Casa Azul: 2 nights; ref AZ-5512.",
        "Lisbon weekend › People › Inês: my colleague; dinner on the Saturday.",
    ]


def test_other_bullets_numbers_and_tabs_nest_the_same_way():
    lines = [
        "1. Kitchen refit",
        "\t* Worktop",
        "\t\t* oak, 40 mm",
        "\t\t* quote £1,240",
        "\t* Fitter",
        "\t\t* Dale Hughes",
    ]
    assert read_outline(lines) == [
        "Kitchen refit › Worktop: oak, 40 mm; quote £1,240.",
        "Kitchen refit › Fitter: Dale Hughes.",
    ]


def test_a_value_under_a_top_item_names_that_item_alone():
    lines = ["- Car", "  - MOT due 14 March", "  - tyres 2.4 bar", "- Bike", "  - chain oiled"]
    assert read_outline(lines) == ["Car: MOT due 14 March; tyres 2.4 bar.", "Bike: chain oiled."]


def test_a_sentence_under_an_item_stays_a_sentence_with_its_path():
    lines = [
        "- Garden",
        "  - Shed",
        "    - 8 x 6",
        "    - The roof leaks when it rains from the west.",
    ]
    assert read_outline(lines) == [
        "Garden › Shed: 8 x 6.",
        "The roof leaks when it rains from the west (Garden › Shed).",
    ]


def test_an_item_that_says_something_is_kept_as_said_beside_its_values():
    lines = ["- We are moving the boat to Falmouth in May.", "  - berth 12", "  - £85 a month"]
    assert read_outline(lines) == [
        "We are moving the boat to Falmouth in May: berth 12; £85 a month."
    ]


def test_a_flat_list_or_nested_sentences_are_no_outline():
    assert read_outline(["- milk", "- eggs", "- bread"]) is None
    assert (
        read_outline(
            [
                "- Monday",
                "  - Priya is taking the kids to school this week.",
                "  - I have the dentist after work.",
            ]
        )
        is None
    )


def test_an_outline_line_is_a_record_of_the_list_its_top_item_heads():
    assert shape("Lisbon weekend › Hotel › Casa Azul: 2 nights; ref AZ-5512.") == (
        "Hotel › Casa Azul",
        frozenset({"lisbon weekend"}),
        {"lisbon weekend": "2 nights; ref AZ-5512"},
    )
    assert shape("Casa Azul: 2 nights.") is None
    assert shape("The meeting is at 10: bring the slides.") is None


def _pasted(session: str, time: str, outline: str) -> str:
    return transcript(
        session,
        ("user", time, f"My plan, from the outliner:\n\n{outline}"),
        ("assistant", time.replace(":00Z", ":30Z"), "Kept."),
    )


def test_an_outline_pasted_again_retires_the_item_no_longer_there_and_keeps_the_rest(repo):
    run(repo, _pasted("s-one", "2031-05-02T09:00:00Z", HOLIDAY))
    again = HOLIDAY.replace("Casa Azul", "Residencial Sol").replace("AZ-5512", "RS-0901")
    run(repo, _pasted("s-two", "2031-05-20T09:00:00Z", again))
    facts = current_facts(repo)
    assert "Lisbon weekend › Hotel › Residencial Sol: 2 nights; ref RS-0901." in facts
    assert "Casa Azul" not in facts
    now, past = page_lines(repo)
    assert any("Casa Azul" in ln and "no longer listed" in ln for ln in past)
    # said the same again: the train lines stay as they were, neither replaces the other
    assert not any("Train ›" in ln for ln in past)
    # "my colleague" written "the user's colleague": the same record, not a changed one
    assert not any("Inês" in ln for ln in past)
    assert any("Lisbon weekend › Train › out: Friday 4 Jul (2031-07-04)" in ln for ln in now)
    assert any("Lisbon weekend › Train › back: Sun 6 Jul" in ln for ln in now)
