"""The README's "CLI at a glance" runs as written, top to bottom, on a fresh database (on
PostgreSQL too: its DOCTREE_DB is then the server's URL)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def tour_lines() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## The CLI at a glance") :]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [ln for ln in block.splitlines() if ln.strip()]


def test_the_readme_tour_runs_top_to_bottom_on_a_fresh_database(db_path, tmp_path):
    lines = tour_lines()
    assert len(lines) > 20
    # Verbatim, but in a temporary folder: the tour's /tmp paths move under tmp_path, and its
    # database is the test's (a file there, or a PostgreSQL URL).
    assert lines[0].startswith("export DOCTREE_DB=/tmp/doctree-tour.db ")
    lines = [ln.replace("/tmp/", f"{tmp_path}/") for ln in lines]
    lines[0] = lines[0].replace(f"{tmp_path}/doctree-tour.db", shlex.quote(str(db_path)), 1)
    script = "\n".join(lines)
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(tmp_path),
    }
    env.pop("ANTHROPIC_API_KEY", None)
    env.pop("ANTHROPIC_BASE_URL", None)
    env.pop("DOCTREE_OWNER", None)
    steps = []
    for n in range(1, len(lines) + 1):
        steps.append(f"echo '>>> {n}' >&2")
        steps.append(script.splitlines()[n - 1])
    result = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", "\n".join(steps)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert "Prefers green tea." in out or "green tea" in out  # read, diff and search see it
    assert "-Prefers tea." in out and "+Prefers green tea." in out  # diff 1 2 shows the edit
    assert "~/memory/humans/alice" in out  # search found the page where it now is
