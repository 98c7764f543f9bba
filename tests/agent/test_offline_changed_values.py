"""A value said to have changed in a later session ("down to 11.2 kg", "cut the dose to 5 mg",
"we fly on the 4th instead") replaces the one line of memory that held the old value, on
whatever page holds it, and the old line stays readable under "Past"; when two lines could
be meant, or nothing says the value changed, both stay."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def _current(body: str) -> str:
    return "\n".join(ln for ln in body.split("\n") if " — past: " not in ln).split("## Past")[0]


def _current_facts(repo: DocumentsRepository) -> str:
    """The fact lines of every page a person reads that still hold now (no session list)."""
    lines = []
    for path, body in _pages(repo).items():
        if "/archive/" in path:
            continue
        for section in _current(body).split("\n## ")[1:]:
            name, *rest = section.split("\n")
            if name.strip() not in ("Recent sessions", "Sessions", "Related"):
                lines += [ln for ln in rest if ln.startswith("- ")]
    return "\n".join(lines)


def _past(repo: DocumentsRepository) -> str:
    return "\n".join(
        ln for p, b in _pages(repo).items() if "/archive/" not in p for ln in b.split("\n")
        if " — past: " in ln
    )  # fmt: skip


def _two_sessions(repo: DocumentsRepository, first: str, later: str) -> None:
    run(repo, transcript("s-one", ("user", "2029-05-02T09:00:00Z", first)))
    run(repo, transcript("s-two", ("user", "2029-06-12T09:00:00Z", later)))


def test_a_weight_down_to_a_new_value_replaces_the_one_weighed_before(repo):
    _two_sessions(
        repo,
        "Dr. Okafor weighed her at 12 kg and wants her a bit lighter.",
        "Biscuit's check went well, she is down to 11.2 kg.",
    )
    now = _current_facts(repo)
    assert "11.2 kg" in now, now
    assert "12 kg" not in now, now
    assert "12 kg" in _past(repo)  # kept, dated, under Past


def test_a_dose_cut_to_a_new_value_replaces_the_earlier_dose(repo):
    _two_sessions(
        repo,
        "The nurse started Tomasz on Cetirizine, 10 mg every morning.",
        "His hay fever calmed down, so the nurse cut the Cetirizine to 5 mg.",
    )
    now = _current_facts(repo)
    assert "5 mg" in now and "10 mg" not in now, now
    assert "10 mg" in _past(repo)


def test_a_date_changed_with_instead_moves_the_old_date_off_the_upcoming_list(repo):
    _two_sessions(
        repo,
        "We fly to Oslo on 3 August and come back on the Sunday.",
        "The airline cancelled, so we fly on 4 August instead.",
    )
    now = _current_facts(repo)
    assert "2029-08-04" in now, now
    assert "2029-08-03" not in now, now
    assert "2029-08-03" in _past(repo)


def test_a_value_said_again_without_a_word_of_change_stays_a_second_fact(repo):
    _two_sessions(repo, "I ran 5 km along the canal today.", "I ran 10 km along the canal today.")
    now = _current_facts(repo)
    assert "5 km" in now and "10 km" in now, now


def test_nothing_moves_when_two_earlier_lines_could_be_meant(repo):
    _two_sessions(
        repo,
        "The vet weighed the puppy at 9 kg. My suitcase came to 23 kg at the airport.",
        "Good news, it is down to 8 kg.",
    )
    now = _current_facts(repo)
    assert "9 kg" in now and "23 kg" in now and "8 kg" in now, now


def test_an_amount_with_a_currency_sign_corrected_later_in_the_session_is_fixed(repo):
    run(
        repo,
        transcript(
            "s-bike",
            (
                "user",
                "2029-05-02T09:00:00Z",
                "The shop charged £2,300 for the cargo bike and £90 for the lock.",
            ),
            (
                "user",
                "2029-05-02T09:05:00Z",
                "I got the bike price wrong, it was £2,450, not £2,300.",
            ),
        ),
    )
    now = _current_facts(repo)
    assert "£2,450 for the cargo bike" in now, now
    assert "£2,300 for the cargo bike" not in now, now
    assert "£2,300" in _past(repo)


def test_the_list_of_recent_sessions_drops_an_opening_sentence_that_was_replaced(repo):
    _two_sessions(
        repo,
        "Picked Biscuit up from the groomer today. Dr. Okafor weighed her at 12 kg and wants "
        "her a bit lighter.",
        "Biscuit's check went well, she is down to 11.2 kg.",
    )
    active = _pages(repo)["~/memory/active"]
    recent = active.split("## Recent sessions")[1]
    assert "Picked Biscuit up from the groomer today." in recent  # the rest of it stays
    assert "12 kg" not in recent, recent


def test_a_value_named_as_wrong_in_a_later_session_moves_its_line_to_past(repo):
    _two_sessions(
        repo,
        "The boiler service came back fine, the meter read 31,870 units.",
        "Checked the photo again: the meter read 31,780, not 31,870.",
    )
    now = _current_facts(repo)
    assert "31,780" in now
    assert not [ln for ln in now.split("\n") if "31,870" in ln and "31,780" not in ln]
    assert "31,870" in _past(repo)


def test_a_value_named_as_wrong_later_in_the_session_is_corrected_in_the_sentence_that_said_it(
    repo,
):
    run(
        repo,
        transcript(
            "s-trip",
            (
                "user",
                "2027-03-01T10:00:00Z",
                "We leave on the 14th and come home on the 20th of March.",
            ),
            ("user", "2027-03-01T10:05:00Z", "Oops, we come home on the 21st, not the 20th."),
        ),
    )
    now = _current_facts(repo)
    assert "2027-03-21" in now and "2027-03-14" in now
    assert "2027-03-20" not in now


def test_a_small_bare_number_or_a_time_against_a_number_is_not_taken_as_a_named_old_value():
    from doctree.agent.offline.resolve import values_contrasted

    assert values_contrasted("bring 4, not 3") is None
    assert values_contrasted("load in is 5:30 not 6") is None
    assert values_contrasted("it was £95, not £59") == ("£95", "£59")


def test_a_bare_day_set_against_a_date_later_corrects_the_date_of_that_month(repo):
    _two_sessions(
        repo,
        "The gym membership at Corvex renews on 3 March.",
        "Small fix: the gym membership renews on 13 March, not the 3rd.",
    )
    now = _current_facts(repo)
    assert "2030-03-13" in now or "13 March" in now, now
    assert not [ln for ln in now.split("\n") if "3 March" in ln and "13 March" not in ln], now
    pages = _pages(repo)
    assert "2029-07-03" not in "\n".join(pages.values())  # "the 3rd" is no day of next month


def test_a_recurring_day_moved_later_replaces_the_day_it_was_on(repo):
    _two_sessions(
        repo,
        "Choir practice is Wednesdays at 7 in the church hall.",
        "Choir practice moves to Mondays from September, the hall is booked on Wednesdays now.",
    )
    now = _current_facts(repo)
    assert "Mondays" in now, now
    assert not [ln for ln in now.split("\n") if "Wednesdays at 7" in ln], now
    assert "Wednesdays at 7" in _past(repo)
    assert now.count("Choir practice moves to Mondays") == 1, now  # stated once, not twice


def test_a_quoted_opening_too_long_to_show_ends_on_a_whole_sentence():
    from doctree.agent.offline.pages import quote

    said = "Plans changed. Please swap the soup for the salad and move Ines to table four tonight."
    assert quote(said, 60) == "`Plans changed. …`"
    assert quote("Dr. Osei rang. The scan moved from the 3rd to the 9th of May.", 30) == (
        "`Dr. Osei rang. …`"  # a title's full stop ends no sentence
    )
    assert quote("a" * 50, 10) == "`aaaaaaaaa…`"  # no sentence end: cut as before


def test_a_plan_taken_back_after_all_replaces_the_line_that_made_it(repo):
    _two_sessions(
        repo,
        "Grandpa Joe is minding Pepper while we are in Crete.",
        "Grandpa Joe can't take Pepper after all, so she goes to the kennels at Fernhill.",
    )
    now = _current_facts(repo)
    assert "Fernhill" in now, now
    assert not [ln for ln in now.split("\n") if "minding Pepper" in ln], now
    assert "minding Pepper" in _past(repo)


def test_a_plan_taken_back_about_someone_else_leaves_the_line(repo):
    _two_sessions(
        repo,
        "Grandpa Joe is minding Pepper while we are in Crete.",
        "Aunt Lou can't make the barbecue with Dev after all.",
    )
    assert "minding Pepper" in _current_facts(repo)


def test_a_count_corrected_with_what_it_counts_edits_the_line_that_counted_it(repo):
    run(
        repo,
        transcript(
            "s-stew",
            (
                "user",
                "2027-03-02T18:00:00Z",
                "Stew for Sunday:\n\n- 3 tins of tomatoes\n- 2 onions\n- 400g lentils",
            ),
            (
                "user",
                "2027-03-02T18:05:00Z",
                "Hang on, it's 4 tins not 3, and 2 of the onions are red.",
            ),
        ),
    )
    bodies = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    current = [ln for ln in bodies.splitlines() if "tins" in ln and "past" not in ln.lower()]
    assert any("4 tins" in ln for ln in current), current
    assert not any("3 tins" in ln for ln in current), current
    assert "4 tins tins" not in bodies


def test_a_small_bare_number_corrected_without_what_it_counts_is_left_as_said():
    from doctree.agent.offline.resolve import values_contrasted

    assert values_contrasted("bring 4, not 3") is None
    assert values_contrasted("we need 2 of them not 3") is None
    assert values_contrasted("it's 2 eggs not 3") == ("2 eggs", "3 eggs")


def test_a_version_said_to_be_another_now_replaces_the_line_that_gave_it(repo):
    run(
        repo,
        transcript(
            "s-nas",
            ("user", "2027-03-02T18:00:00Z", "My NAS is a Synology DS220 running firmware 7.1.1."),
        ),
    )
    run(
        repo,
        transcript(
            "s-nas-2",
            (
                "user",
                "2027-03-20T18:00:00Z",
                "The NAS is on firmware 7.2.0 now, updated it Sunday.",
            ),
        ),
    )
    current = [
        ln
        for d in repo.documents("main", "~/memory")
        if not d.path.startswith("~/memory/archive")
        for ln in d.body.split("## Past")[0].splitlines()
        if "firmware" in ln and "`" not in ln  # a session's quoted opening is no fact line
    ]
    assert any("7.2.0" in ln for ln in current), current
    assert not any("7.1.1" in ln for ln in current), current
    past = [
        ln
        for d in repo.documents("main", "~/memory")
        if "## Past" in d.body
        for ln in d.body.split("## Past")[1].splitlines()
    ]
    assert any("7.1.1" in ln for ln in past), past


def test_a_correction_replaces_the_other_line_about_the_same_thing_on_any_page(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2029-05-02T09:00:00Z", "The school concert is on Friday."),
            ("user", "2029-05-02T09:05:00Z", "Let's all meet at Brook House for it."),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            (
                "user",
                "2029-05-06T09:00:00Z",
                "Actually the school concert was at Hollins Hall, not Brook House.",
            ),
        ),
    )
    now = _current_facts(repo)
    assert "The school concert is on Friday" not in now, now
    assert "The school concert was at Hollins Hall" in now, now
    assert "The school concert is on Friday" in _past(repo)


def test_a_correction_leaves_a_line_about_another_thing_of_one_shared_word(repo):
    run(repo, transcript("s-one", ("user", "2029-05-02T09:00:00Z", "The concert is on Friday.")))
    run(
        repo,
        transcript(
            "s-two",
            (
                "user",
                "2029-05-06T09:00:00Z",
                "Actually the school concert was at Hollins Hall, not Brook House.",
            ),
        ),
    )
    assert "The concert is on Friday" in _current_facts(repo)


def test_a_time_said_not_another_in_a_later_session_replaces_it(repo):
    _two_sessions(
        repo,
        "Ran the 5k time trial at the track, finished in 21:52, legs felt heavy.",
        "typo earlier: the time trial was 21:25 not 21:52",
    )
    now = _current_facts(repo)
    assert "21:25" in now, now
    assert "21:52" not in now.replace("not 21:52", ""), now
    assert "21:52" in _past(repo)
