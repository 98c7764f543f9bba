"""Every ```python example in README.md and docs/*.md runs as written, from the installed
package: each block is run in its own subprocess, in an empty folder, with the project's
`tests` package unimportable (an installed user does not have it) and no API key.

A block that cannot run here (it needs an API key and the network, or it only shows the
shape of a class) is preceded by an HTML comment saying why:

    <!-- not run: needs ANTHROPIC_API_KEY and the network -->
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
NOT_RUN = re.compile(r"<!--\s*not run:\s*(\S.*?)\s*-->\s*$")

# The block runs under this prelude: importing `tests` (or anything in it) fails, as it
# does for someone who installed doctree from a wheel.
PRELUDE = "import runpy, sys\nsys.modules['tests'] = None\nrunpy.run_path(sys.argv[1], run_name='__main__')\n"


def _blocks() -> list[tuple[str, str, str | None]]:
    """(id, code, reason it is not run) for every python block of the pages."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
            reason = NOT_RUN.search(before)
            out.append(
                (
                    f"{page.relative_to(ROOT)}:{line}",
                    m.group(1),
                    reason.group(1) if reason else None,
                )
            )
    return out


BLOCKS = _blocks()


def test_the_pages_have_python_examples_and_few_are_left_out():
    assert len(BLOCKS) >= 10
    left_out = [b for b in BLOCKS if b[2] is not None]
    assert len(left_out) <= len(BLOCKS) // 4, [b[0] for b in left_out]


@pytest.mark.slow
@pytest.mark.parametrize(("where", "code", "reason"), BLOCKS, ids=[b[0] for b in BLOCKS])
def test_documented_example_runs_from_the_installed_package(tmp_path, where, code, reason):
    if reason is not None:
        pytest.skip(f"{where}: {reason}")
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "DOCTREE_DB", "PYTHONPATH")
    }
    env["HOME"] = str(tmp_path)  # the default database lives under it, not the user's
    result = subprocess.run(
        [sys.executable, "-c", PRELUDE, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"{where} failed:\n{result.stderr[-3000:]}"


@pytest.mark.slow
def test_an_example_importing_the_test_scaffolding_fails_here(tmp_path):
    """The guard itself: `tests` is not importable inside an example's process."""
    script = tmp_path / "example.py"
    script.write_text("from tests.fakes.messages_api import Scripted\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", PRELUDE, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0 and "ModuleNotFoundError" in result.stderr
