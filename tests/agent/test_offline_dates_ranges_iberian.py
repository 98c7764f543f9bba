"""A stretch of days said in Spanish or Portuguese with its month ("de 12 a 19 de abril",
"desde el 3 hasta el 5 de mayo", "do dia 3 ao dia 5 de maio") has both its ends made
absolute, as the Italian, French and German ones are; a range of other numbers ("de 3 a 5
euros", "de 12 a 19 anos") is no stretch of days."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.resolve import resolve_relative

MARCH = date(2030, 3, 1)


@pytest.mark.parametrize(
    "said",
    [
        "Vou a Madrid de 3 a 5 de maio.",
        "Estaré fuera desde el 3 hasta el 5 de mayo.",
        "Fico em casa do dia 3 ao dia 5 de maio.",
        "Estamos fuera de 3 a 5 de mayo, luego volvemos.",
        "Siamo via dal 3 al 5 maggio.",
        "Je suis absent du 3 au 5 mai.",
        "Ich bin vom 3. bis 5. Mai weg.",
    ],
)
def test_a_stretch_of_days_in_another_language_has_both_ends(said):
    out, found = resolve_relative(said, MARCH)
    assert [d for _, d in found] == [date(2030, 5, 3), date(2030, 5, 5)], out
    assert "(2030-05-03 to 2030-05-05)" in out


@pytest.mark.parametrize(
    "said",
    ["Custa de 3 a 5 euros.", "Tenho alunos de 12 a 19 anos.", "Cuesta de 3 a 5 mil pesos."],
)
def test_a_range_of_other_numbers_is_no_stretch_of_days(said):
    out, found = resolve_relative(said, MARCH)
    assert found == [] and out == said
