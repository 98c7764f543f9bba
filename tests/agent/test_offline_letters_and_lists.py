"""A letter or message set in quotation marks across several lines is someone else's words,
as a `>` quotation is: its "I" is the one who signs it, never the user. A letter is known by
its own form (a greeting first, a sign-off with a name last), whatever the line before it
says. A title before a full name ("Mrs Ilse Marwick") names the person of that full name.
Ellipses set between a listed record's fields ("Mum ... gloves ... £20") lead from field to
field: the record is one line, kept whole."""

from __future__ import annotations

import pytest

from doctree.agent.offline.segment import is_letter, quote_marked_blocks
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY = "2031-10-02T10:00:00Z"


def people(repo: DocumentsRepository) -> dict[str, str]:
    return {
        d.path.rsplit("/", 1)[1]: d.body
        for d in repo.documents("main", "~/memory/people")
        if d.path.count("/") == 3
    }


def user_lines(repo: DocumentsRepository) -> str:
    return "\n".join(
        ln
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path and "/people/" not in d.path
        for ln in d.body.splitlines()
        if ln.startswith("- ") and "The user" in ln
    )


LETTERS = [
    (
        "My uncle asked me to type this up for the housing office:\n\n"
        '"Dear Sir or Madam,\nI am writing about the boiler at 4 Heron Court. I am 79 and I'
        " have angina, so the cold is dangerous for me. My account number is HX-30218.\n"
        'Yours faithfully,\nWalter Pryce"\n\nI said I would post it tomorrow.',
        "walter-pryce",
        ("79", "angina"),
    ),
    (
        "Can you keep this for my neighbour, she can't use email:\n"
        "“Dear Dr Lowe,\nI have had a cough for six weeks and I am 83 now.\n"
        "Kind regards,\nMaud Ellery”",
        "maud-ellery",
        ("83", "cough"),
    ),
]


@pytest.mark.parametrize(("message", "slug", "facts"), LETTERS)
def test_a_letter_in_quotation_marks_is_its_signers_never_the_users(repo, message, slug, facts):
    run(repo, transcript("s-letter", ("user", DAY, message)))
    pages = people(repo)
    assert slug in pages, sorted(pages)
    for fact in facts:
        assert fact in pages[slug], pages[slug]
        assert fact not in user_lines(repo), user_lines(repo)


def test_quotation_marks_within_a_line_or_left_open_change_nothing():
    one_line = 'She said "the boiler is fine" and left.\nThen I rang.'
    assert quote_marked_blocks(one_line) == one_line
    unclosed = '"Dear Sam,\nI am 40.\nNo end to this quotation.'
    assert quote_marked_blocks(unclosed) == unclosed
    marked = quote_marked_blocks('intro:\n"Dear Sam,\nI am 40.\nBest, Ana"\nafter')
    assert marked == "intro:\n> Dear Sam,\n> I am 40.\n> Best, Ana\nafter"


def test_a_letter_is_known_by_its_greeting_and_its_signed_sign_off():
    assert is_letter(["Dear Sam,", "I am 40.", "Best, Ana Ruiz"])
    assert not is_letter(["Dear Sam,", "I am 40."])  # no sign-off: whose it is is unknown
    assert not is_letter(["I am 40.", "Best, Ana Ruiz"])  # no greeting: a note, not a letter


@pytest.mark.parametrize(
    ("said", "slug"),
    [
        ("Mrs Ilse Marwick next door feeds the cat when we're away.", "ilse-marwick"),
        ("Dr Anand Kapoor is my new GP at Fenwick Surgery.", "anand-kapoor"),
    ],
)
def test_a_title_before_a_full_name_names_the_person_of_that_name(repo, said, slug):
    run(repo, transcript("s-title", ("user", DAY, said)))
    pages = people(repo)
    first = slug.split("-")[0]
    assert not any(p.endswith(f"-{first}") for p in pages), sorted(pages)  # no "mrs-ilse"
    assert slug in pages, sorted(pages)


def test_ellipses_set_between_a_records_fields_do_not_end_a_sentence():
    from doctree.agent.offline.segment import split_sentences

    assert split_sentences("Mum (Hilda) ... wool gloves ... £20") == [
        "Mum (Hilda) ... wool gloves ... £20"
    ]
    assert split_sentences("Dad (Otto) ... Wainwright guides ... £45") == [
        "Dad (Otto) ... Wainwright guides ... £45"
    ]
    assert split_sentences("I waited... then he came. Fine.") == [
        "I waited... then he came.",
        "Fine.",
    ]
    # one ellipsis before a capital still ends a sentence
    assert split_sentences("So tired... Going to bed.") == ["So tired...", "Going to bed."]


def test_a_listed_record_with_leaders_is_kept_whole_and_each_line_of_the_list_too(repo):
    listing = (
        "Presents, can you keep this:\n\n"
        "Mum (Hilda) ... wool gloves ... £20\n"
        "Tobias, my nephew, 9 ... kite ... £40\n"
        "Greta, my niece, 6 ... watercolour paint set ... £35\n"
    )
    run(repo, transcript("s-list", ("user", DAY, listing)))
    # each line whole, on the page of the person it names by a role ("Mum (Hilda)")
    pages = {d.path: d.body for d in repo.documents("main", "~/memory") if "/archive" not in d.path}
    for page, kept in (
        ("hilda", "Hilda) ... wool gloves ... £20"),
        ("tobias", "kite ... £40"),
        ("greta", "paint set ... £35"),
    ):
        assert kept in pages.get(f"~/memory/people/{page}", ""), pages
