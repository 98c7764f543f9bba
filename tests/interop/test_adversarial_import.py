"""`doctree import` of folders holding things that are not regular text files: a FIFO named
like a page (it used to block the import forever), sockets, non-UTF-8 file and folder names,
and frontmatter nested too deep for the YAML parser."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from doctree.errors import UserError
from doctree.interop.exchange import import_tree
from doctree.store.documents import DocumentsRepository

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and byte file names")


@pytest.fixture
def vault(tmp_path):
    d = tmp_path / "vault"
    d.mkdir()
    (d / "a.md").write_text("# A\nkept\n")
    os.mkfifo(d / "x.md")
    return d


@pytest.mark.slow
def test_import_skips_a_fifo_and_reports_it_without_hanging(db_path, vault):
    # a real process with a timeout: the defect was a read that never returned
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "doctree",
            "--db",
            str(db_path),
            "import",
            str(vault),
            "--under",
            "~/memory",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "skipped x.md: not a regular file (a FIFO)" in proc.stdout
    with DocumentsRepository(db_path) as repo:
        assert [d.path for d in repo.documents("main")] == ["~/memory", "~/memory/a"]
        assert repo.read("main", "~/memory/a").body == "# A\nkept\n"


def test_import_skips_a_socket(repo, tmp_path):
    d = tmp_path / "v"
    d.mkdir()
    (d / "a.md").write_text("# A\n")
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(d / "s.md"))
        report = import_tree(repo, "a", d, under="~/memory")
    finally:
        s.close()
    assert ("s.md", "not a regular file (a socket)") in report.skipped
    assert "~/memory/a" in report.created


@pytest.mark.slow
def test_import_reports_non_utf8_file_and_folder_names_and_imports_the_rest(db_path, tmp_path):
    d = tmp_path / "v"
    d.mkdir()
    (d / "ok.md").write_text("# Ok\n")
    raw = os.fsencode(d)
    with open(raw + b"/caf\xe9.md", "wb") as f:
        f.write(b"# Cafe\n")
    os.mkdir(raw + b"/dir\xff")
    with open(raw + b"/dir\xff/inner.md", "wb") as f:
        f.write(b"# Inner\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "doctree",
            "--db",
            str(db_path),
            "import",
            str(d),
            "--under",
            "~/memory",
        ],
        capture_output=True,
        timeout=60,
    )
    out = proc.stdout.decode("utf-8")
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    assert "skipped caf\\xe9.md: its name is not UTF-8 text" in out
    assert "skipped dir\\xff: its name is not UTF-8 text" in out
    with DocumentsRepository(db_path) as repo:
        assert [doc.path for doc in repo.documents("main")] == ["~/memory", "~/memory/ok"]


def test_import_of_frontmatter_nested_too_deep_is_a_clear_error(repo, tmp_path):
    d = tmp_path / "v"
    d.mkdir()
    deep = "---\nx: " + "[" * 30_000 + "]" * 30_000 + "\n---\nbody\n"
    (d / "deep.md").write_text(deep)
    (d / "fine.md").write_text("# Fine\n")
    with pytest.raises(UserError, match="nested too deep") as e:
        import_tree(repo, "a", d, under="~/memory")
    assert "deep.md" in str(e.value)
    assert repo.documents("a") == []  # nothing was written
