"""LongMemEval evidence recall: how often the context doctree hands a model holds every
evidence turn of a question, within 500 and 2,000 words.

The measure is the one `../shared/data/longmemeval/README.md` defines: a question counts when
all its `has_answer` turns are present in the context; a turn is present when at least half
of its tokens (lowercased `[a-z0-9]+`) are covered by runs of 5 consecutive tokens that also
occur in the context (60 covered tokens suffice for turns over 120 tokens; turns under 5
tokens must appear whole). Every word handed over counts against the budget, headers too.

Each question has its own haystack of about 48 sessions: a fresh store per question, in two
pipelines:

- raw: each session stored as a document (its transcript, under
  `~/memory/archive/sessions/`), then `doctree.memory.recall.blend` (with no hand-over, the
  passages of the documents alone);
- agent: the sessions replayed in date order through the live path (history, sleep, a
  worker tick, the offline memory agent — `doctree replay`), then `blend` over what memory
  holds: the agent's pages first, the verbatim record of the hand-overs after.

Each question is asked on its `question_date` (`blend(now=...)`), so that a time it speaks
of ("two weeks ago") is read as the benchmark means it.

The baseline, in the same run: plain SQLite FTS5 BM25 over turns (porter unicode61,
stopwords removed, OR of the question's words; turns over 120 words cut at sentence ends into
pieces of at most 120 words), rows added in rank order while they fit.

The data (MIT) is read from `../shared/data/longmemeval/` beside the checkout, or
`DOCTREE_LONGMEMEVAL`; it is never copied into the project. Absent, the benchmark says so and
exits 0.

    .venv/bin/python bench/longmemeval.py                     # raw and agent, every question
    .venv/bin/python bench/longmemeval.py --per-type 4 --mode agent
    .venv/bin/python bench/longmemeval.py --mode raw --half tuning    # tune on this half only
    .venv/bin/python bench/longmemeval.py --mode agent --half tuning --stores /tmp/lme \
        --recall-set semantic_weight=0.3   # stores built once, kept; then ranked as they are

The 100 questions are split in two halves (`--half`): within each type, ordered by the sha1
of the question id, alternately the tuning half and the held-out half (10 of each type in
each). Settings are tuned on the tuning half; the held-out half is measured beside it.
`--per-question FILE` writes each question (pipeline, id, type, text) with, per mode and
budget, whether all its evidence was found: the questions one mode wins or loses.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import hashlib
import json
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from doctree.store.documents import Provenance

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import benchreport  # noqa: E402
from locomo import (  # noqa: E402
    RECALL_CHANGES,
    RETRIEVAL,
    parse_recall_settings,
    retrieval_settings,
)

from doctree.memory.meaning import DEFAULT_MODE  # noqa: E402
from doctree.memory.passages import sync_passages  # noqa: E402
from doctree.memory.ranking import DEFAULT_SETTINGS, Settings  # noqa: E402
from doctree.memory.recall import PAGES_SHARE as DEFAULT_SHARE  # noqa: E402
from doctree.memory.recall import blend  # noqa: E402
from doctree.stopwords import ENGLISH as ENGLISH_STOPWORDS  # noqa: E402
from doctree.store.documents import Actor, DocumentsRepository  # noqa: E402

BUDGETS = (500, 2000)
UNDER = "~/memory"
OWNER = "lme"
ACTOR = Actor("system", "longmemeval-bench")
PAGES_SHARE = [DEFAULT_SHARE]  # --pages-share
SETTINGS = [DEFAULT_SETTINGS]  # --set
TOKEN = re.compile(r"[a-z0-9]+")
RUN = 5
LONG_TURN = 120
LONG_COVERED = 60
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def data_file() -> Path:
    env = os.environ.get("DOCTREE_LONGMEMEVAL")
    if env:
        return Path(env) / "longmemeval_s_dev.json.gz"
    for parent in ROOT.parents:  # `shared/` beside the checkout, or beside a folder above it
        base = parent / "shared" / "data" / "longmemeval"
        if base.exists():
            return base / "longmemeval_s_dev.json.gz"
    return (ROOT / ".." / "shared" / "data" / "longmemeval" / "longmemeval_s_dev.json.gz").resolve()


# -- the measure -------------------------------------------------------------------------


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text.lower())


class Present:
    """Which turns a context holds, by the README's rule."""

    def __init__(self, context: str):
        self.toks = tokens(context)
        self.runs = {tuple(self.toks[i : i + RUN]) for i in range(len(self.toks) - RUN + 1)}
        self.flat = " " + " ".join(self.toks) + " "

    def holds(self, turn: str) -> bool:
        t = tokens(turn)
        if len(t) < RUN:
            return (" " + " ".join(t) + " ") in self.flat
        covered = [False] * len(t)
        for i in range(len(t) - RUN + 1):
            if tuple(t[i : i + RUN]) in self.runs:
                for j in range(i, i + RUN):
                    covered[j] = True
        need = LONG_COVERED if len(t) > LONG_TURN else len(t) / 2
        return sum(covered) >= need


# -- the data ----------------------------------------------------------------------------


@dataclass
class Question:
    id: str
    type: str
    text: str
    sessions: list[tuple[str, str, list[dict]]]  # (session id, date, turns), in date order
    evidence: list[str]
    asked: date  # the question's date: the day it is asked, against which "a week ago" is read


def parse_when(value: str) -> datetime:
    """`2023/05/20 (Sat) 02:21` -> 2023-05-20 02:21 UTC."""
    m = re.match(r"(\d{4})/(\d{2})/(\d{2})\D+(\d{1,2}):(\d{2})", value)
    if not m:
        raise ValueError(f"haystack date {value!r}: not YYYY/MM/DD (Day) HH:MM")
    y, mo, d, h, mi = map(int, m.groups())
    return datetime(y, mo, d, h, mi, tzinfo=UTC)


def load(path: Path) -> list[Question]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    out = []
    for r in data:
        sessions = sorted(
            zip(
                r["haystack_session_ids"], r["haystack_dates"], r["haystack_sessions"], strict=True
            ),
            key=lambda s: parse_when(s[1]),
        )
        evidence = [t["content"] for _, _, turns in sessions for t in turns if t.get("has_answer")]
        out.append(
            Question(
                r["question_id"],
                r["question_type"],
                r["question"],
                sessions,
                evidence,
                parse_when(r["question_date"]).date(),
            )
        )
    return out


HALVES = ("tuning", "held-out")


def half(questions: list[Question], which: str) -> list[Question]:
    """The tuning or the held-out half: within each type, by the sha1 of the question id,
    alternately one and the other (in the order of the data otherwise)."""
    if which not in HALVES:
        raise SystemExit(f"--half {which!r}: must be one of {', '.join(HALVES)}")
    by_type: dict[str, list[Question]] = defaultdict(list)
    for q in questions:
        by_type[q.type].append(q)
    keep: set[str] = set()
    for qs in by_type.values():
        ordered = sorted(qs, key=lambda q: hashlib.sha1(q.id.encode()).hexdigest())
        keep.update(q.id for q in ordered[HALVES.index(which) :: 2])
    return [q for q in questions if q.id in keep]


# -- the pipelines -----------------------------------------------------------------------


def messages(date: str, turns: list[dict]) -> list:
    from doctree.sessions.transcripts import Message

    start = parse_when(date)
    return [
        Message(
            t["role"],
            (start + timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            t["content"],
        )
        for i, t in enumerate(turns)
        if t["content"].strip()
    ]


def store_raw(repo: DocumentsRepository, q: Question) -> None:
    from doctree.sessions.transcripts import format_transcript

    with repo.transaction():
        for i, (_, date, turns) in enumerate(q.sessions):
            day = parse_when(date).date().isoformat()
            # Named by position only: the benchmark's session ids say which hold the answer.
            text = format_transcript(messages(date, turns), owner=OWNER, session_id=f"s{i:02d}")
            text = f"---\ndate: {day}\n---\n{text}"
            repo.write(
                OWNER, f"{UNDER}/archive/sessions/s{i:02d}", text, provenance=Provenance(ACTOR)
            )
    sync_passages(repo, OWNER)


def store_agent(repo: DocumentsRepository, q: Question) -> None:
    """Replay every session, in date order, through the live path (`doctree replay`)."""
    from doctree.compose import Settings, replay_pipeline
    from doctree.sessions.transcripts import format_transcript

    with replay_pipeline(Settings(backend="offline"), repo) as replayer:
        for i, (_, date, turns) in enumerate(q.sessions):
            key = f"s{i:02d}"  # by position: the benchmark's ids say which hold the answer
            text = format_transcript(messages(date, turns), owner=OWNER, session_id=key)
            o = replayer.replay(text, source=key)
            if o.error:
                raise RuntimeError(f"{q.id} {key}: {o.error}")


class TurnsBM25:
    """The README's baseline over one question's haystack."""

    def __init__(self, q: Question):
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute(
            "CREATE VIRTUAL TABLE turns USING fts5(text, tokenize = 'porter unicode61')"
        )
        for _, _, turns in q.sessions:
            for t in turns:
                for piece in pieces(t["content"]):
                    self.conn.execute("INSERT INTO turns VALUES (?)", (piece,))

    def context(self, question: str, budget: int) -> str:
        ws = [w for w in re.findall(r"\w+", question.lower()) if w not in ENGLISH_STOPWORDS]
        if not ws:
            return ""
        match = " OR ".join(f'"{w}"' for w in dict.fromkeys(ws))
        got, used = [], 0
        for (text,) in self.conn.execute(
            "SELECT text FROM turns WHERE turns MATCH ? ORDER BY bm25(turns)", (match,)
        ):
            n = len(text.split())
            if used + n <= budget:
                got.append(text)
                used += n
            if used >= budget:
                break
        return "\n".join(got)


def pieces(text: str) -> list[str]:
    if len(text.split()) <= LONG_TURN:
        return [text]
    out, cur = [], []
    for sentence in SENTENCE_END.split(text):
        if cur and len(" ".join(cur).split()) + len(sentence.split()) > LONG_TURN:
            out.append(" ".join(cur))
            cur = []
        cur.append(sentence)
    if cur:
        out.append(" ".join(cur))
    return out


# -- the run -----------------------------------------------------------------------------


def evaluate(
    questions: list[Question],
    mode: str,
    budgets: tuple[int, ...],
    workdir: Path,
    keep: bool = False,
    per_question: list[dict] | None = None,
):
    """hits[system][budget][type] -> list of 0/1; plus latencies and the ceiling. With
    `keep`, each question's store stays in `workdir` and a store already there is ranked
    as it is (not built again). `per_question`: a row per question is appended to it (its
    id, type, text, and per mode and budget whether every evidence turn was found)."""
    hits: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    latencies: list[float] = []
    store_s: list[float] = []
    for n, q in enumerate(questions):
        db = workdir / (f"{mode}-{q.id}.db" if keep else f"{mode}-{n}.db")
        built = keep and db.exists()
        repo = DocumentsRepository(db)
        t0 = time.perf_counter()
        if not built:
            (store_raw if mode == "raw" else store_agent)(repo, q)
        store_s.append(time.perf_counter() - t0)
        baseline = TurnsBM25(q)
        row: dict = {"mode": mode, "id": q.id, "type": q.type, "question": q.text}
        row["found"] = found = defaultdict(dict)
        if per_question is not None:
            per_question.append(row)
        for b in budgets:
            for how in RETRIEVAL[0]:
                page_settings, recall_settings = retrieval_settings(SETTINGS[0], how)
                t0 = time.perf_counter()
                ctx, _ = blend(
                    repo,
                    OWNER,
                    q.text,
                    budget_words=b,
                    under=UNDER,
                    pages_share=PAGES_SHARE[0],
                    page_settings=page_settings,
                    settings=recall_settings,
                    now=q.asked,
                )
                latencies.append((time.perf_counter() - t0) * 1000)
                assert ctx.words <= b, (q.id, ctx.words, b)
                present = Present(ctx.text)
                hits[f"doctree {how}"][b][q.type].append(all(present.holds(e) for e in q.evidence))
                found[how][b] = all(present.holds(e) for e in q.evidence)
            base = Present(baseline.context(q.text, b))
            hits["bm25 over turns"][b][q.type].append(all(base.holds(e) for e in q.evidence))
        repo.close()
        if keep:
            continue
        db.unlink()
        for suffix in ("-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
    return hits, latencies, store_s


def table(title: str, hits: dict, types: list[str], budgets: tuple[int, ...]) -> str:
    cols = ["all", *types]
    lines = [title, f"{'system':<18}{'budget':>7}  " + "  ".join(f"{c[:24]:>24}" for c in cols)]
    for system in (*(f"doctree {how}" for how in RETRIEVAL[0]), "bm25 over turns"):
        for b in budgets:
            by = hits[system][b]
            cells = [[x for t in types for x in by[t]]] + [by[t] for t in types]
            lines.append(
                f"{system:<18}{b:>7}  "
                + "  ".join(
                    f"{statistics.fmean(xs):>16.3f} n={len(xs):<4}" if xs else f"{'-':>24}"
                    for xs in cells
                )
            )
    return "\n".join(lines)


def parse_settings(pairs: list[str]) -> Settings:
    known = {f.name for f in dataclasses.fields(Settings)}
    changes: dict[str, object] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key not in known:
            raise SystemExit(f"--set {pair!r}: unknown setting; known: {', '.join(sorted(known))}")
        kind = type(getattr(DEFAULT_SETTINGS, key))
        changes[key] = (value.lower() in ("1", "true", "yes")) if kind is bool else kind(value)
    return dataclasses.replace(DEFAULT_SETTINGS, **changes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", choices=["raw", "agent", "both"], default="both")
    ap.add_argument("--per-type", type=int, help="at most this many questions of each type")
    ap.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    ap.add_argument(
        "--pages-share",
        type=float,
        default=DEFAULT_SHARE,
        help="share of the budget the pages may take while the record has passages",
    )
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a retrieval setting (tune on development splits only)",
    )
    ap.add_argument(
        "--recall-set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a setting of the recall record's ranking only (tuning half only)",
    )
    ap.add_argument("--quick", action="store_true", help="raw mode, 2 questions of each type")
    ap.add_argument(
        "--half",
        choices=HALVES,
        help="only the tuning half (tune settings on it) or only the held-out half",
    )
    ap.add_argument(
        "--stores",
        type=Path,
        help="keep each question's store in this folder, and rank a store already there "
        "as it is (build once, compare settings on the same stores)",
    )
    benchreport.add_json_out(ap)
    ap.add_argument(
        "--per-question",
        metavar="PATH",
        type=Path,
        help="also write each question and whether each mode found all its evidence, as JSON",
    )
    ap.add_argument(
        "--retrieval",
        default=",".join(RETRIEVAL[0]),
        help="retrieval modes to measure, comma-separated: lexical, semantic, hybrid",
    )
    args = ap.parse_args(argv)
    if args.quick:
        args.mode, args.per_type = "raw", args.per_type or 2
    PAGES_SHARE[0] = args.pages_share
    RETRIEVAL[0] = tuple(m for m in args.retrieval.split(",") if m)
    SETTINGS[0] = parse_settings(args.set)
    RECALL_CHANGES[0] = parse_recall_settings(args.recall_set)
    if SETTINGS[0] != DEFAULT_SETTINGS:
        print(f"settings: {SETTINGS[0]}")
    path = data_file()
    if not path.exists():
        print(f"LongMemEval not found at {path} (set DOCTREE_LONGMEMEVAL); skipping.")
        benchreport.write(args.json_out, "longmemeval", [], {}, skipped=f"no data at {path}")
        return 0
    report: list[dict] = []
    figures: dict[str, float] = {}
    budgets = tuple(int(b) for b in args.budgets.split(","))
    questions = load(path)
    types = sorted({q.type for q in questions})
    if args.half:
        questions = half(questions, args.half)
    if args.per_type:
        seen: dict[str, int] = defaultdict(int)
        picked = []
        for q in questions:
            if seen[q.type] < args.per_type:
                seen[q.type] += 1
                picked.append(q)
        questions = picked
    print(
        f"LongMemEval development split from {path}: {len(questions)} questions"
        + (f" ({args.half} half)" if args.half else "")
    )
    modes = ["raw", "agent"] if args.mode == "both" else [args.mode]
    per_question: list[dict] = []
    if args.stores:
        args.stores.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="doctree-lme-") as tmp:
        for mode in modes:
            t0 = time.perf_counter()
            where = args.stores or Path(tmp)
            hits, lat, store_s = evaluate(
                questions, mode, budgets, where, bool(args.stores), per_question
            )
            print()
            print(
                table(
                    f"[{mode} pipeline] evidence within the word budget "
                    f"({time.perf_counter() - t0:.0f} s)",
                    hits,
                    types,
                    budgets,
                )
            )
            lat.sort()
            print(
                f"blend latency: p50 {statistics.median(lat):.1f} ms, "
                f"p95 {lat[int(0.95 * (len(lat) - 1))]:.1f} ms; storing per question: "
                f"mean {statistics.fmean(store_s):.2f} s"
            )
            for b in budgets:
                systems = [f"doctree {how}" for how in RETRIEVAL[0]]
                mean = {
                    system: statistics.fmean(
                        [x for t in types for x in hits[system][b][t]] or [0.0]
                    )
                    for system in (*systems, "bm25 over turns")
                }
                figures[f"{mode}_{b}_bm25"] = mean["bm25 over turns"]
                for how, system in zip(RETRIEVAL[0], systems, strict=True):
                    # the default mode's figure keeps the name it always had
                    key = "doctree" if how == DEFAULT_MODE else f"doctree_{how}"
                    figures[f"{mode}_{b}_{key}"] = mean[system]
                    report.append(
                        benchreport.row(
                            f"LongMemEval all evidence in context, {mode}, {b} words "
                            f"({len(questions)} q), {how}",
                            f"{mean[system]:.3f}",
                            f"{mean['bm25 over turns']:.3f} (BM25 over turns)",
                            f"{mean[system] - mean['bm25 over turns']:+.3f}",
                        )
                    )
    if args.per_question:
        args.per_question.write_text(json.dumps(per_question, indent=1) + "\n")
    benchreport.write(args.json_out, "longmemeval", report, figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
