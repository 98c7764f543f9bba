from __future__ import annotations

import itertools
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from doctree.store.backends import is_database_url
from doctree.store.documents import DocumentsRepository
from tests.pg_server import Server

# Shared, busy machines: no per-example deadline, and slow data generation is not a failure.
settings.register_profile("doctree", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("doctree")


@pytest.fixture(autouse=True)
def _no_model_api_key(monkeypatch):
    """The `auto` backend (the default of `replay` and `worker`) is `offline` in tests: a key
    in the developer's environment must not send a test to the real API. A test that wants
    the anthropic backend sets the key itself (for a loopback fake)."""
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)


# Every test that takes `db_path` (or `repo`) runs on both backends: a SQLite file, and a
# new database on a throwaway PostgreSQL server (see tests/pg_server.py). Where no server
# can be started, the PostgreSQL half is skipped, and the run's summary says why.
_server = Server()
_started: bool | None = None
_left_out = 0  # tests of the PostgreSQL half not run for want of a server


def _postgres() -> Server | None:
    global _started
    if _started is None:
        _started = _server.start()
    return _server if _started else None


def pytest_terminal_summary(terminalreporter):
    """One line on the PostgreSQL half of the run (printed under -q too)."""
    if _started is None:
        return  # no selected test needed it
    if _started:
        terminalreporter.write_line(f"postgresql: tests ran on a throwaway server in {_server.dir}")
    else:
        terminalreporter.write_line(
            f"postgresql: the PostgreSQL half ({_left_out} tests) was left out: {_server.why_not}"
        )


def pytest_unconfigure(config):
    _server.stop()


def pytest_configure(config):
    # A run stopped by SIGTERM (a CI timeout) still stops its PostgreSQL server on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


# Fixtures that give a test a database on the PostgreSQL server (directly or through a
# fixture of its own that asks for one of them).
_POSTGRES_FIXTURES = {"postgres_url", "postgres_url_without_tables", "postgres_server"}


def pytest_itemcollected(item):
    """Mark the PostgreSQL half `postgres` (markers are registered in pyproject.toml), so
    `-m "not postgres"` leaves it out: the `postgres` param of `db_path` (here, or in a module
    that defines its own `db_path`), and every test that asks for a server database."""
    spec = getattr(item, "callspec", None)
    on_postgres = spec is not None and spec.params.get("db_path") == "postgres"
    if on_postgres or _POSTGRES_FIXTURES & set(getattr(item, "fixturenames", ())):
        item.add_marker(pytest.mark.postgres)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    # Last, after `-m` has deselected what it leaves out: a run without PostgreSQL tests
    # starts no server.
    global _left_out
    kept, dropped = [], []
    for item in items:
        spec = getattr(item, "callspec", None)
        on_postgres = spec is not None and spec.params.get("db_path") == "postgres"
        if on_postgres and item.get_closest_marker("sqlite_only"):
            dropped.append(item)
        elif on_postgres and _postgres() is None:
            dropped.append(item)
            _left_out += 1
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_path(request, tmp_path):
    """Where the test's database is: a SQLite file, or a PostgreSQL URL."""
    if request.param == "sqlite":
        yield tmp_path / "doctree.db"
        return
    server = _postgres()
    if server is None:
        pytest.skip(f"PostgreSQL: {_server.why_not}")
    yield server.test_database()


@pytest.fixture
def repo(db_path):
    r = DocumentsRepository(db_path)
    yield r
    r.close()


@pytest.fixture
def postgres_url():
    """A new, migrated, empty PostgreSQL database of the test's own, dropped after it (for
    tests of several processes on one server); skipped where no server can be started."""
    server = _postgres()
    if server is None:
        pytest.skip(f"PostgreSQL: {_server.why_not}")
    url = server.new_database()
    yield url
    server.drop_database(url)


@pytest.fixture
def new_store(db_path, tmp_path):
    """A function that gives an empty store of the test's backend at each call (for tests
    whose hypothesis examples each want one): a new SQLite file, or the test's PostgreSQL
    database emptied again (see `Server.reset`)."""
    count = itertools.count(1)

    def make() -> str | Path:
        if not is_database_url(db_path):
            return tmp_path / f"store-{next(count)}.db"
        _server.reset(db_path)
        return db_path

    return make


@pytest.fixture
def postgres_url_without_tables():
    """A new PostgreSQL database without doctree's tables (none at all), dropped after the
    test; skipped where no server can be started."""
    server = _postgres()
    if server is None:
        pytest.skip(f"PostgreSQL: {_server.why_not}")
    url = server.new_database_empty()
    yield url
    server.drop_database(url)


@pytest.fixture(scope="session")
def postgres_server() -> Server:
    """The throwaway PostgreSQL server (for fixtures that make databases of their own, such
    as a template built once and copied per test); skipped where none can be started."""
    server = _postgres()
    if server is None:
        pytest.skip(f"PostgreSQL: {_server.why_not}")
    return server


@pytest.fixture
def fresh_database(db_path, tmp_path):
    """A function that gives an empty database of the test's backend at each call, for tests
    that want several at once (`fresh_database("a")`, `fresh_database("b")`): a new SQLite
    file in tmp_path, or a PostgreSQL database of that name's own (a copy of the migrated
    template, ~0.5 s; a later call with the same name empties it again, see `Server.reset`),
    each dropped after the test."""
    made: dict[str, str] = {}
    count = itertools.count(1)

    def make(name: str) -> str | Path:
        if not is_database_url(db_path):
            return tmp_path / f"{name}-{next(count)}.db"
        if name in made:
            _server.reset(made[name])
        else:
            made[name] = _server.new_database()
        return made[name]

    yield make
    for url in made.values():
        _server.drop_database(url)
