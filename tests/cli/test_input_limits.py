"""Every input is read up to its limit and refused there, through real processes: a body
on stdin or --file (the store's body limit), a file of an imported folder (the body limit
plus room for frontmatter), a transcript to replay (MAX_TRANSCRIPT_BYTES). Endless and
blocking inputs (/dev/zero, a FIFO whose writer never closes, a sparse file of gigabytes)
end in one line and exit 2, never a hang, a traceback or gigabytes read."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time

import pytest

from doctree.sessions.transcripts import MAX_TRANSCRIPT_BYTES
from doctree.store.documents import DocumentsRepository

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX files")]

LIMIT = 50_000  # DOCTREE_MAX_BODY_BYTES for these tests


def doctree(db, *args: str, stdin=None, input: bytes | None = None, timeout: float = 60):
    env = {**os.environ, "DOCTREE_MAX_BODY_BYTES": str(LIMIT)}
    env.pop("DOCTREE_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), *args],
        stdin=stdin,
        input=input,
        capture_output=True,
        timeout=timeout,
        env=env,
    )


def one_line_error(result) -> str:
    err = result.stderr.decode()
    assert result.returncode == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def documents(db) -> list[str]:
    with DocumentsRepository(db) as repo:
        return [v.path for v in repo.log("main", "~", limit=None)]


# -- write ----------------------------------------------------------------------------------


def test_write_from_dev_zero_is_refused_at_the_body_limit(tmp_path):
    db = tmp_path / "doctree.db"
    with open("/dev/zero", "rb") as zero:
        line = one_line_error(doctree(db, "write", "~/a", stdin=zero))
    assert line.startswith("error: stdin: more than 50,000 bytes")
    assert "the body limit is 50,000 bytes" in line and "DOCTREE_MAX_BODY_BYTES" in line
    assert not db.exists()  # refused before the database was opened


def test_write_reads_no_more_than_the_limit_of_an_endless_stdin(tmp_path):
    """A writer that never stops: the command must stop reading at the limit (the pipe
    then breaks), not read everything it is given."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "doctree", "--db", str(tmp_path / "x.db"), "write", "~/a"],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "DOCTREE_MAX_BODY_BYTES": str(LIMIT)},
    )
    sent = 0
    chunk = b"a" * 65536
    try:
        while sent < 200 * 1024 * 1024:
            proc.stdin.write(chunk)
            proc.stdin.flush()
            sent += len(chunk)
    except BrokenPipeError:
        pass
    finally:
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert proc.returncode == 2, err
    assert sent < 8 * 1024 * 1024, f"the command read {sent:,} bytes"
    assert "more than 50,000 bytes" in err


def test_write_from_a_device_or_fifo_file_is_refused_before_reading(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for name, kind in (("/dev/zero", "a character device"), (str(fifo), "a FIFO")):
        line = one_line_error(doctree(tmp_path / "x.db", "write", "~/a", "--file", name))
        assert f"file {name!r}: is {kind}" in line


def test_write_of_a_sparse_file_larger_than_the_limit_is_refused_by_its_size(tmp_path):
    big = tmp_path / "big.md"
    os.truncate(os.open(big, os.O_CREAT | os.O_WRONLY), 3 * 1024**3)  # sparse: no disk used
    line = one_line_error(doctree(tmp_path / "x.db", "write", "~/a", "--file", str(big)))
    assert "is 3,221,225,472 bytes; the body limit is 50,000 bytes" in line


# -- import ---------------------------------------------------------------------------------


def test_import_of_a_folder_with_a_3_gb_file_is_refused_naming_it_and_writes_nothing(tmp_path):
    folder = tmp_path / "vault"
    folder.mkdir()
    (folder / "ok.md").write_text("# Fine\n\nSmall.\n")
    with open(folder / "huge.md", "wb") as f:
        f.truncate(3 * 1024**3)  # sparse
    db = tmp_path / "doctree.db"
    DocumentsRepository(db).close()
    started = time.monotonic()
    line = one_line_error(doctree(db, "import", str(folder)))
    assert time.monotonic() - started < 30
    assert "import file 'huge.md': is 3,221,225,472 bytes" in line
    assert "the body limit is 50,000 bytes" in line and "nothing was written" in line
    assert documents(db) == []


def test_import_refuses_a_file_just_over_the_limit_and_takes_one_under_it(tmp_path):
    from doctree.interop.exchange import FRONTMATTER_ALLOWANCE

    folder = tmp_path / "vault"
    folder.mkdir()
    db = tmp_path / "doctree.db"
    (folder / "a.md").write_bytes(b"x" * (LIMIT + FRONTMATTER_ALLOWANCE + 1))
    assert "import file 'a.md'" in one_line_error(doctree(db, "import", str(folder)))
    (folder / "a.md").write_bytes(b"x" * LIMIT)
    assert doctree(db, "import", str(folder)).returncode == 0
    assert documents(db) == ["~/a"]


# -- replay ---------------------------------------------------------------------------------


def test_replay_of_a_fifo_whose_writer_never_closes_is_refused_not_a_hang(tmp_path):
    fifo = tmp_path / "transcript.md"
    os.mkfifo(fifo)
    held = threading.Event()

    def writer() -> None:  # opens the FIFO, writes a little, and keeps it open
        fd = os.open(fifo, os.O_RDWR)
        os.write(fd, b"# Transcript of session s1\n\n## user \xc2\xb7 2026-01-01T00:00:00Z\n\nhi\n")
        held.wait(60)
        os.close(fd)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        line = one_line_error(doctree(tmp_path / "x.db", "replay", str(fifo), timeout=30))
    finally:
        held.set()
        thread.join(10)
    assert f"transcript {str(fifo)!r}: is a FIFO" in line
    assert not (tmp_path / "x.db").exists()


def test_replay_of_dev_zero_is_one_line_not_a_traceback(tmp_path):
    line = one_line_error(doctree(tmp_path / "x.db", "replay", "/dev/zero"))
    assert "transcript '/dev/zero': is a character device, not a regular file" in line


def test_replay_of_a_transcript_over_the_limit_is_refused_by_its_size(tmp_path):
    big = tmp_path / "long.md"
    with open(big, "wb") as f:
        f.truncate(MAX_TRANSCRIPT_BYTES + 1)
    line = one_line_error(doctree(tmp_path / "x.db", "replay", str(big)))
    assert f"is {MAX_TRANSCRIPT_BYTES + 1:,} bytes" in line
    assert f"a transcript is at most {MAX_TRANSCRIPT_BYTES:,} bytes" in line


def test_replay_of_a_folder_is_refused(tmp_path):
    result = doctree(tmp_path / "x.db", "replay", str(tmp_path))
    assert result.returncode == 2 and b"Traceback" not in result.stderr
    assert b"is a directory" in result.stderr


def test_replay_help_states_the_transcript_limit():
    from click.testing import CliRunner

    from doctree.cli import cli

    out = CliRunner().invoke(cli, ["replay", "--help"]).output
    assert f"at most {MAX_TRANSCRIPT_BYTES:,} bytes" in " ".join(out.split())
