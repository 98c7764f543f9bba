"""The collector's threshold of a `doctree` process: young objects collected less often
than Python's default, in a process that is doctree's alone, not in a program that imports
doctree as a library."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_SHOW = (
    "import atexit, gc, sys\n"
    "atexit.register(lambda: print(gc.get_threshold(), file=sys.stderr))\n"
    "sys.argv = ['doctree', *sys.argv[1:]]\n"
    "import runpy\n"
    "runpy.run_module('doctree', run_name='__main__')\n"
)


def _threshold_of(tmp_path: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DOCTREE_DB": str(tmp_path / "t.db")}
    done = subprocess.run(
        [sys.executable, "-c", _SHOW, *args], capture_output=True, text=True, env=env, timeout=120
    )
    return done.stderr.strip().splitlines()[-1]


def test_a_doctree_command_collects_young_objects_less_often(tmp_path):
    from doctree.cli import GC_YOUNG_THRESHOLD

    _, older, oldest = gc.get_threshold()
    shown = _threshold_of(tmp_path, "ls")
    assert shown == str((GC_YOUNG_THRESHOLD, older, oldest))
    assert GC_YOUNG_THRESHOLD > 700


def test_importing_doctree_leaves_the_programs_threshold_alone():
    code = "import gc, doctree.cli, doctree.compose; print(gc.get_threshold())"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=True,
    )
    assert done.stdout.strip() == str(gc.get_threshold())


def test_the_quick_forms_keep_the_default(tmp_path):
    # `--version` is answered before click is imported: nothing there to collect
    assert _threshold_of(tmp_path, "--version") == str(gc.get_threshold())
