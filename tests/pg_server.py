"""A throwaway PostgreSQL server for the tests, from the machine's own binaries.

`initdb` and `pg_ctl` in a temporary directory, listening on a Unix socket only. The server
refuses to run as root, so as root it runs as the `postgres` user. Each test gets a new
database copied from a template that is already migrated (fast: no migrations per test).
"""

from __future__ import annotations

import atexit
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


# Every table, children before parents (the order rows can be deleted in).
_TABLES = (
    "run_reviews",
    "vector_pending",
    "vector_generations",
    "passage_vectors",
    "recall_vectors",
    "vector_deletions",  # after the vector tables, whose deletes list their rows here
    "vector_deletion_floors",
    "passage_pending",
    "passage_sources",
    "passages",
    "recall_passages",
    "recall_pending",
    "document_references",
    "document_versions",
    "documents",
    "session_history",
    "sessions",
    "runs",
    "leases",
    "search_flush",  # after the tables whose triggers note their changes, so that the
    # COMMIT applies nothing; then the figures themselves
    "search_counts",
    "search_terms",
)
_IDENTITIES = (
    ("run_reviews", "id"),
    ("documents", "id"),
    ("document_versions", "id"),
    ("document_references", "id"),
    ("session_history", "id"),
    ("sessions", "rowid"),
    ("runs", "id"),
    ("passages", "id"),
    ("recall_passages", "id"),
)


class Server:
    def __init__(self) -> None:
        self.dir: Path | None = None
        self.url = ""
        self.pg_ctl = ""
        self.as_user: list[str] = []
        self._names = itertools.count(1)
        self.why_not = ""
        self._shared: str | None = None
        self._options = ""

    def start(self) -> bool:
        if os.environ.get("DOCTREE_TEST_POSTGRES", "").strip() == "0":
            self.why_not = "DOCTREE_TEST_POSTGRES=0 leaves it out"
            return False
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
            self._options = (
                f"-k {self.dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off"
                " -c full_page_writes=off -c max_connections=200"
            )
            self.resume()
        except (subprocess.SubprocessError, OSError) as e:
            err = getattr(e, "stderr", b"") or b""
            self.why_not = f"PostgreSQL did not start ({e}; {err.decode(errors='replace')[-300:]})"
            self.stop()
            return False
        self.url = f"postgresql://doctree@/postgres?host={self.dir}"
        atexit.register(self.stop)  # also when the run ends without pytest's own teardown
        import psycopg

        from doctree.store.db import connect

        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute("CREATE DATABASE doctree_template")
        connect(self.database_url("doctree_template")).close()  # migrated once
        return True

    def resume(self) -> None:
        """Start the server (again, after `halt`) on its data directory, and wait for it."""
        assert self.dir is not None
        subprocess.run(
            [*self.as_user, self.pg_ctl, "-D", str(self.dir / "data"), "-o", self._options,
             "-w", "-t", "60", "-l", str(self.dir / "server.log"), "start"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip

    def halt(self) -> None:
        """Stop the server as an administrator's restart does (`-m fast`: every session is
        ended, open transactions are rolled back), keeping its data for `resume`."""
        assert self.dir is not None
        subprocess.run(
            [*self.as_user, self.pg_ctl, "-D", str(self.dir / "data"), "-m", "fast", "-w",
             "-t", "60", "stop"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip

    def database_url(self, name: str) -> str:
        return f"postgresql://doctree@/{name}?host={self.dir}"

    def new_database(self) -> str:
        """The URL of a new, migrated, empty database (a copy of the template: ~0.5 s)."""
        import psycopg

        name = f"t{next(self._names)}"
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name} TEMPLATE doctree_template")
        return self.database_url(name)

    def new_database_empty(self) -> str:
        """The URL of a new database without doctree's tables (template0)."""
        import psycopg

        name = f"e{next(self._names)}"
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        return self.database_url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.split("/")[3].split("?")[0]
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def test_database(self) -> str:
        """The URL of the one database the tests share, emptied (see `reset`)."""
        if self._shared is None:
            self._shared = self.new_database()
        else:
            self.reset(self._shared)
        return self._shared

    def reset(self, url: str) -> None:
        """Empty every table and restart the ids, as a new database would be (a few ms,
        where copying the template takes half a second). Connections a test left open are
        closed first; tables a test added are dropped."""
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            present = {
                r[0]
                for r in conn.execute(
                    "SELECT table_name FROM information_schema.tables"
                    " WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
                )
            }
            with conn.transaction():
                for table in sorted(present - {*_TABLES, "doctree_migrations", "vector_models"}):
                    conn.execute(f'DROP TABLE IF EXISTS "{table}" CASCADE')
                for table in _TABLES:
                    if table == "search_flush":
                        # The notes this transaction's deletes left for its COMMIT (a
                        # temporary table of this connection): applied, they would take the
                        # deleted rows off figures emptied below.
                        conn.execute(
                            "DO $$ BEGIN IF to_regclass('pg_temp.search_deltas') IS NOT NULL"
                            " THEN DELETE FROM pg_temp.search_deltas; END IF; END $$"
                        )
                    conn.execute(f"DELETE FROM {table}")
                conn.execute("UPDATE vector_models SET model = '', dimension = 0")  # as made
                for table, column in _IDENTITIES:
                    conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), 1, false)"
                    )
        # A new database would have a new URL, and nothing of it in this process's memory:
        # the owners' vectors read from the emptied one (keyed by its URL) go too, or a
        # later test whose generation numbers start over would be served the old ones.
        from doctree.store import vectors

        with vectors._LOCK:
            vectors._CACHE.clear()

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
