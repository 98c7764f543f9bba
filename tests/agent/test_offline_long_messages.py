"""The offline agent's cost on a long message and a long conversation grows with its length,
not with its square: a sentence is not compared with every sentence of the session before
it (a bare correction's window is read only when one is said, by identity first), the value
a restated sentence is checked against is worked out once per sentence, and a turn's place
in the conversation is looked up, not found by comparing it with every turn before it.

The growth is bounded by counting the comparisons (and the values worked out) for a message
of N sentences and one of 2N: linear work doubles, the square quadruples. No clock is read,
so a busy machine cannot fail the tests."""

from __future__ import annotations

from datetime import date

import doctree.agent.offline.extract as extract
import doctree.agent.offline.referred as referred_module
import doctree.agent.offline.resolve as resolve
from doctree.agent.offline.model import Sentence, Turn
from tests.agent.offline_runs import current_facts, run, transcript

DAY = "2031-05-06T09:00:00Z"
LATER = "2031-05-06T09:01:00Z"


def _counted(monkeypatch, cls: type) -> list[int]:
    """The calls of `cls.__eq__` from now on, counted."""
    calls: list[int] = []
    real = cls.__eq__

    def eq(self, other):
        calls.append(1)
        return real(self, other)

    monkeypatch.setattr(cls, "__eq__", eq)
    return calls


def _long_note(repo, n: int) -> None:
    run(
        repo,
        transcript(
            f"s-note-{n}",
            ("user", DAY, "Piano lesson on tuesday! " * n),
            ("assistant", LATER, "Noted."),
        ),
    )


def test_a_long_message_is_not_compared_sentence_by_sentence(repo, monkeypatch):
    calls = _counted(monkeypatch, Sentence)
    _long_note(repo, 60)
    once = len(calls)
    calls.clear()
    _long_note(repo, 120)
    twice = len(calls)
    assert twice <= 2.5 * max(once, 1)  # the square would be 4 times
    assert twice <= 3 * 120
    assert "Piano lesson" in current_facts(repo)


def test_a_sentence_value_is_worked_out_once(repo, monkeypatch):
    asked: list[int] = []
    real = resolve._value_of

    def counted(*args):
        asked.append(1)
        return real(*args)

    monkeypatch.setattr(resolve, "_value_of", counted)
    _long_note(repo, 60)
    once = len(asked)
    asked.clear()
    _long_note(repo, 120)
    assert len(asked) <= 2.5 * max(once, 1)
    assert len(asked) <= 2 * 120


def _forgets(repo, n: int) -> None:
    messages: list[tuple[str, str, object]] = [
        ("user", DAY, "My phone number is 0161 496 0000. I swim on Mondays.")
    ]
    for i in range(n):
        at = f"2031-05-06T1{i // 60 % 10}:{i % 60:02d}:00Z"
        messages += [("user", at, "Forget my phone number."), ("assistant", at, "Done.")]
    run(repo, transcript(f"s-forget-{n}", *messages))


def test_repeated_forget_messages_find_their_place_without_a_scan(repo, monkeypatch):
    calls = _counted(monkeypatch, Turn)
    _forgets(repo, 30)
    once = len(calls)
    calls.clear()
    _forgets(repo, 60)
    assert len(calls) <= 2.5 * max(once, 1) + 10  # each message scanning those before: 4x
    facts = current_facts(repo)
    assert "496" not in facts
    assert "swim" in facts


def test_a_thing_asked_again_reads_only_the_turns_since(repo, monkeypatch):
    read: list[int] = []
    real = referred_module._read_turn

    def counted(*args, **kwargs):
        read.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(referred_module, "_read_turn", counted)
    _forgets(repo, 30)
    once = len(read)
    read.clear()
    _forgets(repo, 60)
    assert len(read) <= 2.5 * max(once, 1)  # each request reading all before it: 4x
    assert len(read) <= 2 * (1 + 2 * 60)


def test_the_scan_so_far_finds_what_a_whole_reading_finds():
    said = "My sister Ines lent me 400 for the deposit."
    turns = [
        Turn("user", DAY, [said, "It is due back in June."]),
        Turn("assistant", DAY, ["Noted: Ines lent you 400."]),
        Turn("user", LATER, ["Forget the loan."]),
        Turn("assistant", LATER, ["Done."]),
        Turn("user", LATER, ["The deposit went on the flat.", "It was 400 in all."]),
        Turn("user", LATER, ["Forget the loan."]),
    ]
    test = referred_module.ThingTest({"deposit"})
    scan = referred_module.ReferredSoFar(test)
    for n in range(1, len(turns) + 1):
        whole = referred_module.referred(turns[:n], referred_module.ThingTest({"deposit"}))
        assert scan(turns[:n]) == frozenset(whole.said)
    other = [Turn("user", DAY, ["The deposit is 300."])]  # another conversation: read anew
    assert scan(other) == frozenset({"The deposit is 300."})


def test_a_turns_place_is_the_one_a_scan_finds():
    first = Turn("user", DAY, ["Forget my bike lock code."], message="Forget my bike lock code.")
    reply = Turn("assistant", DAY, ["Done."], message="Done.")
    again = Turn("user", DAY, ["Forget my bike lock code."], message="Forget my bike lock code.")
    other = Turn("user", LATER, ["I cycle to work."], message="I cycle to work.")
    turns = [first, reply, again, other]
    extract._READ_ONCE.clear()
    try:
        assert extract._place(turns, again) == 2  # by identity
        assert extract._place(turns, again, equal=True) == turns.index(again) == 0
        assert extract._place(turns, other, equal=True) == 3
        again.sentences.append("It is four digits.")  # no longer equal to the first
        assert extract._place(turns, again, equal=True) == turns.index(again) == 2
        turns.insert(0, other)  # the list changed: found again
        assert extract._place(turns, again) == 3
        assert extract._place(turns, other, equal=True) == 0
    finally:
        extract._READ_ONCE.clear()


def test_the_window_keeps_what_membership_keeps():
    kept = Sentence(DAY, "The choir meets at 7.")
    gone = Sentence(DAY, "The choir meets at 8.")
    twin = Sentence(DAY, "The choir meets at 8.")  # equal to `gone`, another object
    lost = Sentence(DAY, "The hall is booked.")
    session = [kept, twin]
    items = [lost, gone, kept]
    assert list(extract._still_in(items, session)) == [x for x in items if x in session]
    assert list(extract._still_in(items, session)) == [gone, kept]


def test_a_remembered_value_follows_a_sentence_changed():
    s = Sentence(DAY, "The deposit is 300.", raw="The deposit is 300.")
    assert resolve._value(s) == ("number", frozenset({"300"}))
    s.raw = "The deposit is 350."
    assert resolve._value(s) == ("number", frozenset({"350"}))
    s.dates.append(("on 9 June", date(2031, 6, 9)))  # changed in place
    assert resolve._value(s) == ("date", frozenset({"2031-06-09"}))
