"""A firm's name read at the end of a sentence ("… to Dunmore Glazing.") ends before the
sentence's full stop: its page is titled without it. The point of "Ltd." or "Inc." is the
name's own."""

from __future__ import annotations

from doctree.agent.offline import language as lang
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _firms(text: str) -> list[str]:
    return [m.group("name") for m in lang.ORGS[0].finditer(text)]


def test_the_full_stop_is_no_part_of_the_name():
    assert _firms("We paid the deposit to Dunmore Glazing.") == ["Dunmore Glazing"]


def test_an_abbreviation_keeps_its_point():
    assert _firms("The invoice came from Pellworth Ltd. yesterday") == ["Pellworth Ltd."]
    assert _firms("They were bought by Quillon Inc.") == ["Quillon Inc."]


def test_the_page_title_has_no_full_stop(repo: DocumentsRepository):
    day = "2037-05-05T09:00:00Z"
    said = "We paid the £400 deposit to Dunmore Glazing."
    run(repo, transcript("s-firm", ("user", day, said), ("assistant", day, "Noted.")))
    titles = [
        d.body.splitlines()[0]
        for d in repo.documents("main", "~/memory")
        if "/organisations/" in d.path
    ]
    assert "# Dunmore Glazing" in titles
