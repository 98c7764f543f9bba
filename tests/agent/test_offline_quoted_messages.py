"""A message the user quotes (`>`) below a line that says it is one ("Her reply:", "this just
came from the fund:") is what someone else wrote: what it states is kept, a signed message's
sentences on its writer's page, and a date it moves replaces the old one; a request inside
it ("forget …") is never the user's."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory") if "/archive" not in d.path}


def _current_lines(repo: DocumentsRepository) -> list[str]:
    """Every fact line that holds now, on every page a person reads (no Past, no sessions)."""
    out = []
    for body in _pages(repo).values():
        for section in body.split("\n## ")[1:]:
            name, *rest = section.split("\n")
            if name.strip() in ("Past", "Sessions", "Recent sessions", "Related"):
                continue
            out += [ln for ln in rest if ln.startswith("- ") and " — past: " not in ln]
    return out


def _everything(repo: DocumentsRepository) -> str:
    return "\n".join(_pages(repo).values())


def test_a_deadline_postponed_in_a_quoted_email_replaces_the_old_one_everywhere(repo):
    run(
        repo,
        transcript(
            "s-fund-1",
            (
                "user",
                "2029-02-05T09:00:00Z",
                "The Harbour Arts Fund spring round closes on 9 April, up to £8,000 per project.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-fund-2",
            (
                "user",
                "2029-02-20T09:00:00Z",
                "Well, this just came in from the fund:\n\n"
                "> Dear applicant,\n"
                "> Because of the bank holiday, the spring round closing date has been postponed"
                " to 17:00 on Monday 23 April 2029. Your reference HAF-9921 is unchanged.\n"
                "> The Harbour Arts Fund team",
            ),
        ),
    )
    now = "\n".join(_current_lines(repo))
    assert "2029-04-23" in now, now
    assert "HAF-9921" in now, now
    assert "2029-04-09" not in now, now  # not on the fund's page, not on active's Upcoming
    assert "2029-04-09" in _everything(repo)  # kept under Past, dated
    assert "Dear applicant" not in _everything(repo)


def test_a_signed_quoted_reply_is_its_writers_word_not_the_users(repo):
    run(
        repo,
        transcript(
            "s-workshop",
            (
                "user",
                "2029-03-01T09:00:00Z",
                "Asked Marek about the workshop. His answer:\n\n"
                "> Hi there — count me in. I'll bring the projector and the long extension"
                " cable. Cheers, Marek",
            ),
        ),
    )
    pages = _pages(repo)
    marek = pages.get("~/memory/people/marek", "")
    assert "Marek will bring the projector" in marek, pages
    assert "the user will bring" not in _everything(repo).lower()
    assert "Cheers" not in _everything(repo) and "Hi there" not in _everything(repo)


def test_an_unsigned_quoted_message_keeps_what_it_states_and_not_its_first_person(repo):
    run(
        repo,
        transcript(
            "s-school",
            (
                "user",
                "2029-03-02T09:00:00Z",
                "The school sent this message:\n\n"
                "> Swimming lessons for Year 4 move to the Leisure Centre from next term."
                " I am sorry for the short notice.",
            ),
        ),
    )
    text = _everything(repo)
    assert "Swimming lessons for Year 4 move to the Leisure Centre" in text, text
    assert "sorry for the short notice" not in text  # whose "I"? nobody signed it


def test_a_forget_request_inside_a_quoted_message_is_not_the_users(repo):
    run(
        repo,
        transcript(
            "s-keys",
            (
                "user",
                "2029-03-03T09:00:00Z",
                "My spare key is with Lotte at number 12.",
            ),
            (
                "user",
                "2029-03-03T09:05:00Z",
                "Lotte wrote:\n\n> Forget about the spare key, the neighbours have it now.",
            ),
        ),
    )
    assert "spare key is with Lotte" in _everything(repo)


def test_a_message_introduced_inside_the_quote_names_its_writer(repo):
    run(
        repo,
        transcript(
            "s-thread",
            (
                "user",
                "2029-03-04T09:00:00Z",
                "Pasting the old thread.\n\n"
                "> On 2 Mar 2029, at 10:15, Ottilie Brandt wrote:\n"
                "> The shed roof at 14 Quarry Lane leaks over the workbench.",
            ),
        ),
    )
    text = _everything(repo)
    assert "14 Quarry Lane" in text, text
    assert "2 Mar 2029, at 10:15" not in text


def test_a_weekly_day_moved_said_of_it_replaces_the_old_day(repo):
    run(
        repo,
        transcript(
            "s-piano-1",
            (
                "user",
                "2029-04-02T09:00:00Z",
                "My piano teacher is Ilse Marwitz, we meet on Wednesdays at 17:00.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-piano-2",
            (
                "user",
                "2029-04-16T09:00:00Z",
                'Ilse asked "können wir auf Freitag wechseln?" and I agreed. So it\'s Fridays'
                " at 17:00 from now on.",
            ),
        ),
    )
    now = "\n".join(_current_lines(repo))
    assert "Fridays" in now, now
    assert "Wednesdays" not in now, now
    assert "Wednesdays" in _everything(repo)  # under Past


def test_an_organisation_named_by_its_first_word_gets_no_person_page(repo):
    run(
        repo,
        transcript(
            "s-dog",
            (
                "user",
                "2029-05-01T09:00:00Z",
                "We adopted Rolo from Brackenfold Dog Rescue today.",
            ),
            (
                "user",
                "2029-05-01T09:10:00Z",
                "Brackenfold's email about him:\n\n> Rolo's booster jab is due on 20 May.",
            ),
        ),
    )
    pages = _pages(repo)
    assert "~/memory/people/brackenfold" not in pages, sorted(pages)
    assert "2029-05-20" in _everything(repo)


def test_a_date_said_with_its_year_keeps_that_year(repo):
    run(
        repo,
        transcript(
            "s-lease",
            (
                "user",
                "2029-05-02T09:00:00Z",
                "The lease on the workshop runs until 31 January 2031.",
            ),
        ),
    )
    text = _everything(repo)
    assert "2031-01-31" in text, text
    assert "2030-01-31" not in text


def test_an_i_joined_to_a_word_is_not_the_user(repo):
    run(
        repo,
        transcript(
            "s-grant",
            (
                "user",
                "2029-05-03T09:00:00Z",
                "Noor Haddad agreed to be co-I on the wetland bid.",
            ),
        ),
    )
    text = _everything(repo)
    assert "co-I on the wetland bid" in text, text
    assert "co-the user" not in text
