"""The offline agent's patterns kept compiled beside its bytecode: a later start builds them
from the kept programs without parsing them, and every one is the pattern `re.compile`
makes. Each case runs a fresh interpreter, as a start of `doctree` is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

#: Imports the agent, counting the patterns `re` parses meanwhile, then checks every
#: pattern of the agent's modules against a fresh `re.compile` of its text and flags.
PROBE = r"""
import json, re, re._parser as sre_parse
parsed = []
parse = sre_parse.parse
def counting(text, flags=0, state=None):
    parsed.append(text)
    return parse(text, flags, state)
sre_parse.parse = counting
import doctree.agent.offline
from doctree.agent.offline import entities, extract, language, resolve, segment
sre_parse.parse = parse
patterns = []
for module in (language, entities, extract, resolve, segment):
    for value in vars(module).values():
        for v in value if isinstance(value, tuple) else (value,):
            v = getattr(v, "compiled", v)
            if isinstance(v, re.Pattern):
                patterns.append(v)
re.purge()
differ = [
    p.pattern[:60]
    for p in patterns
    if (fresh := re.compile(p.pattern, p.flags)) != p
    or (fresh.groups, dict(fresh.groupindex)) != (p.groups, dict(p.groupindex))
]
print(json.dumps({"parsed": len(parsed), "patterns": len(patterns), "differ": differ}))
"""


def _start(cache: Path, *, bytecode: bool = True, seed: str = "0") -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPYCACHEPREFIX=str(cache), PYTHONHASHSEED=seed)
    if not bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.splitlines()[-1])


def _kept(cache: Path) -> list[Path]:
    return sorted(cache.rglob("patterns.*.bin"))


def test_a_second_start_builds_the_patterns_without_parsing_them(tmp_path):
    first = _start(tmp_path)
    assert first["parsed"] > 100  # compiled as usual, and kept
    [kept] = _kept(tmp_path)
    assert kept.parent.name == "offline"  # beside the package's bytecode
    second = _start(tmp_path)
    assert second["parsed"] == 0
    assert second["patterns"] == first["patterns"] > 100
    assert first["differ"] == second["differ"] == []


def test_the_kept_patterns_are_the_same_in_every_process(tmp_path):
    """No pattern's text depends on the order of a set (string hashing differs per process):
    a start with another hash seed finds every pattern kept and rewrites nothing."""
    _start(tmp_path, seed="1")
    [kept] = _kept(tmp_path)
    before = kept.read_bytes()
    again = _start(tmp_path, seed="2")
    assert again["parsed"] == 0
    assert kept.read_bytes() == before


def test_a_damaged_or_foreign_kept_file_is_compiled_over(tmp_path):
    _start(tmp_path)
    [kept] = _kept(tmp_path)
    for junk in (b"not marshal data", b""):
        kept.write_bytes(junk)
        probe = _start(tmp_path)
        assert probe["parsed"] > 100 and probe["differ"] == []
        assert _start(tmp_path)["parsed"] == 0  # written again, whole


def test_nothing_is_kept_where_python_keeps_no_bytecode(tmp_path):
    probe = _start(tmp_path, bytecode=False)
    assert probe["differ"] == [] and probe["patterns"] > 100
    assert _kept(tmp_path) == []
