"""An Org file pasted in a fence: each heading read as one line with its path and what is
under it (planning days, a property drawer, notes, timestamps), so that a day or a detail
lands with what it belongs to; the file pasted again replaces a value that changed. A list
in markdown's star bullets, or prose under star headings, is no Org file."""

from __future__ import annotations

from doctree.agent.offline.orgmode import org_entries
from tests.agent.offline_runs import page_lines, run, transcript

GARDEN = """#+TITLE: allotment
* Plot 14                                                    :plot:
** TODO Order the gravel
   SCHEDULED: <2031-04-02 Wed>
   :PROPERTIES:
   :SUPPLIER: Pennant Aggregates, 07700 900123
   :PRICE:    £240 for two tonnes
   :END:
** DONE Fix the shed roof
   CLOSED: [2031-03-28 Fri 17:05]
   - felt from Harlow's, the green one
* Club
** Seed swap
   <2031-05-10 Sat 14:00> village hall
** TODO [#A] Renew the membership
   DEADLINE: <2031-04-30 Wed>"""


def test_each_heading_is_read_with_its_path_and_what_is_under_it():
    assert org_entries(GARDEN.split("\n")) == [
        "Plot 14 › Order the gravel: scheduled 2031-04-02; supplier: Pennant Aggregates, "
        "07700 900123; price: £240 for two tonnes.",
        "Plot 14 › Fix the shed roof: done 2031-03-28 17:05; felt from Harlow's, the green one.",
        "Club › Seed swap: 2031-05-10 14:00 village hall.",
        "Club › Renew the membership: due by 2031-04-30.",
    ]


def test_a_markdown_star_list_or_prose_under_star_headings_is_no_org_file():
    assert org_entries(["* milk", "* eggs", "* bread"]) is None
    prose = [
        "* Chapter one",
        "It was a cold morning when the ferry finally left the harbour and nobody on board "
        "knew where the captain had gone.",
        "** Part two",
        "SCHEDULED: <2031-04-02 Wed>",
    ]
    assert org_entries(prose) is None


def test_the_file_pasted_again_replaces_a_changed_value(repo):
    first = "My allotment notes, keep these:\n\n```org\n" + GARDEN + "\n```"
    later = GARDEN.replace("£240 for two tonnes", "£210 for two tonnes").replace(
        "<2031-05-10 Sat 14:00>", "<2031-05-17 Sat 14:00>"
    )
    run(repo, transcript("s-org1", ("user", "2031-03-29T10:00:00Z", first)))
    run(repo, transcript("s-org2", ("user", "2031-04-01T10:00:00Z", "```org\n" + later + "\n```")))
    now, past = page_lines(repo)
    assert any("Pennant" in ln and "£210" in ln for ln in now), now
    assert not any("£240" in ln for ln in now), now
    assert any("Seed swap" in ln and "2031-05-17" in ln for ln in now), now
    assert not any("Seed swap" in ln and "2031-05-10" in ln for ln in now), now
    assert any("£240" in ln for ln in past), past
