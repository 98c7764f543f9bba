"""A throwaway PostgreSQL server for the tests, from the machine's own binaries.

`initdb` and `pg_ctl` in a temporary directory, listening on a Unix socket only. The server
refuses to run as root, so as root it runs as the `postgres` user. Each test gets a new
database copied from a template that is already migrated (fast: no migrations per test).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

INSTALL_HINT = (
    "install the PostgreSQL server binaries (initdb, pg_ctl; e.g. `apt-get install "
    "postgresql`) to run it"
)


def find_binaries() -> tuple[str, str] | None:
    """(initdb, pg_ctl), from PATH or the usual Debian place; None if absent."""
    for folder in [None, *sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]:
        initdb = shutil.which("initdb", path=folder)
        pg_ctl = shutil.which("pg_ctl", path=folder)
        if initdb and pg_ctl:
            return initdb, pg_ctl
    return None


class Server:
    def __init__(self) -> None:
        self.dir: Path | None = None
        self.url = ""
        self.pg_ctl = ""
        self.as_user: list[str] = []
        self._names = itertools.count(1)
        self.why_not = ""

    def start(self) -> bool:
        found = find_binaries()
        if found is None:
            self.why_not = "PostgreSQL server binaries not found; " + INSTALL_HINT
            return False
        try:
            import psycopg  # noqa: F401
        except ImportError:
            self.why_not = "psycopg is not installed (pip install 'doctree[postgres]')"
            return False
        initdb, self.pg_ctl = found
        if os.geteuid() == 0:
            if shutil.which("runuser") is None:
                self.why_not = "running as root and `runuser` is missing to start PostgreSQL"
                return False
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.dir = Path(tempfile.mkdtemp(prefix="doctree-pg-"))
        os.chmod(self.dir, 0o777)
        data = self.dir / "data"
        if self.as_user:
            shutil.chown(self.dir, "postgres")
        try:
            subprocess.run(
                [*self.as_user, initdb, "-D", str(data), "-A", "trust", "-U", "doctree",
                 "-E", "UTF8", "--locale=C", "--no-sync"],
                check=True, capture_output=True, timeout=120,
            )  # fmt: skip
            options = (
                f"-k {self.dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off"
                " -c full_page_writes=off -c max_connections=200"
            )
            subprocess.run(
                [*self.as_user, self.pg_ctl, "-D", str(data), "-o", options, "-w", "-t", "60",
                 "-l", str(self.dir / "server.log"), "start"],
                check=True, capture_output=True, timeout=120,
            )  # fmt: skip
        except (subprocess.SubprocessError, OSError) as e:
            err = getattr(e, "stderr", b"") or b""
            self.why_not = f"PostgreSQL did not start ({e}; {err.decode(errors='replace')[-300:]})"
            self.stop()
            return False
        self.url = f"postgresql://doctree@/postgres?host={self.dir}"
        import psycopg

        from doctree.store.db import connect

        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute("CREATE DATABASE doctree_template")
        connect(self.database_url("doctree_template")).close()  # migrated once
        return True

    def database_url(self, name: str) -> str:
        return f"postgresql://doctree@/{name}?host={self.dir}"

    def new_database(self) -> str:
        """The URL of a new, migrated, empty database."""
        import psycopg

        name = f"t{next(self._names)}"
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name} TEMPLATE doctree_template")
        return self.database_url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.split("/")[3].split("?")[0]
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        if self.dir is None:
            return
        data = self.dir / "data"
        if (data / "postmaster.pid").exists():
            subprocess.run(
                [*self.as_user, self.pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"],
                capture_output=True, timeout=60,
            )  # fmt: skip
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None
