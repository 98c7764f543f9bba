"""`make api` builds the API reference from the docstrings (pdoc): one page per module of every
floor, each public class with its docstring. It is the command the docs name
(docs/architecture.md), run here as a developer runs it, into a temporary folder."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a subprocess or a server of its own

ROOT = Path(__file__).resolve().parents[2]


def text_of(page: Path) -> str:
    return unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_api_documents_every_floor_from_its_docstrings(tmp_path):
    venv = Path(sys.prefix)
    out = tmp_path / "api"
    result = subprocess.run(
        ["make", "-s", "api", f"VENV={venv}", f"API_DIR={out}", "-o", f"{venv}/.installed"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    pages = {p.relative_to(out).as_posix() for p in out.rglob("*.html")}
    for floor in ("store", "sessions", "llm", "memory", "interop", "agent", "worker", "cli", "web"):
        assert any(p.startswith(f"doctree/{floor}") for p in pages), floor
    documents = text_of(out / "doctree/store/documents.html")
    assert "class DocumentsRepository" in documents
    for name in ("def write(", "def read(", "def history("):
        assert name in documents, name
    modules = {p for p in pages if p.startswith("doctree/")}
    package = {
        p.relative_to(ROOT).with_suffix(".html").as_posix()
        for p in (ROOT / "doctree").rglob("*.py")
        if p.name not in ("__init__.py", "__main__.py")
    }
    assert package - modules == set()  # no module left out
    assert "Warn: The module specification" not in result.stderr  # none given twice


def test_api_without_a_folder_is_refused_in_one_line():
    result = subprocess.run(
        [sys.executable, "-m", "doctree.cli.docs", "--api"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stderr == "error: --api needs one folder, e.g. --api .api\n"


def test_api_into_a_folder_that_cannot_be_made_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = subprocess.run(
        [sys.executable, "-m", "doctree.cli.docs", "--api", str(blocker / "api")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"error: --api '{blocker / 'api'}': cannot write there")
    assert "Traceback" not in result.stderr and blocker.read_text() == "not a folder"
