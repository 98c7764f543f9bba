"""Library calls with arguments of the wrong kind: a str version, a float limit, 2**70 as a
version or limit, None where a path is needed, bytes for a body. Each is an `ArgumentError`
(a `DoctreeError`) naming the function, the argument and the rule, raised before anything is
read or written, at every public edge: `DocumentsRepository`, `Engine`, `load_memories`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

import pytest

from doctree.arguments import checked
from doctree.engine import Engine
from doctree.errors import ArgumentError, DoctreeError
from doctree.memory.context import load_memories
from doctree.store.documents import Actor, DocumentsRepository, Provenance

BIG = 2**70


@pytest.fixture
def seeded(repo):
    repo.write("a", "~/memory/x", "hello")
    return repo


@pytest.mark.parametrize(
    ("call", "argument", "rule"),
    [
        (lambda r: r.read("a", "~/memory/x", version="1"), "version", "whole number"),
        (lambda r: r.read("a", "~/memory/x", version=BIG), "version", "64 bits"),
        (lambda r: r.read("a", "~/memory/x", version=1.0), "version", "whole number"),
        (lambda r: r.write("a", "~/memory/x", "b", expected_version="1"), "expected_version", ""),
        (lambda r: r.write("a", "~/memory/x", "b", expected_version=BIG), "expected_version", ""),
        (lambda r: r.write("a", "~/memory/x", b"bytes body"), "body", "text (str)"),
        (lambda r: r.write("a", None, "b"), "path", "text (str)"),
        (lambda r: r.edit("a", "~/memory/x", b"h", "j"), "old", "text (str)"),
        (lambda r: r.search("a", "hello", limit=2.5), "limit", "whole number"),
        (lambda r: r.search("a", "hello", limit=BIG), "limit", "64 bits"),
        (lambda r: r.search("a", b"hello"), "query", "text (str)"),
        (lambda r: r.search("a", None), "query", "text (str)"),
        (lambda r: r.log("a", limit=1.5), "limit", "whole number"),
        (lambda r: r.version(BIG, 1), "document_id", "64 bits"),
        (lambda r: r.erase_version("a", "~/memory/x", "1"), "version", "whole number"),
        (lambda r: r.restore("a", "~/memory/x", BIG), "version", "64 bits"),
        (lambda r: r.move("a", "~/memory/x", None), "new_path", "text (str)"),
        (
            lambda r: r.write("a", "~/memory/x", "b", provenance="user:me"),
            "provenance",
            "Provenance",
        ),
        (lambda r: r.write("a", "~/memory/x", "b", links="~/memory/y"), "links", "a list"),
        (lambda r: r.delete("a", "~/memory/x", recursive=1), "recursive", "True or False"),
    ],
)
def test_a_repository_call_with_a_wrong_kind_of_argument_names_it_and_changes_nothing(
    seeded, call, argument, rule
):
    with pytest.raises(
        ArgumentError, match=f"DocumentsRepository\\.\\w+\\(\\): argument {argument} "
    ) as e:
        call(seeded)
    assert rule in str(e.value)
    assert isinstance(e.value, DoctreeError)
    doc = seeded.read("a", "~/memory/x")
    assert (doc.version, doc.body) == (1, "hello")


@pytest.mark.parametrize(
    ("fields", "argument", "rule"),
    [
        ({"actor": "user:me"}, "actor", "an Actor or None"),
        ({"session": 42}, "session", "text (str) or None"),
        ({"run": "7"}, "run", "a run id"),
        ({"run": 2**70}, "run", "a run id"),
        ({"run": True}, "run", "a run id"),
    ],
)
def test_a_provenance_of_the_wrong_kind_is_refused_naming_the_field(fields, argument, rule):
    with pytest.raises(ArgumentError, match=f"Provenance\\(\\): argument {argument} ") as e:
        Provenance(**fields)
    assert rule in str(e.value)


def test_the_repository_refuses_none_and_a_wrong_body_limit_as_its_database(tmp_path):
    with pytest.raises(ArgumentError, match="argument db None"):
        DocumentsRepository(None)  # type: ignore[arg-type]
    for limit in (1.5, "5", BIG):
        with pytest.raises(ArgumentError, match="argument max_body_bytes"):
            DocumentsRepository(tmp_path / "x.db", max_body_bytes=limit)  # type: ignore[arg-type]
    assert not (tmp_path / "x.db").exists()


def test_right_kinds_still_pass(seeded, tmp_path):
    assert seeded.read("a", "~/memory/x", version=1).body == "hello"
    doc = seeded.write(
        "a", "~/memory/x", "b", expected_version=1, provenance=Provenance(Actor("user", "me"))
    )
    assert doc.version == 2
    with DocumentsRepository(Path(tmp_path) / "p.db") as r:  # a Path, not only a str
        assert r.write("a", "~/y", "z", links=["~/x"]).links == ["~/x"]


def test_engine_calls_with_a_wrong_kind_of_argument_name_it(tmp_path):
    db = tmp_path / "e.db"
    with pytest.raises(ArgumentError, match="Engine.__init__\\(\\): argument db None"):
        Engine(None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="argument batch 1.5"):
        Engine(db, batch=1.5, compact=False)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="argument interval '3'"):
        Engine(db, interval="3", compact=False)  # type: ignore[arg-type]
    engine = Engine(db, compact=False)
    try:
        session = engine.start_session("main")
        with pytest.raises(ArgumentError, match="Engine.sleep\\(\\): argument session_id"):
            engine.sleep(BIG)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError, match="Engine.append\\(\\): argument content b'hi'"):
            engine.append(session.id, "user", b"hi")  # type: ignore[arg-type]
        assert engine.append(session.id, "user", "hi") > 0
    finally:
        engine.close()


def test_load_memories_with_a_wrong_kind_of_argument_names_it(repo):
    for kwargs, argument in (
        ({"cap": 1.5}, "cap"),
        ({"cap": BIG}, "cap"),
        ({"query": b"x"}, "query"),
        ({"under": None}, "under"),
    ):
        with pytest.raises(ArgumentError, match=f"load_memories\\(\\): argument {argument} "):
            load_memories(repo, "a", **kwargs)
    with pytest.raises(ArgumentError, match="argument repo None .*DocumentsRepository"):
        load_memories(None, "a")  # type: ignore[arg-type]


def test_the_checker_reads_optional_unions_literals_and_path_like():

    @checked
    def f(
        a: int,
        b: str | None = None,
        *,
        c: str | os.PathLike[str] = "x",
        d: Literal["x", "y"] = "x",
        e: float = 0.0,
    ) -> int:
        return a

    assert f(1, None, c=Path("p"), d="y", e=2) == 1
    for call, text in (
        (lambda: f(True), "argument a True (bool)"),
        (lambda: f(1, 2), "argument b 2 (int): must be text (str) or None"),
        (lambda: f(1, c=None), "must be text (str) or a path (os.PathLike)"),
        (lambda: f(1, d="z"), "must be one of 'x', 'y'"),
        (lambda: f(1, e=float("nan")), "not NaN"),
        (lambda: f(1, b=b"x" * 200), "..."),  # a long value is shortened in the message
    ):
        with pytest.raises(ArgumentError) as e:
            call()
        assert text in str(e.value)
        assert len(str(e.value)) < 200
