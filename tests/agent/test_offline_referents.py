"""A person named with a role ("my wife Sal", "Dad (Brian)", "our eldest, Jonah") and later
meant by the role alone ("the wife passed", "Dad's hearing aids"): the later line goes on
that person's page with the name in brackets, within a session and across sessions; and
nothing is resolved when two people, nobody or an animal could be meant."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.directory import OTHER_KINDS, Directory
from doctree.agent.offline.extract import read_sentence
from doctree.agent.offline.resolve import Context
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory") if "/archive" not in d.path}


def _people(repo: DocumentsRepository) -> dict[str, str]:
    return {p: b for p, b in _pages(repo).items() if p.startswith("~/memory/people/")}


def _said(repo: DocumentsRepository, *lines: str, session: str = "s-role", day: str = "2029-06-01"):
    """Each line a user message of one session, a minute apart."""
    run(
        repo,
        transcript(session, *[("user", f"{day}T09:{i:02d}:00Z", ln) for i, ln in enumerate(lines)]),
    )


@pytest.mark.parametrize(
    ("named", "alone", "page", "line"),
    [
        (
            "My wife Sal works at the library.",
            "The wife passed her driving test today.",
            "sal",
            "The wife (Sal) passed her driving test",
        ),
        (
            "Sal, the wife, runs the bakery on Mill Lane.",
            "The missus is off to Rome on Friday.",
            "sal",
            "The missus (Sal) is off to Rome",
        ),
        (
            "The wife (Dana, for the record) sings in a choir.",
            "The wife has a concert at St Anne's on Saturday.",
            "dana",
            "The wife (Dana) has a concert",
        ),
        (
            "Our eldest, Jonah, is nine.",
            "Our eldest broke his wrist at football.",
            "jonah",
            "eldest (Jonah) broke his wrist",
        ),
        (
            "Dad (Brian) turns 70 in May.",
            "Dad's hearing aids arrived this morning.",
            "brian",
            "Dad's (Brian's) hearing aids arrived",
        ),
        (
            "My mum, Helen, lives in Bath.",
            "My mom has started pottery classes on Tuesdays.",
            "helen",
            "mom (Helen) has started pottery classes",
        ),
        (
            "My sister Grace's husband Tom is a pilot.",
            "Grace's husband flies to Lima on Monday.",
            "tom",
            "Grace's husband (Tom) flies to Lima",
        ),
    ],
)
def test_a_role_said_alone_means_the_one_person_named_in_it(
    repo: DocumentsRepository, named: str, alone: str, page: str, line: str
) -> None:
    _said(repo, named, alone)
    body = _people(repo).get(f"~/memory/people/{page}", "")
    assert line in body, _people(repo)


@pytest.mark.parametrize(
    ("named", "alone", "page", "line"),
    [
        (
            "The wife (Dana, for the record) has her driving test on Wednesday 3 March.",
            "The wife passed! Third time lucky.",
            "dana",
            "The wife (Dana) passed!",
        ),
        (
            "Christmas list: Dad (Gordon) gets the walking guides, £45.",
            "Dad's guides are bought and wrapped.",
            "gordon",
            "Dad's (Gordon's) guides are bought",
        ),
        (
            "Grace's eldest, Tobi, got into Leeds to do medicine.",
            "Grace's eldest has got his halls sorted, Lupton Residences.",
            "tobi",
            "Grace's eldest (Tobi) has got his halls sorted",
        ),
    ],
)
def test_a_role_named_in_an_earlier_session_is_read_from_its_page(
    repo: DocumentsRepository, named: str, alone: str, page: str, line: str
) -> None:
    _said(repo, named, session="s-1", day="2032-02-23")
    _said(repo, alone, session="s-2", day="2032-03-08")
    body = _people(repo).get(f"~/memory/people/{page}", "")
    assert line in body, _people(repo)


def test_a_persons_role_is_kept_on_their_page(repo: DocumentsRepository) -> None:
    """ "The eldest, Finn, starts …": Finn is the user's eldest, and the line is his, not
    that of the woman named in the sentence before."""
    _said(
        repo,
        "The wife (Dana) has her driving test on Wednesday 3 March. The eldest, Finn, starts "
        "his apprenticeship at Vantage Motors on Wednesday 10 March.",
    )
    people = _people(repo)
    assert "Relation: the user's eldest" in people.get("~/memory/people/finn", ""), people
    assert "Relation: the user's wife" in people.get("~/memory/people/dana", ""), people
    assert "apprenticeship" not in people.get("~/memory/people/dana", "")


def test_his_role_means_the_one_man_named_just_before(repo: DocumentsRepository) -> None:
    _said(repo, "My brother Tom's wife is Anya.", session="s-1")
    _said(repo, "Tom bought a new bike. His wife is thrilled about it.", session="s-2")
    assert "His wife (Anya) is thrilled" in _people(repo).get("~/memory/people/anya", "")


def test_his_role_after_a_man_and_an_animal_is_left_as_said(repo: DocumentsRepository) -> None:
    """A pet named near a person is a second "his": the wife could be either's to a rule.
    Said by the owner's name, the same role is hers."""
    _said(repo, "My brother Tom's wife is Anya.", session="s-1")
    _said(
        repo,
        "Tom got a puppy called Rex. His wife is thrilled about it.",
        "Tom's wife starts at the bank on Monday.",
        session="s-2",
    )
    anya = _people(repo).get("~/memory/people/anya", "")
    assert "Tom's wife (Anya) starts at the bank" in anya, _people(repo)
    assert "thrilled" not in anya


def test_a_role_two_people_have_means_neither(repo: DocumentsRepository) -> None:
    _said(
        repo,
        "My sister Grace lives in Leeds.",
        "My sister Ruth lives in York.",
        "My sister is coming to stay on Friday.",
        "My wife Sal works at the library.",
        "The wife is off to Rome on Friday.",
    )
    people = _people(repo)
    assert "The wife (Sal) is off to Rome" in people.get("~/memory/people/sal", ""), people
    assert not any("coming to stay" in b for b in people.values()), people
    assert any("coming to stay" in b for b in _pages(repo).values())  # kept, as said


def test_a_role_never_given_a_name_stays_as_said(repo: DocumentsRepository) -> None:
    _said(
        repo,
        "The wife has her driving test on Friday.",
        "Our eldest starts school in May.",
        "Dad (Brian) turns 70 in June.",
        "Dad's knee is much better.",
    )
    people = _people(repo)
    assert list(people) == ["~/memory/people/brian"], people
    assert "Dad's (Brian's) knee is much better" in people["~/memory/people/brian"]
    assert any("driving test" in b for b in _pages(repo).values())


def test_she_after_two_women_is_left_as_said(repo: DocumentsRepository) -> None:
    _said(repo, "My wife Sal and my mum Brenda went to Bath.", "She starts a new job on Monday.")
    people = _people(repo)
    assert not any("new job" in b for b in people.values()), people
    assert any("She starts a new job" in b for b in _pages(repo).values())  # kept, as said


def test_she_after_one_woman_still_means_her(repo: DocumentsRepository) -> None:
    _said(repo, "My wife Sal went to Bath with her brother Ned.", "She starts a new job on Monday.")
    assert "Sal starts a new job" in _people(repo).get("~/memory/people/sal", "")


@pytest.mark.parametrize(
    "said",
    [
        "I'm the eldest of four myself.",
        "The eldest of the twins is taller.",
        "She was my sister's best friend at school.",
    ],
)
def test_a_role_said_as_what_someone_is_names_nobody(repo: DocumentsRepository, said: str) -> None:
    _said(
        repo,
        "Our eldest, Jonah, is nine.",
        "My sister Ruth lives in York.",
        said,
        "Our eldest broke his wrist at football.",
    )
    people = _people(repo)
    assert "eldest (Jonah) broke his wrist" in people.get("~/memory/people/jonah", ""), people
    assert not any(said[:-1] in b for b in people.values()), people


def test_forgetting_a_person_takes_the_lines_that_named_him_by_role(
    repo: DocumentsRepository,
) -> None:
    _said(repo, "My brother Tom lives in Hull.", session="s-1", day="2029-06-01")
    _said(
        repo,
        "My brother broke his leg skiing in Val Thorens.",
        "Dad (Brian) is driving up to see him.",
        session="s-2",
        day="2029-06-08",
    )
    assert "brother (Tom) broke his leg" in _people(repo).get("~/memory/people/tom", "")
    _said(repo, "Forget everything about Tom.", session="s-3", day="2029-06-09")
    pages = {d.path: d.body for d in repo.documents("main", "~/memory")}
    assert not any("Tom" in b or "Val Thorens" in b for b in pages.values()), pages
    assert "Brian" in pages.get("~/memory/people/brian", "")  # no line more


@pytest.mark.parametrize(
    ("said", "page", "line"),
    [
        ("Grace's eldest, Tobi, got into Leeds to do medicine.", "tobi", "got into Leeds"),
        ("Jess's youngest (Ava) starts nursery in May.", "ava", "starts nursery in May"),
        ("My sister Grace's husband, Femi, is a nurse in Lewisham.", "femi", "nurse in Lewisham"),
    ],
)
def test_a_sentence_opening_on_a_role_and_its_name_is_about_that_person(
    repo: DocumentsRepository, said: str, page: str, line: str
) -> None:
    _said(repo, said)
    assert line in _people(repo).get(f"~/memory/people/{page}", ""), _people(repo)


def test_his_role_in_a_later_session_reads_who_is_a_man_from_the_pages(
    repo: DocumentsRepository,
) -> None:
    """Grace is the user's sister and Femi her husband, as their pages say: the one man of
    the two named before "his mum" is Femi."""
    _said(
        repo,
        "My sister Grace's husband is Femi.",
        "His mum, who everyone calls Mama Bola, turns 75 in July.",
        session="s-1",
        day="2032-06-10",
    )
    _said(
        repo,
        "Grace rang last night.",
        "Femi's away with work, so his mum's party has moved to Saturday 24 July.",
        session="s-2",
        day="2032-06-28",
    )
    people = _people(repo)
    assert "Role: Femi's mum" in people.get("~/memory/people/mama-bola", ""), people
    assert any("his mum's (Mama Bola's) party has moved" in b for b in people.values()), people


def test_her_after_two_women_one_known_only_from_her_page_is_left_as_said(
    repo: DocumentsRepository,
) -> None:
    """Grace is a woman by her page ("the user's sister"), Mama Bola by the role just read
    ("his mum"): "her eldest" could be either's, and is nobody's page's."""
    _said(
        repo,
        "My sister Grace's husband is Femi. His mum, who everyone calls Mama Bola, turns 75 "
        "in July. Grace's eldest, Tobi, got into Leeds.",
        session="s-1",
        day="2032-06-10",
    )
    _said(
        repo,
        "Update on Grace's lot: Femi's away with work, so his mum's party has moved to "
        "Saturday 24 July. Her eldest has got his halls sorted, Lupton Residences.",
        session="s-2",
        day="2032-06-28",
    )
    people = _people(repo)
    assert any("his mum's (Mama Bola's) party" in b for b in people.values()), people
    assert not any("halls" in b for b in people.values()), people


def test_a_named_speakers_my_is_their_own_not_the_users() -> None:
    """ "Anna: my husband Tom …" in a chat: Tom is Anna's husband, and "my husband" later in
    Anna's lines is Tom; the user's own "my husband" is nobody known."""
    directory = Directory({}, {}, {kind: {} for kind in OTHER_KINDS})
    context = Context(directory)
    ref = date(2031, 5, 4)
    said = [
        ("Anna", "My husband Tom is a pilot."),
        ("Anna", "My husband flies to Lima on Monday."),
        (None, "My husband is off work this week."),
    ]
    out = [read_sentence(f"2031-05-04T10:0{i}:00Z", raw, ref, directory, context, speaker=who)
           for i, (who, raw) in enumerate(said)]  # fmt: skip
    assert ("Tom", "Anna's husband") in out[0].roles
    assert "Tom" in out[1].people and "husband (Tom) flies" in out[1].text
    assert "Tom" not in out[2].people and "(Tom)" not in out[2].text


def test_a_pronoun_two_people_could_mean_goes_to_whom_the_assistants_restatement_names(repo):
    """ "She" after two women named is either, so the rules keep it as said; the assistant's
    reply restating the sentence with a name ("I'll note that Ines is allergic to sesame")
    reads whom the user meant, and the line goes on her page."""
    run(
        repo,
        transcript(
            "s-nursery",
            (
                "user",
                "2029-06-01T09:00:00Z",
                "My niece Ines starts nursery in May, her key worker is Mrs Adeyemi.",
            ),
            ("assistant", "2029-06-01T09:01:00Z", "Lovely."),
            ("user", "2029-06-01T09:02:00Z", "she's allergic to sesame, the nursery needs to know"),
            ("assistant", "2029-06-01T09:03:00Z", "I'll note that Ines is allergic to sesame."),
        ),
    )
    people = _people(repo)
    assert "sesame" in people["~/memory/people/ines"]
    assert "sesame" not in people.get("~/memory/people/mrs-adeyemi", "")


def test_a_restatement_naming_someone_the_conversation_never_named_resolves_nothing(repo):
    run(
        repo,
        transcript(
            "s-nursery-2",
            (
                "user",
                "2029-06-01T09:00:00Z",
                "My niece Ines starts nursery in May, her key worker is Mrs Adeyemi.",
            ),
            ("user", "2029-06-01T09:02:00Z", "she's allergic to sesame, the nursery needs to know"),
            ("assistant", "2029-06-01T09:03:00Z", "I'll note that Clara is allergic to sesame."),
        ),
    )
    people = _people(repo)
    assert not any("sesame" in body for body in people.values())


def _asked_whom(repo: DocumentsRepository, answer: str) -> str:
    """Odile named in one conversation; in the next, "she's moving to Leeds", the assistant
    asks "Is that Odile?" and the user gives `answer`: Odile's page."""
    run(
        repo,
        transcript(
            "s-twins",
            ("user", "2029-06-01T09:00:00Z", "My friend Odile has just had twins, Remy and Lou."),
        ),
    )
    run(
        repo,
        transcript(
            "s-twins-2",
            ("user", "2029-06-20T09:00:00Z", "she's moving to Leeds in June btw"),
            ("assistant", "2029-06-20T09:01:00Z", "Is that Odile?"),
            ("user", "2029-06-20T09:02:00Z", answer),
        ),
    )
    return _people(repo)["~/memory/people/odile"]


def test_she_goes_to_whom_the_assistant_asked_about_when_the_user_says_yes(repo):
    """A "she" at the start of a later conversation names nobody of it; the assistant asks
    "Is that Odile?" and the user says yes: the line goes on Odile's page, known from the
    conversation before."""
    assert "Leeds" in _asked_whom(repo, "yes")


def test_she_stays_as_said_when_the_user_says_no_to_the_name_asked(repo):
    assert "Leeds" not in _asked_whom(repo, "no, my cousin")


def test_a_role_said_in_a_familiar_word_is_written_in_the_plain_one(
    repo: DocumentsRepository,
) -> None:
    """ "The hubby, Arlo, …": Arlo's page says he is the user's husband, the word a later
    question asks by; the sentence itself stays as said."""
    _said(repo, "The hubby, Arlo, starts his new job at the depot on Monday 8 March.")
    body = _people(repo).get("~/memory/people/arlo", "")
    assert "Relation: the user's husband" in body, _people(repo)
    assert "The hubby, Arlo" in body


def test_a_role_said_plainly_is_written_as_said(repo: DocumentsRepository) -> None:
    _said(repo, "My partner, Arlo, starts his new job at the depot on Monday 8 March.")
    body = _people(repo).get("~/memory/people/arlo", "")
    assert "Relation: the user's partner" in body, _people(repo)


def test_he_is_never_whom_the_pages_know_as_a_woman(repo: DocumentsRepository) -> None:
    """Odile is the user's wife by her page; a later session names her and then says "he":
    he is not Odile (whom he is, nothing says), and the line stays as said."""
    _said(repo, "My wife Odile teaches piano on Tuesdays.", session="s-1", day="2032-03-01")
    _said(
        repo,
        "The new pony settled in fine, Odile was thrilled.",
        "He goes out on the top field from Monday.",
        session="s-2",
        day="2032-03-20",
    )
    people = _people(repo)
    assert "top field" not in people.get("~/memory/people/odile", ""), people
    assert any("He goes out on the top field" in b for b in _pages(repo).values())


def test_she_is_still_whom_the_pages_know_as_a_woman(repo: DocumentsRepository) -> None:
    _said(repo, "My wife Odile teaches piano on Tuesdays.", session="s-1", day="2032-03-01")
    _said(
        repo,
        "Odile rang from the school.",
        "She starts the autumn term on 4 September.",
        session="s-2",
        day="2032-03-20",
    )
    assert "autumn term" in _people(repo).get("~/memory/people/odile", "")
