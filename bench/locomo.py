"""LoCoMo evidence recall: how much of each question's gold evidence doctree's retrieval puts
inside a context of 500 and 2,000 words.

No model is involved. Each conversation's sessions become markdown transcripts (speakers,
session date and time, and every turn's dia_id, so evidence can be traced) stored through
doctree, one owner per conversation, in two modes:

- raw: each session archived as a document under `~/memory/archive/sessions/`;
- agent: the sessions replayed through the live path (`doctree replay`: history, a worker
  tick that hands each one over, the offline memory agent), which writes whatever pages it
  writes; the hand-over keeps the verbatim record beside them.

Per question, `doctree.memory.recall.blend` assembles the context (the passages of the pages
first, then, in agent mode, the verbatim record of what was handed over); recall is the share of the
question's evidence dia_ids that appear in the context text. In the same run: the chance
level (random turns filling the budget) and plain BM25 over turns (SQLite FTS5, porter
unicode61, stopwords removed, OR of the question's words, one row per turn, turns added in
rank order while they fit). Development and held-out splits are reported separately.

The data (CC BY-NC 4.0) is read from `../shared/data/locomo/` beside the checkout, or
`DOCTREE_LOCOMO`; it is never copied into the project. Absent, the benchmark says so and exits 0.

    .venv/bin/python bench/locomo.py                       # both splits, raw mode
    .venv/bin/python bench/locomo.py --split development --limit 40
    .venv/bin/python bench/locomo.py --set speaker_boost=0.5   # try a setting (dev only!)
    .venv/bin/python bench/locomo.py --backend postgres   # the store on PostgreSQL
    .venv/bin/python bench/locomo.py --mode agent --split development --stores /tmp/locomo \
        --recall-set semantic_weight=0.3   # the agent's stores built once, then reused

`--stores DIR` keeps each store in DIR and ranks a store already there as it is (a run cut
short leaves a partial store: delete it), so that settings are compared on the same stores;
`--recall-set` changes a setting of the recall record's ranking alone, `--set` the pages'
(and the fusion settings of both). `--per-question FILE` writes each question (pipeline,
split, conversation, text, category, evidence ids) with, per mode and budget, its recall
and the evidence ids found: the questions one mode wins or loses against another.

`--backend postgres` stores everything in a PostgreSQL database (a throwaway server started
from the machine's `initdb`/`pg_ctl`, or `--pg-url` naming an existing one, in which a
database is created per run and dropped after), so that its full-text ranking (`ts_rank_cd`)
can be compared with SQLite's (BM25) on the same questions.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
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

from doctree.memory.dates import parse_date  # noqa: E402
from doctree.memory.meaning import DEFAULT_MODE  # noqa: E402
from doctree.memory.passages import sync_passages  # noqa: E402
from doctree.memory.ranking import DEFAULT_SETTINGS, Settings  # noqa: E402
from doctree.memory.recall import DEFAULT_RECALL, RecallSettings, blend  # noqa: E402
from doctree.memory.recall import PAGES_SHARE as DEFAULT_SHARE  # noqa: E402
from doctree.memory.recall import texts as recalled_texts  # noqa: E402
from doctree.stopwords import ENGLISH as ENGLISH_STOPWORDS  # noqa: E402
from doctree.store.documents import Actor, DocumentsRepository  # noqa: E402

SPLITS = {
    "development": ("conv-26", "conv-30", "conv-41", "conv-42", "conv-43"),
    "held-out": ("conv-44", "conv-47", "conv-48", "conv-49", "conv-50"),
}
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
BUDGETS = (500, 2000)
DIA_ID = re.compile(r"\bD\d+:\d+\b")
SESSION_KEY = re.compile(r"session_(\d+)")
UNDER = "~/memory"
ACTOR = Actor("system", "locomo-bench")
PAGES_SHARE = [DEFAULT_SHARE]  # --pages-share


def data_dir() -> Path:
    env = os.environ.get("DOCTREE_LOCOMO")
    if env:
        return Path(env)
    for parent in ROOT.parents:  # `shared/` beside the checkout, or beside a folder above it
        if (parent / "shared" / "data" / "locomo").exists():
            return parent / "shared" / "data" / "locomo"
    return (ROOT / ".." / "shared" / "data" / "locomo").resolve()


# -- the data ----------------------------------------------------------------------------


@dataclass
class Turn:
    dia_id: str
    speaker: str
    text: str

    @property
    def line(self) -> str:
        return f"- **{self.speaker}** [{self.dia_id}]: {self.text}"


@dataclass
class Session:
    number: int
    date_time: str
    turns: list[Turn]


@dataclass
class Question:
    conversation: str
    text: str
    category: int
    evidence: list[str]


@dataclass
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    sessions: list[Session]
    questions: list[Question]

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]


def turn_text(raw: dict) -> str:
    text = raw.get("text", "").strip()
    if raw.get("blip_caption"):
        text += f" (shares a photo: {raw['blip_caption'].strip()})"
    return text


def load(path: Path, audited: bool) -> tuple[list[Conversation], dict[str, int]]:
    """Conversations with their questions of categories 1-4; counts of what was skipped."""
    data = json.loads((path / "locomo10.json").read_text(encoding="utf-8"))
    corrections: dict[tuple[int, str], list[str]] = {}
    if audited and (path / "audit-errors.json").exists():
        for e in json.loads((path / "audit-errors.json").read_text(encoding="utf-8")):
            m = re.fullmatch(r"locomo_(\d+)_qa\d+", e.get("question_id", ""))
            if m and e.get("correct_evidence"):
                corrections[(int(m[1]), e["question"])] = e["correct_evidence"]
    skipped = {
        "no evidence": 0,
        "malformed evidence ids": 0,
        "evidence not in conversation": 0,
        "audit corrections applied": 0,
    }
    out = []
    for ci, c in enumerate(data):
        conv = c["conversation"]
        numbers = sorted(int(m[1]) for k in conv if (m := SESSION_KEY.fullmatch(k)))
        sessions = [
            Session(
                n,
                conv.get(f"session_{n}_date_time", ""),
                [Turn(t["dia_id"], t["speaker"], turn_text(t)) for t in conv[f"session_{n}"]],
            )
            for n in numbers
        ]
        ids = {t.dia_id for s in sessions for t in s.turns}
        questions = []
        for q in c["qa"]:
            if q.get("category") not in CATEGORIES:
                continue
            raw = q.get("evidence") or []
            if (ci, q["question"]) in corrections:
                raw = corrections[(ci, q["question"])]
                skipped["audit corrections applied"] += 1
            if not raw:
                skipped["no evidence"] += 1
                continue
            ev: list[str] = []
            for e in raw:
                found = DIA_ID.findall(e)
                if not found:
                    skipped["malformed evidence ids"] += 1
                for f in found:
                    if f in ids:
                        ev.append(f)
                    else:
                        skipped["evidence not in conversation"] += 1
            if ev:
                questions.append(
                    Question(c["sample_id"], q["question"], q["category"], list(dict.fromkeys(ev)))
                )
            else:
                skipped["no evidence"] += 1
        out.append(
            Conversation(
                c["sample_id"], (conv["speaker_a"], conv["speaker_b"]), sessions, questions
            )
        )
    return out, skipped


def transcript(c: Conversation, s: Session) -> str:
    """One session as a markdown transcript: its date and time, speakers, dia_ids kept."""
    when = parse_date(s.date_time)
    head = [
        "---",
        f"title: Session {s.number} of {c.speakers[0]} and {c.speakers[1]}",
        f"date: {when.isoformat() if when else s.date_time}",
        f"speakers: [{c.speakers[0]}, {c.speakers[1]}]",
        "---",
        f"# Session {s.number} · {s.date_time}",
        "",
    ]
    return "\n".join(head + [t.line for t in s.turns]) + "\n"


# -- storing -----------------------------------------------------------------------------


def store_raw(repo: DocumentsRepository, c: Conversation) -> None:
    with repo.transaction():
        for s in c.sessions:
            repo.write(
                c.sample_id,
                f"{UNDER}/archive/sessions/session-{s.number:02d}",
                transcript(c, s),
                provenance=Provenance(ACTOR),
            )


def agent_available() -> str | None:
    """None if the offline memory agent can be used, else why not."""
    try:
        import doctree.agent.offline  # noqa: F401
        import doctree.interop.tools  # noqa: F401
    except ImportError as e:
        return f"the offline memory agent is not available ({e})"
    return None


def session_start(s: Session) -> datetime:
    """When a session began: `1:56 pm on 8 May, 2023` -> 2023-05-08 13:56 UTC."""
    day = parse_date(s.date_time) or date(2000, 1, 1)
    hour, minute = 12, 0
    if m := re.search(r"(\d{1,2}):(\d{2})\s*([ap])\.?m", s.date_time, re.I):
        hour = int(m[1]) % 12 + (12 if m[3].lower() == "p" else 0)
        minute = int(m[2])
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


def agent_transcript(c: Conversation, s: Session) -> str:
    """One session in doctree's transcript format: every turn a user message (both people's
    words are facts here), a minute apart, starting with its dia_id and speaker."""
    from doctree.sessions.transcripts import Message, format_transcript

    start = session_start(s)
    messages = [
        Message(
            "user",
            (start + timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            f"[{t.dia_id}] {t.speaker}: {t.text}",
        )
        for i, t in enumerate(s.turns)
    ]
    return format_transcript(
        messages, owner=c.sample_id, session_id=f"{c.sample_id}-session-{s.number}"
    )


def store_agent(repo: DocumentsRepository, c: Conversation) -> None:
    """Replay each session, in order, through the live path (`doctree replay`: history,
    sleep, a worker tick that hands it over, the offline memory agent)."""
    from doctree.compose import Settings, replay_pipeline

    with replay_pipeline(Settings(backend="offline"), repo) as replayer:
        for s in c.sessions:
            o = replayer.replay(agent_transcript(c, s), source=f"s{s.number}")
            if o.error:
                raise RuntimeError(f"{c.sample_id} session {s.number}: {o.error}")


class Tracer:
    """Which turns a context holds. Raw transcripts carry every dia_id; pages an agent writes
    carry the dia_id a turn began with, and its words: a turn whose six-word run (or, if
    shorter, whole text) appears in the context counts as present."""

    def __init__(self, c: Conversation):
        self.shingles: dict[tuple[str, ...], set[str]] = defaultdict(set)
        self.short: list[tuple[str, str]] = []
        for t in c.turns:
            ws = _norm(t.text)
            if len(ws) < 6:
                if len(ws) >= 3:
                    self.short.append((" ".join(ws), t.dia_id))
                continue
            for i in range(len(ws) - 5):
                self.shingles[tuple(ws[i : i + 6])].add(t.dia_id)

    def found(self, context: str, by_text: bool) -> set[str]:
        ids = set(DIA_ID.findall(context))
        if by_text:
            ws = _norm(context)
            for i in range(len(ws) - 5):
                ids |= self.shingles.get(tuple(ws[i : i + 6]), set())
            flat = " " + " ".join(ws) + " "
            ids |= {d for text, d in self.short if f" {text} " in flat}
        return ids


def _norm(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


# -- the baselines -----------------------------------------------------------------------


class TurnsBM25:
    """Plain BM25 over turns: one FTS5 row per turn (`speaker: text`, with the photo caption),
    an OR of the question's words less English stopwords; turns added in rank order while
    they fit the budget."""

    def __init__(self, conversations: list[Conversation]):
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute(
            "CREATE VIRTUAL TABLE turns USING fts5(conv UNINDEXED, dia UNINDEXED, text,"
            " tokenize = 'porter unicode61')"
        )
        self.words: dict[tuple[str, str], int] = {}
        for c in conversations:
            for t in c.turns:
                row = f"{t.speaker}: {t.text}"
                self.conn.execute(
                    "INSERT INTO turns VALUES (?, ?, ?)", (c.sample_id, t.dia_id, row)
                )
                self.words[(c.sample_id, t.dia_id)] = len(row.split())

    def context(self, conversation: str, question: str, budget: int) -> set[str]:
        ws = [w for w in re.findall(r"\w+", question.lower()) if w not in ENGLISH_STOPWORDS]
        if not ws:
            return set()
        match = " OR ".join(f'"{w}"' for w in dict.fromkeys(ws))
        got, used = set(), 0
        for (dia,) in self.conn.execute(
            "SELECT dia FROM turns WHERE turns MATCH ? AND conv = ? ORDER BY bm25(turns)",
            (match, conversation),
        ):
            n = self.words[(conversation, dia)]
            if used + n <= budget:
                got.add(dia)
                used += n
            if used >= budget:
                break
        return got


def chance(
    c: Conversation, q: Question, budget: int, rng: random.Random, trials: int = 20
) -> float:
    """Expected recall of random turns filling the budget."""
    turns = c.turns
    total = 0.0
    for _ in range(trials):
        order = rng.sample(turns, len(turns))
        got, used = set(), 0
        for t in order:
            n = len(t.text.split())
            if used + n <= budget:
                got.add(t.dia_id)
                used += n
            if used >= budget:
                break
        total += recall(q.evidence, got)
    return total / trials


def recall(evidence: list[str], found: set[str]) -> float:
    return sum(e in found for e in evidence) / len(evidence)


# -- the run -----------------------------------------------------------------------------


@dataclass
class Results:
    # system -> budget -> category -> list of recalls
    recalls: dict[str, dict[int, dict[int, list[float]]]]
    latencies_ms: list[float]
    words: dict[int, list[int]]
    stored_words: list[int] = dataclasses.field(default_factory=list)
    # one row per question (`--per-question`): its evidence, and per mode and budget the
    # share found and the evidence ids found
    questions: list[dict] = dataclasses.field(default_factory=list)


STORED = "everything stored"
ALL = 0  # the budget key of the ceiling row: no budget


def evaluate(
    conversations: list[Conversation],
    mode: str,
    settings: Settings,
    budgets: tuple[int, ...],
    limit: int | None,
    workdir: Path | str,
) -> Results:
    if isinstance(workdir, str):
        db: Path | str = workdir
    else:
        workdir.mkdir(parents=True, exist_ok=True)
        db = workdir / f"locomo-{mode}.db"
    built = isinstance(db, Path) and db.exists()
    repo = DocumentsRepository(db)
    for c in conversations if not built else ():
        if mode == "raw":
            store_raw(repo, c)
        else:
            store_agent(repo, c)
        sync_passages(repo, c.sample_id)
    baseline = TurnsBM25(conversations)
    tracers = {c.sample_id: Tracer(c) for c in conversations}
    rng = random.Random(7)
    res = Results(
        defaultdict(lambda: defaultdict(lambda: defaultdict(list))), [], defaultdict(list)
    )
    for c in conversations:
        # The ceiling: evidence present anywhere in what was stored, whatever the budget.
        stored = "\n".join(d.body for d in repo.documents(c.sample_id, UNDER))
        stored += "\n" + "\n".join(recalled_texts(repo.conn, c.sample_id))
        res.stored_words.append(len(stored.split()))
        everything = tracers[c.sample_id].found(stored, by_text=mode == "agent")
        for q in c.questions[:limit]:
            res.recalls[STORED][ALL][q.category].append(recall(q.evidence, everything))
        # Questions are asked after the conversation: on the day of its last session.
        asked = session_start(c.sessions[-1]).date()
        for q in c.questions[:limit]:
            row: dict = {
                "conversation": c.sample_id,
                "question": q.text,
                "category": CATEGORIES.get(q.category, str(q.category)),
                "evidence": q.evidence,
                "recall": defaultdict(dict),
                "found": defaultdict(dict),
            }
            res.questions.append(row)
            for b in budgets:
                for how in RETRIEVAL[0]:
                    page_settings, recall_settings = retrieval_settings(settings, how)
                    t0 = time.perf_counter()
                    ctx, _ = blend(
                        repo,
                        c.sample_id,
                        q.text,
                        budget_words=b,
                        under=UNDER,
                        page_settings=page_settings,
                        settings=recall_settings,
                        pages_share=PAGES_SHARE[0],
                        now=asked,
                    )
                    res.latencies_ms.append((time.perf_counter() - t0) * 1000)
                    res.words[b].append(ctx.words)
                    assert ctx.words <= b, (q.text, ctx.words, b)
                    found = tracers[c.sample_id].found(ctx.text, by_text=mode == "agent")
                    res.recalls[f"doctree {how}"][b][q.category].append(recall(q.evidence, found))
                    row["recall"][how][b] = recall(q.evidence, found)
                    row["found"][how][b] = [e for e in q.evidence if e in found]
                res.recalls["bm25 over turns"][b][q.category].append(
                    recall(q.evidence, baseline.context(c.sample_id, q.text, b))
                )
                res.recalls["chance"][b][q.category].append(chance(c, q, b, rng))
    repo.close()
    return res


def table(title: str, res: Results, budgets: tuple[int, ...]) -> str:
    cols = ["1-4", *(f"{k} {v}" for k, v in CATEGORIES.items())]
    lines = [title, f"{'system':<18}{'budget':>7}  " + "  ".join(f"{c:>14}" for c in cols)]
    rows = [(STORED, ALL)] + [
        (system, b)
        for system in (*(f"doctree {how}" for how in RETRIEVAL[0]), "bm25 over turns", "chance")
        for b in budgets
    ]
    for system, b in rows:
        by_cat = res.recalls[system][b]
        everything = [x for k in CATEGORIES for x in by_cat[k]]
        cells = [everything] + [by_cat[k] for k in CATEGORIES]
        label = "all" if b == ALL else str(b)
        lines.append(
            f"{system:<18}{label:>7}  "
            + "  ".join(
                f"{statistics.fmean(xs):>8.3f} n={len(xs):<3}" if xs else f"{'-':>14}"
                for xs in cells
            )
        )
    if res.stored_words:
        lines.append(
            f"stored per conversation: mean {statistics.fmean(res.stored_words):.0f} words"
        )
    lat = sorted(res.latencies_ms)
    if lat:
        lines.append(
            f"search latency per retrieve call: p50 {statistics.median(lat):.1f} ms, "
            f"p95 {lat[int(0.95 * (len(lat) - 1))]:.1f} ms"
        )
    for b in budgets:
        if res.words[b]:
            lines.append(f"context words at budget {b}: mean {statistics.fmean(res.words[b]):.0f}")
    return "\n".join(lines)


def parse_settings(pairs: list[str]) -> Settings:
    fields = {f.name: f.type for f in dataclasses.fields(Settings)}
    changes = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key not in fields:
            raise SystemExit(f"--set {pair!r}: unknown setting; known: {', '.join(fields)}")
        kind = type(getattr(DEFAULT_SETTINGS, key))
        changes[key] = (value.lower() in ("1", "true", "yes")) if kind is bool else kind(value)
    return dataclasses.replace(DEFAULT_SETTINGS, **changes)


# The retrieval modes each question is answered in (--retrieval), each a row of the table.
RETRIEVAL = [("lexical", "semantic", "hybrid")]
# Settings of the pages' ranking that the recall record's ranking shares (by name).
_SHARED = (
    "mode",
    "fusion",
    "rrf_k",
    "semantic_weight",
    "semantic_candidates",
    "semantic_floor",
    "semantic_query",
    "thin_lexical",
    "spread_after",
    "spread_discount",
)


def retrieval_settings(settings: Settings, how: str) -> tuple[Settings, RecallSettings]:
    """The pages' and the recall record's settings for one retrieval mode: `settings` (with
    any --set) in mode `how`; a fusion or spread setting --set changes is carried to the recall
    record's too (each layer keeps its own default otherwise)."""
    pages = dataclasses.replace(settings, mode=how)
    shared = {
        k: getattr(pages, k)
        for k in _SHARED
        if k == "mode" or getattr(pages, k) != getattr(DEFAULT_SETTINGS, k)
    }
    return pages, dataclasses.replace(DEFAULT_RECALL, **{**shared, **RECALL_CHANGES[0]})


RECALL_CHANGES: list[dict] = [{}]  # --recall-set


def parse_recall_settings(pairs: list[str]) -> dict:
    """--recall-set NAME=VALUE pairs as changes to `RecallSettings`."""
    known = {f.name for f in dataclasses.fields(RecallSettings)}
    changes: dict = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key not in known:
            raise SystemExit(f"--recall-set {pair!r}: unknown setting; known: {', '.join(known)}")
        kind = type(getattr(DEFAULT_RECALL, key))
        changes[key] = (value.lower() in ("1", "true", "yes")) if kind is bool else kind(value)
    if changes:
        print(f"recall settings changed: {changes}")
    return changes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=["development", "held-out", "both"], default="both")
    ap.add_argument("--conversations", help="comma-separated sample ids, e.g. conv-26,conv-30")
    ap.add_argument("--limit", type=int, help="at most this many questions per conversation")
    ap.add_argument("--mode", choices=["raw", "agent", "both"], default="both")
    ap.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    ap.add_argument(
        "--audited",
        action="store_true",
        help="use the audit's corrected evidence where it gives one",
    )
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a retrieval setting (tune on development only)",
    )
    ap.add_argument(
        "--recall-set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a setting of the recall record's ranking only (tune on development only)",
    )
    ap.add_argument(
        "--pages-share",
        type=float,
        default=DEFAULT_SHARE,
        help="share of the budget the pages may take while the record has passages (agent mode)",
    )
    ap.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument(
        "--pg-url",
        help="a PostgreSQL server to create the run's databases in (default: a throwaway one)",
    )
    ap.add_argument(
        "--quick", action="store_true", help="raw mode, development split, 20 questions each"
    )
    ap.add_argument(
        "--stores",
        type=Path,
        help="keep the stores in this folder, and rank a store already there as it is "
        "(build once, compare settings on the same stores)",
    )
    benchreport.add_json_out(ap)
    ap.add_argument(
        "--per-question",
        metavar="PATH",
        type=Path,
        help="also write each question's evidence and what each mode found of it, as JSON",
    )
    ap.add_argument(
        "--retrieval",
        default=",".join(RETRIEVAL[0]),
        help="retrieval modes to measure, comma-separated: lexical, semantic, hybrid",
    )
    args = ap.parse_args(argv)
    if args.quick:
        args.mode, args.split, args.limit = "raw", "development", args.limit or 20
    PAGES_SHARE[0] = args.pages_share
    RETRIEVAL[0] = tuple(m for m in args.retrieval.split(",") if m)

    path = data_dir()
    if not (path / "locomo10.json").exists():
        print(f"LoCoMo not found at {path} (set DOCTREE_LOCOMO); skipping the benchmark.")
        benchreport.write(args.json_out, "locomo", [], {}, skipped=f"no data at {path}")
        return 0
    report: list[dict] = []
    figures: dict[str, float] = {}
    per_question: list[dict] = []
    settings = parse_settings(args.set)
    RECALL_CHANGES[0] = parse_recall_settings(args.recall_set)
    budgets = tuple(int(b) for b in args.budgets.split(","))
    conversations, skipped = load(path, args.audited)
    by_id = {c.sample_id: c for c in conversations}
    if args.conversations:
        groups = {"selected": tuple(args.conversations.split(","))}
    elif args.split == "both":
        groups = SPLITS
    else:
        groups = {args.split: SPLITS[args.split]}
    modes = ["raw", "agent"] if args.mode == "both" else [args.mode]
    print(
        f"LoCoMo from {path}; evidence: {'audited' if args.audited else 'as published'}; "
        f"{skipped['no evidence']} questions skipped (no evidence); evidence ids dropped: "
        f"{skipped['malformed evidence ids']} malformed, "
        f"{skipped['evidence not in conversation']} not in the conversation"
        + (f"; {skipped['audit corrections applied']} audit corrections" if args.audited else "")
    )
    if settings != DEFAULT_SETTINGS:
        print(f"settings: {settings}")
    databases = PostgresDatabases(args.pg_url) if args.backend == "postgres" else None
    if databases is not None:
        print(f"store: PostgreSQL ({databases.where})")
    with tempfile.TemporaryDirectory(prefix="doctree-locomo-") as tmp:
        for mode in modes:
            if mode == "agent" and (why := agent_available()):
                print(f"\n[agent mode] not run: {why}")
                continue
            for name, ids in groups.items():
                convs = [by_id[i] for i in ids]
                t0 = time.perf_counter()
                target = databases.new() if databases else (args.stores or Path(tmp)) / name
                res = evaluate(convs, mode, settings, budgets, args.limit, target)
                per_question += [{"mode": mode, "split": name, **r} for r in res.questions]
                n = sum(len(c.questions[: args.limit]) for c in convs)
                print()
                print(
                    table(
                        f"[{mode} mode] {name} ({', '.join(ids)}): {n} questions, "
                        f"evidence recall within the word budget "
                        f"({time.perf_counter() - t0:.0f} s)",
                        res,
                        budgets,
                    )
                )
                for b in budgets:
                    systems = [f"doctree {how}" for how in RETRIEVAL[0]]
                    mean = {
                        system: statistics.fmean(
                            [x for k in CATEGORIES for x in res.recalls[system][b][k]] or [0.0]
                        )
                        for system in (*systems, "bm25 over turns")
                    }
                    figures[f"{mode}_{name}_{b}_bm25"] = mean["bm25 over turns"]
                    for how, system in zip(RETRIEVAL[0], systems, strict=True):
                        # the default mode's figure keeps the name it always had
                        key = "doctree" if how == DEFAULT_MODE else f"doctree_{how}"
                        figures[f"{mode}_{name}_{b}_{key}"] = mean[system]
                        report.append(
                            benchreport.row(
                                f"LoCoMo evidence recall, {mode} {name}, {b} words ({n} q), {how}",
                                f"{mean[system]:.3f}",
                                f"{mean['bm25 over turns']:.3f} (BM25 over turns)",
                                f"{mean[system] - mean['bm25 over turns']:+.3f}",
                            )
                        )
    if databases is not None:
        databases.close()
    if args.per_question:
        args.per_question.write_text(json.dumps(per_question, indent=1) + "\n")
    benchreport.write(args.json_out, "locomo", report, figures)
    return 0


class PostgresDatabases:
    """New databases on a PostgreSQL server: `url` (an existing server; the databases made
    are dropped at the end) or a throwaway server of the machine's own binaries."""

    def __init__(self, url: str | None):
        import psycopg

        self._psycopg = psycopg
        self._made: list[str] = []
        self._server = None
        if url is None:
            from tests.pg_server import Server

            self._server = Server()
            if not self._server.start():
                raise SystemExit(f"PostgreSQL: {self._server.why_not}")
            url = self._server.url
        self.admin_url = url
        self.where = "a throwaway server" if self._server else url.split("@")[-1]

    def new(self) -> str:
        name = f"doctree_bench_{os.getpid()}_{len(self._made)}"
        with self._psycopg.connect(self.admin_url, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        self._made.append(name)
        base, _, query = self.admin_url.partition("?")
        return base.rsplit("/", 1)[0] + "/" + name + (f"?{query}" if query else "")

    def close(self) -> None:
        if self._server is not None:
            self._server.stop()
            return
        with self._psycopg.connect(self.admin_url, autocommit=True) as admin:
            for name in self._made:
                admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    sys.exit(main())
