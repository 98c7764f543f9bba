"""The test in front of the offline agent's patterns: it skips a pattern only on a text the
pattern cannot match, so every answer is the pattern's own."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doctree.agent.offline import language
from doctree.agent.offline.prefilter import (
    MIN_BRANCHES,
    READ_AFTER,
    GatedPattern,
    branches,
    gate_modules,
    gate_patterns,
    literals,
    none_can_match,
)
from doctree.agent.offline.segment import segment as segment_turns
from doctree.sessions.transcripts import parse_transcript

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _stages() -> list[ModuleType]:
    """Every module of the offline agent."""
    return [m for n, m in sorted(sys.modules.items()) if n.startswith("doctree.agent.offline.")]


def _gated_rules() -> list[tuple[str, GatedPattern]]:
    out = []
    for module in _stages():
        for name, value in vars(module).items():
            values = value if isinstance(value, tuple) else (value,)
            out += [(f"{module.__name__}.{name}", v) for v in values if isinstance(v, GatedPattern)]
    return out


def _sentences() -> list[str]:
    """Every sentence of the fixture transcripts, and texts where case and ASCII matter."""
    texts = []
    for path in sorted((FIXTURES / "transcripts").glob("*.md")) + sorted(
        (FIXTURES / "behaviours").glob("*/*.md")
    ):
        for turn in segment_turns(parse_transcript(path.read_text())).turns:
            texts += turn.sentences
    return texts + [
        "DR. OSEI SAID I PREFER TEA, NOT COFFEE. REMEMBER THAT.",
        "Remember thaT we DECIDED to go with Postgres.",
        "I ſtrongly prefer ſushi; the Kelvin sign K is not a K.",
        "Met Odile from Brightline on 3 June — no, sorry, 4 June.",
        "",
    ]


def _forced(compiled: re.Pattern[str]) -> GatedPattern:
    """A gated pattern that tests from its first run (no runs to wait for)."""
    gated = GatedPattern(compiled)
    gated._runs = 10**9  # noqa: SLF001 - past READ_AFTER: the literals are read on first use
    return gated


def test_every_rule_of_the_agent_is_gated():
    rules = _gated_rules()
    assert len(rules) > 100
    assert isinstance(language.HEALTH, GatedPattern)
    assert all(isinstance(p, GatedPattern) for p in language.ORGS)


def test_every_pattern_of_every_stage_is_gated_whether_or_not_its_module_asks():
    left = [
        f"{module.__name__}.{name}"
        for module in _stages()
        for name, value in vars(module).items()
        if isinstance(value, re.Pattern)
        or (isinstance(value, tuple) and any(isinstance(v, re.Pattern) for v in value))
    ]
    assert left == []
    from doctree.agent.offline import earlier, numeric, supersession  # none calls gate_patterns

    for module in (earlier, numeric, supersession):
        assert any(isinstance(v, GatedPattern) for v in vars(module).values()), module


def test_gate_modules_gates_a_module_that_does_not_ask(tmp_path, monkeypatch):
    (tmp_path / "rulespkg").mkdir()
    (tmp_path / "rulespkg" / "__init__.py").write_text("")
    (tmp_path / "rulespkg" / "rules.py").write_text(
        "import re\nWORD = re.compile(r'\\bquince\\b')\nBOTH = (WORD, re.compile('pear'))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import rulespkg.rules as rules  # type: ignore[import-not-found]

    gate_modules("rulespkg")
    assert isinstance(rules.WORD, GatedPattern)
    assert all(isinstance(p, GatedPattern) for p in rules.BOTH)
    assert rules.WORD.search("a quince tart") is not None
    monkeypatch.delitem(sys.modules, "rulespkg.rules")
    monkeypatch.delitem(sys.modules, "rulespkg")


def test_a_rule_skipped_on_a_text_never_matches_it():
    texts = _sentences()
    skipped = 0
    for name, rule in _gated_rules():
        gated = _forced(rule.compiled)
        for text in texts:
            if not gated.could_match(text):
                skipped += 1
                assert rule.compiled.search(text) is None, (name, text)
    assert skipped > len(texts)  # the test does skip: most rules, most sentences


@pytest.mark.parametrize(
    ("pattern", "flags", "exact", "folded"),
    [
        (r"\b(?:prefer|like)\b", re.I, (), ("like", "prefer")),
        (r"(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+[A-Z]", 0, ("Dr", "Mr", "Ms", "Prof"), ()),
        (r"\b(?i:action)\s*\((?P<who>[A-Z]\w+)\)", 0, (), ("action",)),
        (r"(?:abc)?\s*de", 0, ("de",), ()),
        (r"x{0,3}yz", 0, ("yz",), ()),
        (r"(?:meet|meeting|met)\s+\w+", 0, ("meet", "met"), ()),
        (r"[eé]t[eé]", 0, ("ete", "eté", "éte", "été"), ()),
        (r"(?<=\bvia\s)[A-Z]\w+", 0, ("via",), ()),
        (r"(?=abc)\w+", 0, ("abc",), ()),
        (
            r"\b[1-3](?:st|nd|rd)\b",
            re.I,
            (),
            tuple(f"{d}{s}" for d in "123" for s in ("nd", "rd", "st")),
        ),
        (r"\bx\d+", 0, (), tuple(f"x{d}" for d in range(10))),
    ],
)
def test_the_literals_a_match_needs(pattern: str, flags: int, exact: tuple, folded: tuple):
    assert literals(re.compile(pattern, flags)) == (exact, folded)


@pytest.mark.parametrize(
    "pattern",
    [r"\w+", r"(?:abc|)\s", r"[A-Z][a-z]+", r"(?!abc)\w+", r"(?:foo)*", r"(?i)ſ"],
)
def test_a_pattern_with_no_literal_it_must_hold_runs_untested(pattern: str):
    compiled = re.compile(pattern)
    assert literals(compiled) is None
    assert _forced(compiled).could_match("") is True


def test_a_case_insensitive_rule_runs_on_text_that_is_not_ascii():
    # to re.I, "ſ" (long s) is an "s": "ſtrongly" matches "strongly", which lower() misses
    rule = _forced(re.compile(r"\bstrongly\b", re.I))
    assert rule.could_match("I STRONGLY prefer it")
    assert not rule.could_match("I mildly prefer it")
    assert rule.could_match("I ſtrongly prefer it")
    assert rule.search("I ſtrongly prefer it") is not None


def test_a_rule_read_with_its_digits_runs_on_text_that_is_not_ascii():
    # `\d` is any decimal digit: "١st" (an Arabic-Indic one) matches, and "1st" is not in it
    rule = _forced(re.compile(r"\b\d(?:st|nd)\b"))
    assert rule.could_match("on the 1st of May")
    assert not rule.could_match("on the first of May")
    assert not rule.could_match("the 21 stones")
    assert rule.could_match("on the ١st of May")
    assert rule.search("on the ١st of May") is not None


def test_a_long_pattern_is_tested_with_more_literals():
    words = [f"keyword{i:03d}" for i in range(60)]  # one of 60 literals: more than 32
    long = re.compile(r"\b(?:" + "|".join(words) + r")\b")
    found = literals(long)
    assert found is not None and len(found[0]) == 60
    assert not _forced(long).could_match("no such word here")
    short = re.compile("|".join(f"{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(60)))
    assert literals(short) is None  # 60 literals of a short pattern: it runs untested


@pytest.mark.parametrize("text", ["we met Ana at noon", "nothing here", "MET ana"])
def test_a_gated_pattern_answers_as_the_pattern_does(text: str):
    compiled = re.compile(r"\bmet\s+(?P<name>[A-Z]\w+)")
    gated = _forced(compiled)

    def span(m: re.Match[str] | None) -> tuple[int, int] | None:
        return m.span() if m else None

    assert span(gated.search(text)) == span(compiled.search(text))
    assert [m.span() for m in gated.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert gated.findall(text) == compiled.findall(text)
    assert [m.span() for m in gated.finditer(text, pos=3)] == [
        m.span() for m in compiled.finditer(text, pos=3)
    ]
    assert gated.scanner(text).search() is not None or compiled.search(text) is None
    assert gated.sub("X", text) == compiled.sub("X", text)
    assert gated.subn("X", text) == compiled.subn("X", text)
    assert gated.split(text) == compiled.split(text)
    assert span(gated.match(text)) == span(compiled.match(text))
    assert span(gated.fullmatch(text)) == span(compiled.fullmatch(text))
    assert (gated.pattern, gated.flags, gated.groupindex) == (
        compiled.pattern,
        compiled.flags,
        compiled.groupindex,
    )


def test_gate_patterns_wraps_patterns_and_tuples_of_them_only():
    namespace = {
        "ONE": re.compile("a"),
        "SEVERAL": (re.compile("b"), re.compile("c")),
        "TEXT": "a",
        "MIXED": (re.compile("d"), "e"),
    }
    gate_patterns(namespace)
    assert isinstance(namespace["ONE"], GatedPattern)
    assert all(isinstance(p, GatedPattern) for p in namespace["SEVERAL"])
    assert namespace["TEXT"] == "a"
    assert isinstance(namespace["MIXED"][0], re.Pattern)


_PIECES = st.sampled_from(
    [
        "a",
        "b",
        "ab",
        "bc",
        "A",
        r"\d",
        r"\d\d",
        "[1-3]",
        "[a-h]",
        "[ab]",
        "[^a]",
        r"\w",
        r"\s",
        " ",
        r"\b",
        ".",
    ]
)


@st.composite
def _patterns(draw: st.DrawFn, depth: int = 0) -> str:
    """A small pattern of literals, classes, groups, alternations, repeats and lookarounds."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["piece"] * 4 + (["group"] if depth < 2 else [])))
        part = draw(_PIECES) if kind == "piece" else None
        if part is None:
            inner = [draw(_patterns(depth + 1)) for _ in range(draw(st.integers(1, 3)))]
            wrap = draw(st.sampled_from(["(?:{})", "({})", "(?i:{})", "(?={})", "(?!{})"]))
            part = wrap.format("|".join(inner))
        part += draw(st.sampled_from(["", "", "?", "+", "*", "{2}", "{1,3}"]))
        parts.append(part)
    if draw(st.booleans()):
        parts.insert(0, draw(st.sampled_from(["(?<=a)", "(?<=b )", r"(?<!\d)"])))
    return "".join(parts)


@settings(max_examples=400, deadline=None)
@given(
    pattern=_patterns(),
    flags=st.sampled_from([0, re.I]),
    texts=st.lists(st.text(alphabet="abcABC123١ \t_-", max_size=12), min_size=1, max_size=8),
)
def test_no_pattern_is_skipped_on_a_text_it_matches(pattern: str, flags: int, texts: list[str]):
    try:
        compiled = re.compile(pattern, flags)
    except re.error:
        return  # a lookbehind of no fixed width, a repeat of nothing: not a pattern
    gated = _forced(compiled)
    for text in texts:
        if compiled.search(text) is not None:
            assert gated.could_match(text), (pattern, flags, text, literals(compiled))


def test_a_case_insensitive_rule_reads_each_text_anew():
    # the lower case of the text tested before is reused only for that very text
    rule = _forced(re.compile(r"\bprefer\b", re.I))
    other = _forced(re.compile(r"\bstrongly\b", re.I))
    assert rule.could_match("I PREFER tea")
    assert not rule.could_match("I like tea")
    assert other.could_match("I STRONGLY like tea")
    assert not rule.could_match("I STRONGLY like tea")
    assert rule.could_match("Ich prefer ſ")  # not ASCII: tested as it is not, it runs
    assert not other.could_match("I mildly like tea")


def test_a_pattern_gated_after_the_others_were_read_is_tested_on_a_text_seen_before():
    # the answers kept for a text come from the gate of their time: a pattern read later
    # gets a gate that holds its literals, and the text is scanned again
    first = _forced(re.compile(r"\bapple\b"))
    text = "an apple and a pear"
    assert first.could_match(text)
    assert not first.could_match("a plum")
    later = _forced(re.compile(r"\bpear\b"))
    assert later.could_match(text)
    assert later.search(text) is not None
    assert not later.could_match("a plum")
    assert first.could_match(text)


def test_a_pattern_that_never_ran_is_not_read_when_others_are():
    ran = _forced(re.compile(r"\bquince\b"))
    idle = GatedPattern(re.compile(r"\bmedlar\b"))
    assert not ran.could_match("a plum")
    assert idle._found is None and idle._runs == 0  # noqa: SLF001 - not read, not counted
    assert idle.could_match("a plum")  # it runs untested until it has run READ_AFTER times


def test_patterns_are_read_together_once_one_has_run_often():
    patterns = [GatedPattern(re.compile(rf"\bword{i}\b")) for i in range(3)]
    for _ in range(READ_AFTER):
        for p in patterns:
            assert p.could_match("nothing here")  # untested while they count
    patterns[0].could_match("nothing here")  # the first past READ_AFTER reads all three
    assert all(p._runs == -1 for p in patterns)  # noqa: SLF001
    assert [p.could_match("a word1 here") for p in patterns] == [False, True, False]


def test_a_copy_of_a_gated_pattern_answers_as_the_pattern_does():
    import copy

    rule = GatedPattern(re.compile(r"\bplum\b"))
    twin = copy.copy(rule)
    for _ in range(READ_AFTER + 3):
        assert twin.search("a plum") is not None
        assert twin.search("a pear") is None
        assert rule.search("a plum") is not None
        assert rule.search("a pear") is None


def test_a_text_with_a_lone_surrogate_runs_every_pattern():
    # the automaton reads UTF-8, which a lone surrogate has none of: the patterns run
    rule = _forced(re.compile(r"\bplum\b"))
    assert not rule.could_match("a pear")
    assert rule.could_match("a pear \ud800")
    assert rule.search("a plum \ud800") is not None
    assert rule.search("a pear \ud800") is None


def test_the_branches_of_a_pattern_as_written():
    assert branches(re.compile(r"a|b(c|d)|[|]e|\|x")) == ["a", "b(c|d)", "[|]e", r"\|x"]
    assert branches(re.compile(r"[]|]|[^]|]|b")) == ["[]|]", "[^]|]", "b"]
    assert branches(re.compile(r"(a)|\1")) is None  # a branch refers to another's group
    assert branches(re.compile(r"(?P<x>a)|(?P=x)b")) is None
    assert branches(re.compile(r"(?i)a|b")) is None  # global flags: the first branch's only
    assert branches(re.compile(r"a # one | two", re.X)) is None  # a comment may hold a "|"
    assert branches(re.compile(r"(?:a|b)c")) is None  # no alternation at the top


def _read_branches(gated: GatedPattern, text: str) -> None:
    """`gated` read, and each of its branches (when it has them) read, as a run would have
    them after `READ_AFTER` tests."""
    gated.search(text)
    for branch in gated._branches or ():  # noqa: SLF001
        branch._runs = 10**9  # noqa: SLF001
    gated.search(text)


_FRUIT = re.compile(
    r"\bapple\b|\bpear\b|(?P<fig>\bfig\b)|\bplum\b|\bquince\b|\bmedlar\b|(\bkiwi\b)|"
    r"\blime\b|(?P<count>\d+) (?P<unit>kg|g)\b",
    re.I,
)


def test_a_pattern_of_many_branches_runs_only_those_a_text_could_match():
    gated = _forced(_FRUIT)
    _read_branches(gated, "a plum")
    run = gated._to_run("a plum, 2 kg of figs and a fig")  # noqa: SLF001
    assert run is not None and run is not _FRUIT
    assert "plum" in run.pattern and "apple" not in run.pattern and "lime" not in run.pattern
    assert run.groupindex == _FRUIT.groupindex  # a branch with a group stays, never tried
    assert gated._to_run("no fruit at all") is None  # noqa: SLF001
    for text in ("a plum, 2 kg of figs and a fig", "3 G of KIWI", "a Medlar", "pear|lime"):
        assert [(m.span(), m.groups(), m.lastgroup) for m in gated.finditer(text)] == [
            (m.span(), m.groups(), m.lastgroup) for m in _FRUIT.finditer(text)
        ]
        assert gated.sub("X", text) == _FRUIT.sub("X", text)


@settings(max_examples=300, deadline=None)
@given(
    each=st.lists(_patterns(), min_size=MIN_BRANCHES, max_size=MIN_BRANCHES + 4),
    flags=st.sampled_from([0, re.I]),
    texts=st.lists(st.text(alphabet="abcABC123١ \t_-", max_size=12), min_size=1, max_size=8),
)
def test_a_pattern_of_many_branches_answers_as_the_pattern_does(
    each: list[str], flags: int, texts: list[str]
):
    try:
        compiled = re.compile("|".join(each), flags)
    except re.error:
        return  # a lookbehind of no fixed width, a repeat of nothing: not a pattern
    gated = _forced(compiled)
    _read_branches(gated, texts[0])
    for text in texts:
        assert [(m.span(), m.groups()) for m in gated.finditer(text)] == [
            (m.span(), m.groups()) for m in compiled.finditer(text)
        ], (compiled.pattern, text)
        found, want = gated.match(text), compiled.match(text)
        assert (found and found.span()) == (want and want.span())


def test_every_rule_of_many_branches_answers_as_its_pattern_on_every_fixture_sentence():
    texts = list(dict.fromkeys(_sentences()))
    many = [
        (name, rule)
        for name, rule in _gated_rules()
        if len(branches(rule.compiled) or ()) >= MIN_BRANCHES
    ]
    assert any(name.endswith("language.FORGET_THAT") for name, _ in many)
    for name, rule in many:
        gated = _forced(rule.compiled)
        _read_branches(gated, texts[0])
        for text in texts:
            found, want = gated.search(text), rule.compiled.search(text)
            assert (found and (found.span(), found.groups())) == (
                want and (want.span(), want.groups())
            ), (name, text)


def test_a_text_read_again_later_in_a_run_is_not_scanned_again(monkeypatch):
    # the stages read one text again a long way apart (segmenting, then extracting): the
    # answer is kept for as many texts as a remembered function keeps, and dropped whole
    # when the run ends
    from doctree.agent.offline import memo, prefilter

    rule = _forced(re.compile(r"\bdamson\b"))
    first = "a damson for the first text"
    assert rule.could_match(first)
    for i in range(1000):  # other texts in between, far fewer than a run holds
        assert not rule.could_match(f"text number {i}")
    scanned: list[str] = []
    scan = prefilter._Gate._scan  # noqa: SLF001

    def counted(gate: object, text: str) -> int:
        scanned.append(text)
        return scan(gate, text)  # type: ignore[arg-type]

    monkeypatch.setattr(prefilter._Gate, "_scan", counted)  # noqa: SLF001
    assert rule.could_match(first)
    assert scanned == []
    assert prefilter._Gate.KEEP == memo.SIZE  # noqa: SLF001
    prefilter.forget_texts()  # the run's end: every text dropped
    assert rule.could_match(first)
    assert scanned == [first]


def test_the_oldest_texts_answer_is_dropped_first_past_the_bound(monkeypatch):
    from doctree.agent.offline import prefilter

    monkeypatch.setattr(prefilter._Gate, "KEEP", 3)  # noqa: SLF001
    rule = _forced(re.compile(r"\bsloe\b"))
    texts = ["one sloe", "two", "three", "four"]
    for text in texts:
        rule.could_match(text)
    kept = prefilter._gate.answers  # type: ignore[union-attr]  # noqa: SLF001
    assert list(kept) == texts[1:]
    assert rule.could_match("one sloe")
    assert list(kept) == [*texts[2:], "one sloe"]


def _long_texts() -> list[str]:
    """Texts past `LONG_TEXT`: each fixture transcript whole, its sentences joined (as the
    rules that read a whole conversation join them), and texts where case and ASCII matter."""
    from doctree.agent.offline.prefilter import LONG_TEXT

    texts = [p.read_text() for p in sorted((FIXTURES / "transcripts").glob("*.md"))]
    texts = [t for t in texts if len(t) > LONG_TEXT]
    texts.append("\n".join(_sentences()))
    filler = "and so on, " * (LONG_TEXT // 10)
    texts += [
        filler + "DR. OSEI SAID I PREFER TEA. REMEMBER THAT.",
        filler + "I ſtrongly prefer ſushi; the Kelvin sign K is not a K.",
        filler + "a plum \ud800",
        filler,
    ]
    assert len(texts) > 8 and all(len(t) > LONG_TEXT for t in texts)
    return texts


def test_a_long_text_is_tested_by_each_patterns_own_literals_without_a_scan(monkeypatch):
    # a whole conversation joined holds most short literals: the scan for every pattern's
    # would report a match every few characters; each pattern looks for its own instead
    from doctree.agent.offline import prefilter

    scanned: list[str] = []
    scan = prefilter._Gate._scan  # noqa: SLF001

    def counted(gate: object, text: str) -> int:
        scanned.append(text)
        return scan(gate, text)  # type: ignore[arg-type]

    monkeypatch.setattr(prefilter._Gate, "_scan", counted)  # noqa: SLF001
    rule = _forced(re.compile(r"\bdamson\b"))
    folded = _forced(re.compile(r"\bgreengage\b", re.I))
    filler = "a plum, a pear; " * (prefilter.LONG_TEXT // 16 + 1)
    assert rule.could_match(filler + "a damson")
    assert not rule.could_match(filler)
    assert folded.could_match(filler + "A GREENGAGE")
    assert not folded.could_match(filler + "a damson")
    assert folded.could_match(filler + "ſ")  # not ASCII: tested as it is not, it runs
    assert rule.search(filler + "a damson \ud800") is not None  # a lone surrogate: no scan
    assert rule.search(filler + "a sloe \ud800") is None
    assert scanned == []
    assert not rule.could_match("a short text")  # a short one is scanned, as before
    assert scanned == ["a short text"]
    assert prefilter.texts_held() == 2  # the short text, and the long one in lower case
    prefilter.forget_texts()  # the run's end: the long text's lower case dropped too
    assert prefilter._last_lower == ("", "")  # noqa: SLF001
    assert prefilter.texts_held() == 0


def test_every_rule_answers_on_a_long_text_as_the_scan_does():
    # each pattern's own literals give the very answer the gate's scan of the text gives,
    # and a rule skipped on a long text never matches it
    from doctree.agent.offline import prefilter

    texts = _long_texts()
    skipped = 0
    for name, rule in _gated_rules():
        gated = _forced(rule.compiled)
        gated.could_match("")  # read: its literals and the gate that holds them
        gate = prefilter._gate  # noqa: SLF001
        assert gate is not None
        for text in texts:
            try:
                scanned = gate._scan(text) & gated._bit != 0  # noqa: SLF001
            except UnicodeEncodeError:
                scanned = True
            alone = gated.could_match(text)
            # (a lone surrogate: the scan cannot read it and runs every pattern; the
            # literals are looked for all the same)
            assert alone == scanned or "\ud800" in text, (name, text[-60:])
            if not alone:
                skipped += 1
                assert rule.compiled.search(text) is None, (name, text[-60:])
    assert skipped > len(texts)


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet="aAsSſk'\u2019- .\n", max_size=24))
def test_a_texts_words_lose_a_possessive_as_the_pattern_takes_it_off(text: str):
    # only a word with an apostrophe before its last character is searched; every word
    # comes out as the pattern run on each would leave it
    want = [
        language._POSSESSIVE.compiled.sub("", w)  # noqa: SLF001
        for w in re.findall(r"[\w'\u2019-]{3,}", text)
    ]
    assert language._words(text) == want  # noqa: SLF001


def test_only_a_word_that_can_end_on_a_possessive_is_searched_for_one(monkeypatch):
    # each word is a text of its own: searched, it would be scanned by the cheap test
    searched: list[str] = []
    pattern = language._POSSESSIVE  # noqa: SLF001

    class Counted:
        def sub(self, repl: str, word: str) -> str:
            searched.append(word)
            return pattern.sub(repl, word)

    monkeypatch.setattr(language, "_POSSESSIVE", Counted())
    assert language._words("Mira's pregnancy and the Joneses’ house") == [  # noqa: SLF001
        "Mira", "pregnancy", "and", "the", "Joneses’", "house",
    ]  # fmt: skip
    assert searched == ["Mira's"]


def test_a_rule_searched_up_to_a_point_answers_as_on_the_slice_before_it():
    # `search(text, 0, end)` is the search of `text[:end]`, `$` and `\b` at `end` included;
    # the cheap test of the whole text lets through every rule the part before could match
    texts = _sentences()[::7]
    for name, rule in _gated_rules():
        gated = _forced(rule.compiled)
        for text in texts:
            for end in {m.start() for m in re.finditer(r"\b[A-Z]", text)} | {len(text) // 2}:
                got = gated.search(text, 0, end)
                want = rule.compiled.search(text[:end])
                assert (got and (got.span(), got.groups())) == (
                    want and (want.span(), want.groups())
                ), (name, text, end)


def test_a_sentences_candidate_names_are_read_without_a_text_per_word(monkeypatch):
    # what comes before each capitalised word is searched in the sentence itself: the
    # sentence is the one text the cheap test scans
    from doctree.agent.offline import prefilter
    from doctree.agent.offline.directory import OTHER_KINDS, Directory
    from doctree.agent.offline.model import Sentence
    from doctree.agent.offline.resolve import _candidate_names

    sentence = "tuesday was Malik at the Climbing Wall, then Ines"
    for _ in range(READ_AFTER + 1):  # the rules read, and the gate that holds them built
        _candidate_names(Sentence(time="", text=""), f"{sentence} {_}", Directory({}, {}, {}))
    scanned: list[str] = []
    scan = prefilter._Gate._scan  # noqa: SLF001

    def counted(gate: object, text: str) -> int:
        scanned.append(text)
        return scan(gate, text)  # type: ignore[arg-type]

    monkeypatch.setattr(prefilter._Gate, "_scan", counted)  # noqa: SLF001
    prefilter.forget_texts()
    directory = Directory({}, {}, {kind: {} for kind in OTHER_KINDS})
    found = _candidate_names(Sentence(time="", text=sentence), sentence, directory)
    assert found == ["Malik", "Wall", "Ines"]
    assert scanned == [sentence]


def _subject_of_clauses_cut_out(text: str) -> tuple[set[str], str, str] | None:
    """`resolve._subject` as it read each clause: cut out of the text, a text of its own."""
    from doctree.agent.offline import resolve

    text = re.sub(r"\b(?i:the\s+user)(?:'s|’s)\s", "my ", text)
    for clause in re.split(r"[,;:—–]|\s-\s", text):
        m = resolve._SUBJECT_END.compiled.search(clause)  # noqa: SLF001
        if not m:
            continue
        part = clause[: m.start()]
        words = resolve._words(part)  # noqa: SLF001
        if not words:
            continue
        definite = re.match(
            r"\W*(?:(?:so|and|ok|oh|now)\s+)?(?:the|my|our|this|that)\s", part, re.I
        )
        bare = len(re.findall(r"\w+", part)) == 1
        verb = m.group(0).lower()
        attribute = "start" if verb in ("starts", "begins") else "end" if verb == "ends" else "be"
        return words, "definite" if definite else "bare" if bare else "", attribute
    return None


@settings(max_examples=500, deadline=None)
@given(
    parts=st.lists(
        st.sampled_from(
            [
                "the",
                " ",
                "vet",
                "visit",
                "is",
                "IS",
                "ends",
                "starts",
                "'s",
                "’s",
                "user",
                "The user's ",
                "this",
                ",",
                ";",
                ":",
                "—",
                "–",
                " - ",
                "-",
                "x",
                "Rex",
                "2",
                "\n",
            ]
        ),  # fmt: skip
        max_size=14,
    )
)
def test_a_statements_subject_is_read_clause_by_clause_in_place(parts: list[str]):
    # the clauses searched in the text itself give what the clauses cut out gave
    from doctree.agent.offline import resolve

    text = "".join(parts)
    assert resolve._subject.__wrapped__(text) == _subject_of_clauses_cut_out(text)  # noqa: SLF001


def test_a_statements_clauses_are_not_texts_of_their_own_for_the_cheap_test(monkeypatch):
    from doctree.agent.offline import prefilter, resolve

    text = "Right, so the vet visit for Rex is on May 2 - the 10:30 slot; fine"
    for i in range(READ_AFTER + 1):  # the rules read, and the gate that holds them built
        resolve._subject.__wrapped__(f"{text} {i}")  # noqa: SLF001
    scanned: list[str] = []
    scan = prefilter._Gate._scan  # noqa: SLF001

    def counted(gate: object, text: str) -> int:
        scanned.append(text)
        return scan(gate, text)  # type: ignore[arg-type]

    monkeypatch.setattr(prefilter._Gate, "_scan", counted)  # noqa: SLF001
    prefilter.forget_texts()
    assert resolve._subject.__wrapped__(text) == ({"visit", "rex"}, "definite", "be")  # noqa: SLF001
    assert scanned == [text]


def test_a_group_of_patterns_none_can_match_is_skipped_at_once():
    group = (_forced(re.compile(r"kettle (\w+)")), _forced(re.compile(r"teapot (\w+)")))
    text = "Bring the blue mugs to the picnic."
    for p in group:  # each read on its first run
        assert p.search(text) is None
    assert none_can_match(group, text)
    assert none_can_match(group, "Nothing for the stove today.")


def test_a_group_is_tried_when_one_pattern_could_match_or_is_not_read():
    group = (_forced(re.compile(r"saucer (\w+)")), _forced(re.compile(r"ladle (\w+)")))
    for p in group:
        assert p.search("an empty shelf") is None
    assert not none_can_match(group, "Hand me the ladle please.")
    unread = (GatedPattern(re.compile(r"whisk (\w+)")),)
    assert not none_can_match(unread, "an empty shelf")
    assert not none_can_match((re.compile(r"whisk"),), "an empty shelf")
    assert not none_can_match(group, "x" * 2000)  # a long text: each pattern tests it alone
