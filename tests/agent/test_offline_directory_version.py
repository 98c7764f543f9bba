"""The directory's version: bumped on every change of what it holds, so that what is worked
out from it (the words of the names memory knows, which a recap's names are looked up in)
is read again whenever it changes, not only when a count of its names grows."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline.directory import Directory
from doctree.agent.offline.extract import extract
from doctree.agent.offline.segment import segment
from tests.agent.test_offline_stages import MONDAY, conversation


def test_every_change_bumps_the_version_and_a_repeat_does_not() -> None:
    d = Directory({"ellis-morgan": "Ellis Morgan"}, {})
    seen = [d.version]

    def changed() -> None:
        assert d.version > seen[-1]
        seen.append(d.version)

    def unchanged() -> None:
        assert d.version == seen[-1]

    d.alias("Boots", "Ellis Morgan")  # no new person: only a nickname
    changed()
    d.alias("Boots", "Ellis Morgan")
    unchanged()
    d.person("Kirsty")
    changed()
    d.person("Kirsty")
    unchanged()
    d.other("places", "Station Road")
    changed()
    d.other("places", "Station Road")
    unchanged()
    d.project("apollo")
    changed()
    d.project("apollo")
    unchanged()
    d.not_a_person("Zeus")
    changed()
    d.not_a_person("Zeus")
    unchanged()
    d.add_kin("kirsty")
    changed()
    d.add_kin("kirsty")
    unchanged()
    d.remembered_dates = [("dentist", date(2027, 3, 20))]
    changed()
    d.remembered_dates = [("surgery", date(2027, 3, 20))]  # as many lines, another one
    changed()


def test_a_recap_may_name_a_nickname_memory_learnt_without_a_new_name() -> None:
    """The assistant gives a known person's nickname (no name is added, only the nickname);
    its recap of the user's next message names the person by it: a name memory knows, so
    the recap is the user's statement, as it would be had memory known the nickname before."""
    messages = [
        ("user", MONDAY, "Nao mata la fetu nei."),
        ("assistant", MONDAY, 'Ellis "Boots" Morgan runs the bakery on Station Road.'),
        ("user", MONDAY, "sau o ia Toonai, faaleleia fale Kirsty"),
        ("assistant", MONDAY, "So Boots comes over with Kirsty to mend the shed."),
        ("user", MONDAY, "Faafetai."),
    ]
    directory = Directory({"ellis-morgan": "Ellis Morgan"}, {})
    a = extract(segment(conversation(*messages)), directory)
    assert directory.aliases == {"Boots": "ellis-morgan"}
    assert "So Boots comes over with Kirsty to mend the shed." in [s.text for s in a.sentences]
