"""The demo's memory for the inspector's tests: the fixture transcripts replayed offline
(what `make demo` does) into a database built once, copied for each test that writes."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

TRANSCRIPTS = sorted((Path(__file__).parent / "fixtures" / "transcripts").glob("*.md"))


def build_demo(path: Path | str) -> Path | str:
    """The demo replayed into `path`: a SQLite file, or a PostgreSQL URL."""
    subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(path), "replay", "--backend", "offline"]
        + [str(t) for t in TRANSCRIPTS],
        check=True,
        capture_output=True,
    )
    return path


def copy_db(src: Path, dst: Path) -> Path:
    """A consistent copy of a database (SQLite's backup API, WAL included)."""
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    a.close()
    b.close()
    return dst


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
