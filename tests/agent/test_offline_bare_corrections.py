"""A correction that gives only the value ("sorry, 4:30", "make that Friday", "scratch
that, the 12th", "it's 6% not 5%"): it replaces the one line of its message or the one
before with a value of that kind; when no single line is the clear target, both stay as
said."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doctree.agent.offline import resolve
from doctree.agent.offline.resolve import bare_correction
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )


def said(repo: DocumentsRepository, *messages: str) -> str:
    run(
        repo,
        transcript(
            "s-1",
            *[("user", f"2027-05-03T18:{i:02d}:00Z", m) for i, m in enumerate(messages)],
        ),
    )
    return current(repo)


@pytest.mark.parametrize(
    ("first", "correction", "new", "old"),
    [
        ("The service charge goes up 5% from July.", "It's 6% not 5%.", "6%", "5%"),
        ("The service charge goes up 5% from July.", "Sorry, 6 percent.", "6 percent", "5%"),
        ("The dentist appointment is on Thursday at 4pm.", "Sorry, 4:30.", "4:30", "4pm"),
        ("The dentist appointment is on Thursday at 4pm.", "no wait, 5pm", "5pm", "4pm"),
        (
            "The plumber comes on the 11th to fit the boiler.",
            "Scratch that, the 12th.",
            "12th",
            "11th",
        ),
        ("The team dinner is on Thursday at Luigi's.", "Oops, Friday then.", "Friday", "Thursday"),
        ("The deposit for the hall is £250.", "Sorry, £275 not £250.", "£275", "£250"),
        ("We ordered 12 chairs for the hall.", "Oops, 14 not 12.", "14 chairs", "12 chairs"),
    ],
)
def test_a_bare_correction_replaces_the_one_line_with_a_value_of_its_kind(
    repo, first, correction, new, old
):
    text = said(repo, first, correction)
    assert new in text
    assert old not in text


def test_a_bare_correction_in_the_same_message_replaces_the_line_before(repo):
    text = said(repo, "Physio is booked for Tuesday at 9am. Sorry, 9:30.")
    assert "9:30" in text and "9am" not in text


def test_a_bare_correction_with_two_lines_of_its_kind_keeps_both_as_said(repo):
    text = said(
        repo,
        "The dentist is on Thursday at 4pm. Yoga with Mina is on Friday at 6pm.",
        "Sorry, 4:30.",
    )
    assert "4pm" in text and "6pm" in text
    assert not any("4:30" in ln and "dentist" in ln for ln in text.splitlines())


def test_a_bare_correction_of_another_kind_changes_nothing(repo):
    text = said(repo, "The dentist appointment is at 4pm.", "Sorry, Friday.")
    assert "4pm" in text


def test_a_bare_correction_reaches_no_further_than_the_message_before(repo):
    text = said(
        repo,
        "The boiler service is at 10am with Dwyer Heating.",
        "The kitchen fitter Nadia Quinn starts on the 20th.",
        "The skip arrives on the 18th.",
        "Sorry, 11am.",
    )
    assert "10am" in text


def test_a_bare_correction_by_another_speaker_leaves_the_users_line(repo):
    text = said(
        repo,
        "Meeting notes:\n\n"
        "[00:01:00] Simon Pratt (agent): The charge goes up 4% from July.\n"
        "[00:02:00] Lidia Novak (treasurer): Sorry, 6%.",
    )
    assert "4%" in text


@pytest.mark.parametrize(
    "sentence",
    [
        "Sorry, I'm late.",
        "Actually, it's fine.",
        "Sorry, 2.",  # a bare small number: any count said before
        "I think it's 6% not 5% but I'm not sure what he meant by it.",
        "No, the blue one.",
    ],
)
def test_what_is_no_bare_correction(sentence):
    assert bare_correction(sentence) is None


def test_no_and_a_value_after_the_assistants_question_answers_it(repo):
    run(
        repo,
        transcript(
            "s-1",
            ("user", "2027-05-03T18:00:00Z", "I've got yoga with Mina on Monday at 7pm."),
            ("assistant", "2027-05-03T18:01:00Z", "Shall I remind you on Sunday?"),
            ("user", "2027-05-03T18:02:00Z", "No, Saturday."),
        ),
    )
    assert "Monday" in current(repo)


_WORDS = st.sampled_from(
    ["sorry", "Sorry,", "no", "No wait", "not", "NOT", "nothing", "knot", "it's", "the", "at",
     "4:30", "12th", "6%", "Friday", "Friday.", "then", "instead", ",", ";", " ", "  ", "\t",
     "—", "-", "!", "?", "...", "scratch that", "make it", "I meant", "erm", "Ana", "step 12"]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=12), st.sampled_from([" ", "", "\n"]))
def test_a_text_the_correction_pattern_answers_is_never_refused_untried(words, joiner):
    # the test before the pattern (a cue it opens on, or "not") refuses only texts whose
    # match `bare_correction` would refuse anyway: neither group it asks for is there
    text = joiner.join(words)
    m = resolve.BARE_CORRECTION.match(text.strip())
    if m is not None and (m.group("cue") or m.group("old")):
        assert resolve._CUE_OR_NOT.search(text.strip()), text  # noqa: SLF001


@pytest.mark.parametrize(
    "text",
    [
        "Turn 12: remember that Alice owns the Apollo launch, step 12.",
        "The boiler service is booked for the 14th at 9:30 with Ana from Hearth & Co",
        "we moved the standup to 10 because of the school run",
    ],
)
def test_a_sentence_that_neither_opens_on_a_cue_nor_says_not_is_no_bare_correction(text):
    assert bare_correction(text) is None


@pytest.mark.parametrize(
    ("first", "correction", "new", "old"),
    [
        (
            "Pilates is on Monday at the leisure centre.",
            "Not Monday, Tuesday.",
            "Tuesday",
            "Monday",
        ),
        ("The boat leaves at 8.15 from the harbour.", "Sorry, 8.45.", "8.45", "8.15"),
        ("The boat leaves at 8.15 from the harbour.", "no - not 8.15, 8.45", "8.45", "8.15"),
    ],
)
def test_a_value_set_aside_first_or_dotted_is_corrected(tmp_path, first, correction, new, old):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        pages = said(repo, first, correction)
    facts = "\n".join(ln for ln in pages.splitlines() if "`" not in ln)
    assert new in facts, pages
    assert old not in facts, pages


@pytest.mark.parametrize(
    ("first", "reply"),
    [
        ("Pilates is on Monday at the leisure centre.", "Not bad, thanks."),
        ("The boat leaves at 8.15 from the harbour.", "Sorry, 2.5 metres of rope."),
    ],
)
def test_a_not_or_a_dotted_figure_that_corrects_nothing_changes_nothing(tmp_path, first, reply):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        pages = said(repo, first, reply)
    assert ("Monday" in pages) or ("8.15" in pages), pages
