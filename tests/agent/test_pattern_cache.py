"""Patterns compiled once per install (`doctree.patterncache`): each test runs real Python
processes, as a second `doctree` command would, with their bytecode in a folder of the test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

RULES = '''
import re
WORD = re.compile(r"\\b(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄ][a-zà-öø-ÿ]+)\\s+(?:said|wrote)\\b")
LOOSE = re.compile(r"""
    (?i) colou?r \\s* (?P<value>\\w+)   # a colour, said loosely
""", re.VERBOSE)
DAYS = re.compile(r"(mon|tue)(?:day)?", re.IGNORECASE)
RAW = re.compile(rb"\\x00+")
'''

#: Runs in the child: imports `rules` inside `kept_patterns`, and reports what it compiled.
CHILD = """
import json, re, sys
from re import _compiler, _parser
from doctree.patterncache import cache_file, kept_patterns

parsed = []
parse = _parser.parse
def counting(p, flags=0, **kw):
    if isinstance(p, str):  # a bytes pattern is compiled as usual
        parsed.append(p)
    return parse(p, flags, **kw)
_parser.parse = counting

anchor = sys.argv[1]
with kept_patterns(anchor):
    import rules
_parser.parse = parse

out = {"parsed": parsed, "file": str(cache_file(anchor))}
for name in ("WORD", "LOOSE", "DAYS", "RAW"):
    p = getattr(rules, name)
    fresh = _compiler.compile(p.pattern, p.flags)
    out[name] = {
        "equal": p == fresh,
        "groupindex": dict(p.groupindex),
        "flags": p.flags,
    }
m = rules.WORD.search("then Ăla said so")
out["match"] = m.group("name") if m else None
out["loose"] = rules.LOOSE.search("COLOR blue").group("value")
print(json.dumps(out))
"""


def run(tmp: Path, *, write: bool = True) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pyc")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp / "src"), *sys.path])
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp / "src" / "rules.py")],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "rules.py").write_text(RULES, encoding="utf-8")
    return tmp_path


def check_same(out: dict) -> None:
    for name in ("WORD", "LOOSE", "DAYS", "RAW"):
        assert out[name]["equal"], name
    assert out["WORD"]["groupindex"] == {"name": 1}
    assert out["LOOSE"]["groupindex"] == {"value": 1}
    assert out["match"] == "Ăla"
    assert out["loose"] == "blue"


def test_second_process_takes_the_patterns_from_the_file(rules: Path) -> None:
    first = run(rules)
    check_same(first)
    assert len(first["parsed"]) >= 3  # compiled, as in any process
    kept = Path(first["file"])
    assert kept.is_file() and str(kept).startswith(str(rules / "pyc"))

    second = run(rules)
    check_same(second)
    assert second["parsed"] == []  # none parsed again
    assert second["DAYS"]["flags"] == first["DAYS"]["flags"]


def test_an_edited_pattern_is_compiled_and_the_file_holds_only_this_imports(
    rules: Path,
) -> None:
    run(rules)
    src = rules / "src" / "rules.py"
    src.write_text(src.read_text().replace("(mon|tue)", "(mon|tue|wed)"), encoding="utf-8")
    edited = run(rules)
    assert edited["parsed"] == ["(mon|tue|wed)(?:day)?"]  # the others were kept
    check_same(edited)
    again = run(rules)
    assert again["parsed"] == []
    data = Path(again["file"]).read_bytes()
    assert b"(mon|tue|wed)" in data and b"(mon|tue)(" not in data


def test_nothing_written_without_bytecode_and_a_broken_file_is_ignored(rules: Path) -> None:
    out = run(rules, write=False)
    check_same(out)
    assert not Path(out["file"]).exists()

    first = run(rules)
    kept = Path(first["file"])
    kept.write_bytes(kept.read_bytes()[:100])  # cut short
    broken = run(rules)
    check_same(broken)
    assert len(broken["parsed"]) >= 3  # compiled as usual
    check_same(run(rules))  # and the file written anew
    assert kept.stat().st_size > 100


READER = """
import re
CALLS = []

def first_word(pattern):
    CALLS.append(pattern.pattern)
    m = re.match(r"\\w+", pattern.pattern)
    return (m.group(0),) if m else None
"""

#: Runs in the child: asks `reader.first_word` of three patterns through `KeptAnswers`,
#: keeps the answers of the first two, and reports what was computed.
ASKING = """
import json, re, sys
import reader
from doctree.patterncache import KeptAnswers

kept = KeptAnswers(reader.__file__, "first")
patterns = [re.compile(p) for p in sys.argv[1:]]
answers = [kept.answer(p, reader.first_word) for p in patterns]
kept.save(patterns[:2])
print(json.dumps({"answers": answers, "computed": reader.CALLS}))
"""


def ask(tmp: Path, *patterns: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pyc")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp / "src"), *sys.path])
    done = subprocess.run(
        [sys.executable, "-c", ASKING, *patterns], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_kept_answers_are_asked_once_per_install_and_per_edit_of_the_function(
    tmp_path: Path,
) -> None:
    (tmp_path / "src").mkdir()
    reader = tmp_path / "src" / "reader.py"
    reader.write_text(READER, encoding="utf-8")
    first = ask(tmp_path, "alpha beta", "gamma", "delta")
    assert first == {
        "answers": [["alpha"], ["gamma"], ["delta"]],
        "computed": ["alpha beta", "gamma", "delta"],
    }
    second = ask(tmp_path, "alpha beta", "gamma", "delta")
    assert second["answers"] == first["answers"]
    assert second["computed"] == ["delta"]  # the one not saved is asked again
    # the function edited: nothing it answered before is taken
    reader.write_text(READER.replace("CALLS = []", "CALLS = []  # edited"), encoding="utf-8")
    assert ask(tmp_path, "alpha beta", "gamma", "delta")["computed"] == [
        "alpha beta",
        "gamma",
        "delta",
    ]


#: Runs in the child: the offline agent reads sentences, then the literals each gated
#: pattern was given are compared with those read afresh.
GATED = """
import json
from doctree.agent.offline import prefilter
from doctree.agent.offline.segment import segment
from doctree.agent.offline.extract import extract
from doctree.agent.offline.directory import Directory
from doctree.sessions.transcripts import parse_transcript
import sys

reads = []
literals = prefilter.literals
def counting(pattern):
    reads.append(pattern.pattern)
    return literals(pattern)
prefilter.literals = counting

text = open(sys.argv[1], encoding="utf-8").read()
for _ in range(3):
    extract(segment(parse_transcript(text, source="t.md")), Directory({}, {}, {}))
read = [p for p in prefilter._patterns.values() if p._runs < 0]
same = all(p._found == literals(p.compiled) for p in read)
print(json.dumps({"read": len(read), "same": same, "reads": len(reads)}))
"""


def test_the_offline_agents_patterns_get_the_same_literals_from_the_kept_file(
    tmp_path: Path,
) -> None:
    fixture = sorted((Path(__file__).parent.parent / "fixtures" / "transcripts").glob("*.md"))[0]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pyc")
    env["PYTHONHASHSEED"] = "0"
    outs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", GATED, str(fixture)], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        outs.append(json.loads(done.stdout))
    assert outs[0]["read"] > 20 and outs[0]["same"]
    assert outs[0]["reads"] == outs[0]["read"]  # each read once, by `literals`
    assert outs[1]["read"] == outs[0]["read"] and outs[1]["same"]
    assert outs[1]["reads"] == 0  # every one taken from the file
    kept = list((tmp_path / "pyc").rglob("prefilter.literals-*.marshal"))
    assert len(kept) == 1


COMPILED = """
import json, re
seen = set()
compile = re._compile
def recording(pattern, flags):
    if isinstance(pattern, str):
        seen.add((pattern, int(flags)))
    return compile(pattern, flags)
re._compile = recording
import doctree.agent.offline.run
print(json.dumps(sorted(seen)))
"""


def test_the_offline_agents_patterns_are_the_same_text_whatever_the_hash_seed(
    tmp_path: Path,
) -> None:
    """A pattern joined from a set in its hash order would be a new text in every process,
    so the kept file would miss it and be written again by every run."""
    outs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONDONTWRITEBYTECODE": "1"}
        done = subprocess.run(
            [sys.executable, "-c", COMPILED], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        outs.append(json.loads(done.stdout))
    assert len(outs[0]) > 200
    assert outs[0] == outs[1], [p for p in outs[0] if p not in outs[1]][:3]
