"""Vectors: what passages mean, as an embedder reads them, stored beside the passages.

`VectorIndex` keeps one vector per passage of the pages (`passages`) or of the recall record
(`recall`), keyed by the passage's id (migration 003): triggers drop a passage's vector
whenever its row is deleted or its text rewritten (forget, redact) and put it in
`vector_pending`, which `catch_up` embeds in batches. `vector_models` records which model
(name and dimension) made an index's vectors: another model drops them all (`adopt`).

Search is a brute-force scan of the owner's vectors, held in memory while the index's
generation is unchanged (after a write, the rows stored since are read by their stamp and
those deleted since dropped by `vector_deletions`, migration 017): at the sizes one owner's
memory reaches, one matrix product over int8-stored vectors needs no approximate index, no
SQLite extension (this Python cannot load one) and no pgvector. Which model embeds is the caller's (`doctree.llm.embedders`);
all SQL for vectors lives here.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from doctree.store import encoding
from doctree.store.backends import dialect_of

if TYPE_CHECKING:  # numpy is imported where vectors are made or read, not at start-up
    import numpy as np

KINDS = {
    "passages": ("passages", "passage_vectors"),
    "recall": ("recall_passages", "recall_vectors"),
}


class Embedder(Protocol):
    """Turns texts into vectors: `name` says which model (stored with the index, so that a
    change of model rebuilds it), `dimension` their length."""

    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit-length float32 row per text."""
        ...


def unit_rows(m: Any) -> np.ndarray:
    """`m` as float32 rows of length 1 (a zero row stays zero)."""
    import numpy as np

    m = np.asarray(m, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return m / norms


_LOCK = threading.Lock()


# -- storage -------------------------------------------------------------------------------


def encode(vectors: np.ndarray) -> list[bytes]:
    """Each vector as its scale (float32) and its components as int8 (`round(x / scale)`,
    the scale being the largest magnitude over 127): a quarter of float32's size, with a
    cosine within about 0.001 of the exact one."""
    import numpy as np

    v = np.asarray(vectors, dtype=np.float32)
    scale = np.abs(v).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(v / scale[:, None]), -127, 127).astype(np.int8)
    return [s.tobytes() + row.tobytes() for s, row in zip(scale.astype(np.float32), q, strict=True)]


def decode(blobs: Sequence[bytes], dimension: int) -> np.ndarray:
    """The unit float32 vectors of `encode`'s blobs, one row each."""
    import numpy as np

    if not blobs:
        return np.zeros((0, dimension), dtype=np.float32)
    raw = np.frombuffer(b"".join(bytes(b) for b in blobs), dtype=np.uint8)
    raw = raw.reshape(len(blobs), 4 + dimension)
    scale = raw[:, :4].copy().view(np.float32)
    comps = raw[:, 4:].copy().view(np.int8).astype(np.float32)
    return unit_rows(comps * scale)


@dataclass(frozen=True)
class VectorHit:
    passage_id: int
    similarity: float


class _Matrix:
    """An owner's vectors in memory: the int8 components (`codes`) with their inverse norms
    (the cosine is `codes @ q / |codes|`: the stored scale cancels), and what a query is
    scanned against. Up to `EXACT_ROWS` rows, the unit float32 matrix (`full`): one exact
    product per query. Beyond, the first `HEAD` components as unit float32 rows (`head`;
    the model is trained so that they stand alone) rank every row cheaply, and the best
    `SHORTLIST` are ranked exactly on their codes: a quarter of the memory read per query.
    Built in chunks, so that no temporary holds every row as float32."""

    __slots__ = ("generation", "ids", "stamps", "codes", "inv_norm", "head", "full")

    def __init__(
        self,
        generation: int,
        ids: np.ndarray,
        stamps: np.ndarray,
        codes: np.ndarray,
        inv_norm: np.ndarray | None = None,
        head: np.ndarray | None = None,
    ):
        import numpy as np

        self.generation = generation
        self.ids = ids
        self.stamps = stamps
        self.codes = codes
        if inv_norm is None or head is None:
            inv_norm, head = _derive(codes)
        self.inv_norm = inv_norm
        self.head = head
        self.full: np.ndarray | None = None
        if len(ids) <= EXACT_ROWS or codes.shape[1] <= HEAD:
            self.full = codes.astype(np.float32) * inv_norm[:, None]

    @classmethod
    def of_rows(cls, generation: int, rows: Sequence[Sequence[Any]], dimension: int) -> _Matrix:
        """From rows (passage_id, stamp, vector blob)."""
        import numpy as np

        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        stamps = np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows))
        return cls(generation, ids, stamps, _codes([r[2] for r in rows], dimension))

    def changed(self, generation: int, keep: np.ndarray, rows: Sequence[Sequence[Any]]) -> _Matrix:
        """This matrix with only the rows `keep` (a mask) and the new `rows` (passage_id,
        stamp, vector blob) after them: what a reload would build, computing only the new
        rows."""
        import numpy as np

        new = _Matrix.of_rows(generation, rows, self.codes.shape[1])
        every = bool(keep.all())

        def kept(a: np.ndarray) -> np.ndarray:
            return a if every else a[keep]

        return _Matrix(
            generation,
            np.concatenate([kept(self.ids), new.ids]),
            np.concatenate([kept(self.stamps), new.stamps]),
            np.concatenate([kept(self.codes), new.codes]),
            np.concatenate([kept(self.inv_norm), new.inv_norm]),
            np.concatenate([kept(self.head), new.head]),
        )

    def similarities(self, q: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
        """Row indexes of the `limit` rows nearest `q` (unit), best first, and their cosines."""
        with _one_blas_thread():
            return self._similarities(q, limit)

    def _similarities(self, q: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        if self.full is not None:
            sims = self.full @ q
            rows = np.arange(len(sims))
        else:
            qh = q[:HEAD] / (np.linalg.norm(q[:HEAD]) or 1.0)
            rough = self.head @ qh
            k = min(len(rough), max(SHORTLIST, 4 * limit))
            rows = np.argpartition(-rough, k - 1)[:k]
            sims = (self.codes[rows].astype(np.float32) @ q) * self.inv_norm[rows]
        k = min(int(limit), len(sims))
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top], kind="stable")]
        return rows[top], sims[top]


def _codes(blobs: Sequence[bytes | memoryview], dimension: int) -> np.ndarray:
    """The int8 components of `encode`'s blobs, one row each (the scales dropped)."""
    import numpy as np

    if not blobs:
        return np.zeros((0, dimension), dtype=np.int8)
    raw = np.frombuffer(b"".join(blobs), dtype=np.uint8).reshape(len(blobs), 4 + dimension)
    return raw[:, 4:].view(np.int8).copy()


def _derive(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The inverse norms of `codes`' rows and their first `HEAD` components as unit
    float32 rows, computed a chunk of rows at a time."""
    import numpy as np

    n = len(codes)
    inv_norm = np.empty(n, dtype=np.float32)
    head = np.empty((n, min(HEAD, codes.shape[1])), dtype=np.float32)
    for i in range(0, n, _CHUNK):
        part = codes[i : i + _CHUNK].astype(np.float32)
        norms = np.linalg.norm(part, axis=1)
        norms[norms == 0] = 1.0
        inv_norm[i : i + _CHUNK] = 1.0 / norms
        head[i : i + _CHUNK] = unit_rows(part[:, :HEAD])
    return inv_norm, head


_BLAS: Any = None


def _one_blas_thread() -> contextlib.AbstractContextManager[Any]:
    """BLAS on one thread for the length of a scan. A matrix-vector product is bound by
    memory, not arithmetic, and OpenBLAS's threads wait for each other by spinning: on a
    machine shared with other work they cost several times the CPU of the product
    (15,000 x 256 float32: 7.9 ms of CPU on two threads, 1.9 ms on one; 300,000 x 64:
    8.8 ms and 5.6 ms) and more in wall time. The limit (threadpoolctl) is process-wide
    while it lasts, and costs about 20 us."""
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


EXACT_ROWS = 20_000
# How many generations back an owner's deletions are listed (`VectorIndex._prune`).
KEPT_DELETIONS = 50_000
# An upsert's end that raises an owner's floor of deletions, never lowers it.
_RAISE_FLOOR = (
    "ON CONFLICT (kind, owner) DO UPDATE SET generation = CASE WHEN excluded.generation >"
    " vector_deletion_floors.generation THEN excluded.generation"
    " ELSE vector_deletion_floors.generation END"
)
HEAD = 64
SHORTLIST = 2_000
_CHUNK = 16_384


_CACHE: OrderedDict[tuple[str, str, str, str], _Matrix] = OrderedDict()
CACHED_OWNERS = 8


_WHERE: dict[int, tuple[Any, str]] = {}


def _where(conn: Any) -> str:
    """Which database a connection reads (the cache's key), asked once per connection."""
    known = _WHERE.get(id(conn))
    if known is not None and known[0] is conn:
        return known[1]
    where = dialect_of(conn).location(conn) or f"conn-{id(conn)}"
    if len(_WHERE) > 64:
        _WHERE.clear()
    _WHERE[id(conn)] = (conn, where)
    return where


class VectorIndex:
    """The vectors of one passage index (`kind`: 'passages' or 'recall') in one database."""

    def __init__(self, conn: Any, kind: str):
        if kind not in KINDS:
            raise ValueError(f"vector index {kind!r}: must be one of {sorted(KINDS)}")
        self.conn = conn
        self.kind = kind
        self.rows, self.table = KINDS[kind]

    def model(self) -> tuple[str, int]:
        """The model name and dimension the stored vectors come from ('' and 0: none yet)."""
        row = self.conn.execute(
            "SELECT model, dimension FROM vector_models WHERE kind = ?", (self.kind,)
        ).fetchone()
        return (row[0], int(row[1])) if row else ("", 0)

    def generation(self, owner: str) -> int | None:
        """The owner's generation of vectors: it moves whenever one of them is stored or
        deleted (None: the owner never had any)."""
        row = self.conn.execute(
            "SELECT generation FROM vector_generations WHERE kind = ? AND owner = ?",
            (self.kind, owner),
        ).fetchone()
        return None if row is None else int(row[0])

    def active(self) -> bool:
        """Whether any model has made this index's vectors: until retrieval by meaning is
        first asked for in a database, its passages get no vectors (see `adopt`)."""
        return bool(self.model()[0])

    def current(self, embedder: Embedder) -> bool:
        """Whether the stored vectors come from this embedder."""
        return self.model() == (embedder.name, embedder.dimension)

    def adopt(self, embedder: Embedder) -> bool:
        """Make `embedder` the index's model: when another made the stored vectors, drop
        them all and put every passage back in `vector_pending`. Returns whether it changed.
        Call inside a write transaction."""
        if self.current(embedder):
            return False
        self.conn.execute(f"DELETE FROM {self.table}")
        # Every vector went: no reader's vectors are kept, so the deletions just listed are
        # dropped and each owner's floor raised to its generation now.
        self.conn.execute("DELETE FROM vector_deletions WHERE kind = ?", (self.kind,))
        self.conn.execute(
            "INSERT INTO vector_deletion_floors (kind, owner, generation)"
            " SELECT kind, owner, generation FROM vector_generations WHERE kind = ?"
            f" {_RAISE_FLOOR}",
            (self.kind,),
        )
        self.conn.execute("DELETE FROM vector_pending WHERE kind = ?", (self.kind,))
        self.conn.execute(
            f"INSERT INTO vector_pending (kind, owner, passage_id) SELECT ?, owner, id"
            f" FROM {self.rows}",
            (self.kind,),
        )
        self.conn.execute(
            "UPDATE vector_models SET model = ?, dimension = ? WHERE kind = ?",
            (embedder.name, embedder.dimension, self.kind),
        )
        return True

    def pending(self, owner: str) -> int:
        """How many of the owner's passages wait for a vector."""
        return self.conn.execute(
            "SELECT COUNT(*) FROM vector_pending WHERE kind = ? AND owner = ?",
            (self.kind, owner),
        ).fetchone()[0]

    def catch_up(self, owner: str, embedder: Embedder, *, batch: int = 4096) -> int:
        """Embed the owner's pending passages in batches and store their vectors; returns
        how many. Call inside a write transaction (the caller's)."""
        self.adopt(embedder)
        done = 0
        while True:
            rows = self.conn.execute(
                f"SELECT p.id, p.text FROM vector_pending v JOIN {self.rows} p ON p.id ="
                " v.passage_id WHERE v.kind = ? AND v.owner = ? ORDER BY v.passage_id LIMIT ?",
                (self.kind, owner, batch),
            ).fetchall()
            if not rows:
                break
            texts = [encoding.text_of(r[1]) for r in rows]  # a page passage's may be packed
            self.put(owner, [r[0] for r in rows], embedder.embed(texts))
            done += len(rows)
            if len(rows) < batch:
                break
        # Pending entries whose passage is gone (none should be: the triggers remove them).
        self.conn.execute(
            f"DELETE FROM vector_pending WHERE kind = ? AND owner = ? AND NOT EXISTS"
            f" (SELECT 1 FROM {self.rows} p WHERE p.id = vector_pending.passage_id)",
            (self.kind, owner),
        )
        return done

    def put(self, owner: str, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Store the vectors of these passages (replacing any) and take them off pending."""
        if not len(ids):
            return
        blobs = encode(vectors)
        keys = [(owner, int(i)) for i in ids]
        self.conn.executemany(f"DELETE FROM {self.table} WHERE owner = ? AND passage_id = ?", keys)
        # Above every stamp the owner's rows have: the generation grows with each row stored.
        stamp = (self.generation(owner) or 0) + 1
        self.conn.executemany(
            f"INSERT INTO {self.table} (owner, passage_id, vector, stamp) VALUES (?, ?, ?, ?)",
            [(owner, int(i), b, stamp) for i, b in zip(ids, blobs, strict=True)],
        )
        self.conn.executemany(
            "DELETE FROM vector_pending WHERE kind = ? AND owner = ? AND passage_id = ?",
            [(self.kind, owner, int(i)) for i in ids],
        )
        self._prune(owner)

    def _prune(self, owner: str) -> None:
        """Keep the owner's list of deletions short: those more than `KEPT_DELETIONS`
        generations behind the current one go, and the floor rises to the newest gone (a
        reader whose vectors are older lists every row). Each deletion moves the generation,
        so no more than `KEPT_DELETIONS` entries are kept. The first time, the floor is the
        current generation: no reader's vectors are older in this database."""
        generation = self.generation(owner)
        if generation is None:
            return
        self.conn.execute(
            "INSERT INTO vector_deletion_floors (kind, owner, generation) VALUES (?, ?, ?)"
            " ON CONFLICT (kind, owner) DO NOTHING",
            (self.kind, owner, generation),
        )
        cut = generation - KEPT_DELETIONS
        old = self.conn.execute(
            "SELECT 1 FROM vector_deletions WHERE kind = ? AND owner = ? AND generation <= ?"
            " LIMIT 1",
            (self.kind, owner, cut),
        ).fetchone()
        if old is None:
            return
        self.conn.execute(
            "DELETE FROM vector_deletions WHERE kind = ? AND owner = ? AND generation <= ?",
            (self.kind, owner, cut),
        )
        self.conn.execute(
            f"INSERT INTO vector_deletion_floors (kind, owner, generation) VALUES (?, ?, ?)"
            f" {_RAISE_FLOOR}",
            (self.kind, owner, cut),
        )

    def _deleted_since(self, owner: str, generation: int) -> np.ndarray | None:
        """The ids of the owner's vectors deleted since `generation` (a rewritten passage's
        too), or None when the list no longer reaches back that far (see `_prune`)."""
        import numpy as np

        floor = self.conn.execute(
            "SELECT generation FROM vector_deletion_floors WHERE kind = ? AND owner = ?",
            (self.kind, owner),
        ).fetchone()
        if floor is None or generation < int(floor[0]):
            return None
        rows = self.conn.execute(
            "SELECT passage_id FROM vector_deletions WHERE kind = ? AND owner = ?"
            " AND generation > ?",
            (self.kind, owner, generation),
        ).fetchall()
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    def vector(self, owner: str, passage_id: int) -> np.ndarray | None:
        """The stored vector of one passage (decoded), or None."""
        row = self.conn.execute(
            f"SELECT vector FROM {self.table} WHERE owner = ? AND passage_id = ?",
            (owner, int(passage_id)),
        ).fetchone()
        return None if row is None else decode([row[0]], self.model()[1])[0]

    def _matrix(self, owner: str, model: str, dimension: int) -> _Matrix | None:
        """The owner's vectors in memory: kept while the owner's generation is unchanged;
        when it has moved, only the rows stored since are read and prepared (and those
        deleted since dropped), unless most rows changed; read whole the first time."""
        generation = self.generation(owner)
        if generation is None:
            return None
        key = (_where(self.conn), self.kind, owner, model)
        with _LOCK:
            cached = _CACHE.get(key)
            if cached is not None and cached.generation == generation:
                _CACHE.move_to_end(key)
                return cached
        m = self._changed(cached, owner, generation) if cached is not None else None
        if m is None:
            rows = self.conn.execute(
                f"SELECT passage_id, stamp, vector FROM {self.table} WHERE owner = ?"
                " ORDER BY passage_id",
                (owner,),
            ).fetchall()
            m = _Matrix.of_rows(generation, rows, dimension)
        if generation == self.generation(owner):  # no change while the rows were read
            with _LOCK:
                _CACHE[key] = m
                _CACHE.move_to_end(key)
                while len(_CACHE) > CACHED_OWNERS:
                    _CACHE.popitem(last=False)
        return m

    def _changed(self, cached: _Matrix, owner: str, generation: int) -> _Matrix | None:
        """`cached` brought up to date: the rows deleted since dropped, those stored since
        read (a row rewritten is both); None when more than half of the rows are new, as a
        whole read is cheaper then. The rows stored since are found by their stamp, those
        deleted since in `vector_deletions` (both by an index); every row is listed only
        when that list does not reach back to `cached` or the count disagrees."""
        import numpy as np

        since = self.conn.execute(
            f"SELECT passage_id, stamp FROM {self.table} WHERE owner = ? AND stamp > ?",
            (owner, cached.generation),
        ).fetchall()
        count = self.conn.execute(
            f"SELECT COUNT(*) FROM {self.table} WHERE owner = ?", (owner,)
        ).fetchone()[0]
        new_ids = np.fromiter((r[0] for r in since), dtype=np.int64, count=len(since))
        gone = self._deleted_since(owner, cached.generation)
        dropped = np.isin(cached.ids, new_ids if gone is None else np.concatenate([new_ids, gone]))
        # (With the deletions known, the count only confirms: a disagreement lists every row.)
        if count == len(cached.ids) - int(dropped.sum()) + len(new_ids):
            keep, fresh_ids = ~dropped, new_ids
        else:
            listed = self.conn.execute(
                f"SELECT passage_id, stamp FROM {self.table} WHERE owner = ?", (owner,)
            ).fetchall()
            ids = np.fromiter((r[0] for r in listed), dtype=np.int64, count=len(listed))
            stamps = np.fromiter((r[1] for r in listed), dtype=np.int64, count=len(listed))
            # Aligned with the cached rows by id: a row is kept when its id is still there
            # with the same stamp; every other row listed now is read.
            order = np.argsort(cached.ids, kind="stable")
            had_ids, had_stamps = cached.ids[order], cached.stamps[order]
            pos = np.minimum(np.searchsorted(had_ids, ids), max(len(had_ids) - 1, 0))
            same = (
                (had_ids[pos] == ids) & (had_stamps[pos] == stamps)
                if len(had_ids)
                else np.zeros(len(ids), dtype=bool)
            )
            keep = np.zeros(len(cached.ids), dtype=bool)
            keep[order[pos[same]]] = True
            fresh_ids = ids[~same]
        if len(fresh_ids) * 2 > count:
            return None
        rows: list[Sequence[Any]] = []
        for start in range(0, len(fresh_ids), 500):
            part = [int(i) for i in fresh_ids[start : start + 500]]
            marks = ", ".join("?" * len(part))
            rows += self.conn.execute(
                f"SELECT passage_id, stamp, vector FROM {self.table} WHERE owner = ?"
                f" AND passage_id IN ({marks}) ORDER BY passage_id",
                [owner, *part],
            ).fetchall()
        return cached.changed(generation, keep, rows)

    def search(self, owner: str, query: np.ndarray, limit: int) -> list[VectorHit]:
        """The owner's passages most similar to the query vector (cosine), best first."""
        ids, sims = self.nearest(owner, query, limit)
        return [VectorHit(i, x) for i, x in zip(ids, sims, strict=True)]

    def nearest(self, owner: str, query: np.ndarray, limit: int) -> tuple[list[int], list[float]]:
        """What `search` finds, as two lists (passage ids, their cosines), best first: no
        object made per passage, for a caller that looks up the passages by id anyway."""
        import numpy as np

        model, dimension = self.model()
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if limit <= 0 or not model or q.shape[0] != dimension:
            return [], []
        m = self._matrix(owner, model, dimension)
        if m is None or not len(m.ids):
            return [], []
        rows, sims = m.similarities(q, limit)
        return m.ids[rows].tolist(), sims.astype(np.float64).tolist()

    def any(self, owner: str) -> bool:
        """Whether the owner has any vector in this index."""
        row = self.conn.execute(
            f"SELECT 1 FROM {self.table} WHERE owner = ? LIMIT 1", (owner,)
        ).fetchone()
        return row is not None

    def count(self, owner: str) -> int:
        return self.conn.execute(
            f"SELECT COUNT(*) FROM {self.table} WHERE owner = ?", (owner,)
        ).fetchone()[0]
