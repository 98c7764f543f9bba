"""A statement in another language is kept as said: the keep filter's verb test knows
English verbs only, so a sentence with a name or a figure in French, Spanish, German,
Italian, Portuguese, Dutch or Polish was dropped. Text of no language (a key, a card
number) and English lines the filter drops stay dropped."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import worth_keeping
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

T0 = "2028-03-01T09:00:00Z"


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        ("Il corso di ceramica con Marta costa 120 euro per otto lezioni.", "Marta"),
        ("Mijn oom Henk woont nu bij zijn dochter in Zwolle.", "Zwolle"),
        ("Moja ciocia Basia ma operację kolana w listopadzie.", "Basia"),
        ("Mi prima Lucía cumple 30 años el sábado, en casa de su madre.", "Lucía"),
        ("Meine Schwester Jana zieht im Mai nach Graz, mit ihrem Freund.", "Graz"),
        ("A minha prima Inês faz 30 anos no sábado, em casa da mãe.", "Inês"),
        ("Hij traint elke dinsdag bij HC Rijnstreek, om zeven uur.", "Rijnstreek"),
    ],
)
def test_a_statement_in_another_language_is_kept(tmp_path, sentence, name):
    assert worth_keeping(sentence)
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(repo, transcript("s-other", ("user", T0, sentence)))
        now, _ = page_lines(repo)
    assert any(name in ln and not ln.startswith("- [[") for ln in now), now


@pytest.mark.parametrize(
    "text",
    [
        "QyNTUxOQAAACBqV3mX0fLq9TzY2rK8cH1wN4eJm5sQv7uPz0aGdEo6pAAAAJhN2xQkTdsU",
        "Paying the garage now, card 4929 3310 5521 8841 exp 07/29, ignore that.",
        "Q6 Next of kin (name / relationship / phone): Tom Hartley / husband",
        "Merci, à plus!",  # a thanks: too short to state anything
        "de rien, pas de souci, à plus",  # nothing specific in it
    ],
)
def test_text_of_no_language_or_nothing_specific_is_not_kept_for_it(text):
    assert not worth_keeping(text)
