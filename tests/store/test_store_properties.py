"""Property tests: any sequence of writes, edits, moves, deletes, restores (and
redactions) keeps the history append-only, reconstructs every version exactly (checked
against a small in-memory model), keeps the tree well formed, and lets the past be read
back as it was. Bodies are stored as deltas with a full copy every 3 versions here, so
chains, keyframes and the re-encoding of redaction are all exercised. The machine runs on
both backends: each example on an empty database of its own."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from doctree.errors import ConflictError, NotFoundError, PathError, UserError
from doctree.store import encoding
from doctree.store.documents import DocumentsRepository, now
from doctree.store.paths import ancestors, is_under, parent_of

OWNER = "prop"
SEGMENTS = ["a", "b"]
PATHS = [
    "~/" + "/".join(segs)
    for segs in (
        [x] if n == 1 else [x, y] if n == 2 else [x, y, z]
        for n in (1, 2, 3)
        for x in SEGMENTS
        for y in SEGMENTS
        for z in SEGMENTS
    )
]
PATHS = sorted(set(PATHS))
BODIES = [
    "",
    "plain text",
    "# Heading\n\nsee [[~/a]]",
    "links [one](~/b/c) and [[~/c/a/b]]",
    "---\ntitle: Fm\nlinks: [~/a/b]\n---\nbody",
    "é\n",
    # long enough that an edit is stored as a delta rather than a full copy
    "# Long\n\nsee [[~/b]]\n" + "".join(f"w{i * 7919 % 997} " for i in range(120)),
    "".join(f"line {i * 104729 % 1009}\n" for i in range(60)) + "é",
]


@dataclass
class ModelVersion:
    operation: str
    path: str
    body: str | None  # None once redacted
    deleted: bool = False
    digest: str = ""
    size: int = 0

    def __post_init__(self) -> None:
        assert self.body is not None
        self.digest = hashlib.sha256(self.body.encode()).hexdigest()
        self.size = len(self.body.encode())


@dataclass
class ModelDoc:
    id: int
    path: str
    deleted: bool = False
    deleted_seq: int = -1
    versions: list[ModelVersion] = field(default_factory=list)

    @property
    def body(self) -> str:
        body = self.versions[-1].body
        assert body is not None
        return body


class Model:
    """What the store should hold, computed the simple way."""

    def __init__(self) -> None:
        self.docs: dict[int, ModelDoc] = {}
        self.seq = 0

    def live(self, path: str) -> ModelDoc | None:
        return next((d for d in self.docs.values() if not d.deleted and d.path == path), None)

    def last_deleted(self, path: str) -> ModelDoc | None:
        cands = [d for d in self.docs.values() if d.deleted and d.path == path]
        return max(cands, key=lambda d: d.deleted_seq) if cands else None

    def subtree(self, path: str) -> list[ModelDoc]:
        return sorted(
            (d for d in self.docs.values() if not d.deleted and is_under(d.path, path)),
            key=lambda d: d.path,
        )

    def create(self, path: str, body: str) -> None:
        doc = ModelDoc(len(self.docs) + 1, path)
        doc.versions.append(ModelVersion("created", path, body))
        self.docs[doc.id] = doc

    def ensure_ancestors(self, path: str) -> None:
        for anc in ancestors(path):
            if self.live(anc) is None:
                self.create(anc, "")

    def write(self, path: str, body: str) -> None:
        doc = self.live(path)
        if doc is None:
            self.ensure_ancestors(path)
            self.create(path, body)
        elif doc.body != body:
            doc.versions.append(ModelVersion("modified", path, body))

    def move(self, src: str, dst: str) -> type[Exception] | None:
        if is_under(dst, src):
            return PathError
        if self.live(src) is None:
            return NotFoundError
        if self.live(dst) is not None:
            return ConflictError
        self.ensure_ancestors(dst)
        for doc in self.subtree(src):
            doc.path = dst + doc.path[len(src) :]
            doc.versions.append(ModelVersion("moved", doc.path, doc.body))
        return None

    def delete(self, path: str, recursive: bool) -> type[Exception] | None:
        if self.live(path) is None:
            return NotFoundError
        docs = self.subtree(path)
        if len(docs) > 1 and not recursive:
            return UserError
        for doc in docs:
            doc.versions.append(ModelVersion("deleted", doc.path, doc.body, deleted=True))
            doc.deleted = True
            self.seq += 1
            doc.deleted_seq = self.seq
        return None

    def restore(self, path: str, version: int) -> type[Exception] | None:
        doc = self.live(path) or self.last_deleted(path)
        if doc is None or not 1 <= version <= len(doc.versions):
            return NotFoundError
        old = doc.versions[version - 1]
        if old.body is None or old.deleted:
            return UserError
        if doc.deleted:
            self.ensure_ancestors(path)
            doc.deleted = False
        doc.versions.append(ModelVersion("restored", doc.path, old.body))
        return None

    def redact(self, path: str, version: int) -> type[Exception] | None:
        doc = self.live(path) or self.last_deleted(path)
        if doc is None or not 1 <= version <= len(doc.versions):
            return NotFoundError
        target = doc.versions[version - 1]
        # the current state is emptied too when it holds the redacted content
        current = version == len(doc.versions) or target.digest == doc.versions[-1].digest
        body = "" if current else doc.body
        erased = target.digest
        for v in doc.versions:  # it, and earlier redactions that carried the same content
            if v is target or (v.operation == "redacted" and v.digest == erased and v.size > 0):
                # nothing of the content stays: digest and size are the empty body's
                v.body, v.digest, v.size = None, hashlib.sha256(b"").hexdigest(), 0
        doc.versions.append(ModelVersion("redacted", doc.path, body, deleted=doc.deleted))
        return None

    def snapshot(self) -> dict[str, tuple[int, int]]:
        """Where each live path's content is: (document id, version index)."""
        return {d.path: (d.id, len(d.versions) - 1) for d in self.docs.values() if not d.deleted}


def _references_are_consistent(repo: DocumentsRepository) -> None:
    """links() and backlinks() agree, and every parent reference points at the parent."""
    docs = {d.id: d for d in repo.documents(OWNER)}
    by_path = {d.path: d for d in docs.values()}
    expected_back: dict[int, set[tuple[str, int]]] = {i: set() for i in docs}
    for doc in docs.values():
        refs = repo.links(OWNER, doc.path)
        parents = [r for r in refs if r.kind == "parent"]
        if parent_of(doc.path) == "~":
            assert parents == []
        else:
            [p] = parents
            assert (p.state, p.target_id) == ("resolved", by_path[parent_of(doc.path)].id)
        for r in refs:
            if r.state == "resolved":
                assert r.target_id in docs and docs[r.target_id].path == r.target_path
                if r.kind != "parent":
                    expected_back[r.target_id].add((r.kind, doc.id))
            elif r.state == "dangling":
                assert r.target_id is None and r.target_path not in by_path
            else:
                assert r.state == "deleted" and r.target_id not in docs
    for doc in docs.values():
        back = {(r.kind, r.source_id) for r in repo.backlinks(OWNER, doc.path)}
        assert back == expected_back[doc.id], doc.path


def _versions_match_the_model(repo: DocumentsRepository, model: Model) -> None:
    for doc in model.docs.values():
        got = [
            (v.operation, v.path, v.body, v.content_sha256, v.size, v.version, v.deleted)
            for v in (repo.version(doc.id, n) for n in range(1, len(doc.versions) + 1))
        ]
        want = [
            (v.operation, v.path, v.body, v.digest, v.size, n, v.deleted)
            for n, v in enumerate(doc.versions, 1)
        ]
        assert got == want
    streamed = {}
    for v in repo.iter_versions(OWNER):
        streamed.setdefault(v.document_id, []).append(v.body)
    assert streamed == {i: [v.body for v in d.versions] for i, d in model.docs.items()}


class StoreMachine(RuleBasedStateMachine):
    # Where each example's store is: a function that gives an empty one (a new SQLite file,
    # or the test's PostgreSQL database emptied; the `new_store` fixture), set by the test.
    new_store: Callable[[], str | os.PathLike[str]]

    def __init__(self) -> None:
        super().__init__()
        self._chain = encoding.CHAIN
        encoding.CHAIN = 3  # short chains: keyframes every 3 versions
        self.repo = DocumentsRepository(type(self).new_store())
        self.model = Model()
        self.rows: list[tuple] = []
        self.bodies: list[str | None] = []
        self.checkpoints: list[tuple[str, dict[str, tuple[int, int]]]] = []

    def teardown(self) -> None:
        try:
            for ts, snapshot in self.checkpoints:
                nodes = [n for root in self.repo.tree(OWNER, at=ts) for n in root.walk()]
                assert {n.path for n in nodes} == set(snapshot)
                for path, (doc_id, index) in snapshot.items():
                    body = self.model.docs[doc_id].versions[index].body
                    if body is None:
                        with pytest.raises(NotFoundError, match="redacted"):
                            self.repo.read(OWNER, path, at=ts)
                    else:
                        assert self.repo.read(OWNER, path, at=ts).body == body
        finally:
            encoding.CHAIN = self._chain
            self.repo.close()

    def _apply(self, expected: type[Exception] | None, call) -> None:
        before = self._version_count()
        if expected is None:
            call()
        else:
            with pytest.raises(expected):
                call()
            assert self._version_count() == before, "a refused operation wrote something"
        self.checkpoints.append((now(), self.model.snapshot()))

    def _version_count(self) -> int:
        return len(self.repo.log(OWNER, limit=None))

    @rule(path=st.sampled_from(PATHS), body=st.sampled_from(BODIES))
    def write(self, path: str, body: str) -> None:
        self.model.write(path, body)
        self._apply(None, lambda: self.repo.write(OWNER, path, body))

    @rule(
        path=st.sampled_from(PATHS),
        at=st.integers(min_value=0, max_value=40),
        cut=st.integers(min_value=0, max_value=6),
        text=st.text(alphabet="ab é\n🙂", max_size=12),
    )
    def edit(self, path: str, at: int, cut: int, text: str) -> None:
        """A small change inside the current body (what deltas are made of)."""
        doc = self.model.live(path)
        if doc is None:
            return
        at = min(at, len(doc.body))
        body = doc.body[:at] + text + doc.body[at + cut :]
        self.model.write(path, body)
        self._apply(None, lambda: self.repo.write(OWNER, path, body))

    @rule(src=st.sampled_from(PATHS), dst=st.sampled_from(PATHS))
    def move(self, src: str, dst: str) -> None:
        expected = self.model.move(src, dst)
        self._apply(expected, lambda: self.repo.move(OWNER, src, dst))

    @rule(path=st.sampled_from(PATHS), recursive=st.booleans())
    def delete(self, path: str, recursive: bool) -> None:
        expected = self.model.delete(path, recursive)
        self._apply(expected, lambda: self.repo.delete(OWNER, path, recursive=recursive))

    @rule(path=st.sampled_from(PATHS), version=st.integers(min_value=1, max_value=6))
    def restore(self, path: str, version: int) -> None:
        expected = self.model.restore(path, version)
        self._apply(expected, lambda: self.repo.restore(OWNER, path, version))

    @rule(path=st.sampled_from(PATHS), version=st.integers(min_value=1, max_value=6))
    def redact(self, path: str, version: int) -> None:
        expected = self.model.redact(path, version)
        self._apply(expected, lambda: self.repo.erase_version(OWNER, path, version))

    @rule(path=st.sampled_from(PATHS), back=st.integers(min_value=1, max_value=3))
    def redact_recent(self, path: str, back: int) -> None:
        """Redact a version a few before the current one: the ones after it may be deltas."""
        doc = self.model.live(path)
        if doc is None or len(doc.versions) <= back:
            return
        version = len(doc.versions) - back
        self.model.redact(path, version)
        self._apply(None, lambda: self.repo.erase_version(OWNER, path, version))

    @invariant()
    def history_is_append_only(self) -> None:
        # (the digest is derived from the body, compared below: an erasure changes both)
        rows = [
            (v.id, v.document_id, v.version, v.operation, v.path, v.created_at)
            for v in reversed(self.repo.log(OWNER, limit=None))
        ]
        bodies = [v.body for v in reversed(self.repo.log(OWNER, limit=None))]
        assert rows[: len(self.rows)] == self.rows
        assert [r[0] for r in rows] == sorted(r[0] for r in rows)
        for old, new in zip(self.bodies, bodies, strict=False):
            assert new == old or new is None  # only a redaction may erase a body
        self.rows, self.bodies = rows, bodies

    @invariant()
    def every_version_is_reconstructed_exactly(self) -> None:
        _versions_match_the_model(self.repo, self.model)
        assert self._version_count() == sum(len(d.versions) for d in self.model.docs.values())

    @invariant()
    def current_state_matches_the_model(self) -> None:
        live = {d.path: (d.id, d.body, d.version) for d in self.repo.documents(OWNER)}
        want = {
            d.path: (d.id, d.body, len(d.versions))
            for d in self.model.docs.values()
            if not d.deleted
        }
        assert live == want

    @invariant()
    def tree_has_no_cycle_and_every_parent_exists(self) -> None:
        docs = {d.path: d for d in self.repo.documents(OWNER)}
        for path in docs:
            parent = parent_of(path)
            assert parent == "~" or parent in docs, f"{path} has no live parent"
            kids = {c.path for c in self.repo.children(OWNER, parent)}
            assert path in kids, f"{path} is not a child of {parent}"
        nodes = [n for root in self.repo.tree(OWNER) for n in root.walk()]
        assert sorted(n.path for n in nodes) == sorted(docs)  # each node once: no cycle
        for root in self.repo.tree(OWNER):
            for node in root.walk():
                assert all(parent_of(c.path) == node.path for c in node.children)

    @invariant()
    def references_are_consistent(self) -> None:
        _references_are_consistent(self.repo)


# Fewer examples on PostgreSQL: each step's invariants are many round trips to a server.
EXAMPLES = {"sqlite": 60, "postgres": 20}


@pytest.mark.slow
def test_the_store_machine(new_store, request):
    backend = request.node.callspec.params["db_path"]
    machine = type(
        "StoreMachineOn" + backend.title(),
        (StoreMachine,),
        {"new_store": staticmethod(new_store)},
    )
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=EXAMPLES[backend],
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
