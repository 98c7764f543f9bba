"""Benchmark the transcript parser and a long replay (not a test).

1. `parse_transcript` of transcripts of 1,500, 3,000 and 6,000 turns, against a baseline
   measured in the same run: markdown-it's own block `parse` of the same text (what any
   text not in the formatter's shape costs; the formatter's shape is read line by line).
   Linear: doubling the turns doubles the time (growth ~2.0x, where a quadratic parser
   shows ~4x).
2. A 6,000-turn replay end to end (`doctree replay --backend offline`, one process: parse,
   append, worker ticks, the offline memory agent): target under 1.5 s, with `python -c pass`
   as the same-run baseline for process start-up. The replay's CPU time (user + system, of
   the replay process alone) is shown beside its wall time: on a busy machine it is the
   steadier figure.

    .venv/bin/python bench/transcripts.py
    .venv/bin/python bench/transcripts.py --json
    .venv/bin/python bench/transcripts.py --before 96f748e   # also the parser as of a commit
    .venv/bin/python bench/transcripts.py --stages   # CPU time of each stage of one replay

Both the replay and `--stages` run with bytecode cached as an installed doctree has it: without
PYTHONDONTWRITEBYTECODE, the `.pyc` files in a temporary PYTHONPYCACHEPREFIX written by a
warm-up run, so the imports are not timed compiling doctree's sources.

`--before REF` loads `doctree/sessions/transcripts.py` as it was at git REF and times its
`parse_transcript` on the same texts in the same run (1,500 and 3,000 turns: the quadratic
parser of 96f748e needs about a minute at 6,000).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchreport

from doctree.sessions.transcripts import format_transcript, markdown_parser, parse_transcript

ROOT = Path(__file__).resolve().parent.parent

TURNS = (1_500, 3_000, 6_000)
KINDS = ("user", "assistant", "tool_call", "tool_result")


def transcript(turns: int) -> str:
    """A session of `turns` records: user and assistant lines, tool calls and results."""
    messages = []
    for i in range(turns):
        kind = KINDS[i % len(KINDS)]
        t = f"2026-11-{1 + i // 2000:02d}T{(i // 60) % 24:02d}:{i % 60:02d}:00Z"
        if kind == "tool_call":
            content = {"id": f"t{i}", "name": "search", "input": {"q": f"project {i}"}}
        elif kind == "tool_result":
            content = {"tool_use_id": f"t{i - 1}", "content": f"result {i}: Apollo is on track"}
        elif kind == "user":
            content = f"Turn {i}: remember that Alice owns the Apollo launch, step {i}."
        else:
            content = f"Noted turn {i}.\n\n- Alice: Apollo\n- step {i}"
        messages.append({"kind": kind, "time": t, "content": content})
    return format_transcript(messages, owner="main", session_id="s-long")


def parser_at(ref: str):
    """`parse_transcript` of doctree/sessions/transcripts.py as it was at git `ref`."""
    source = subprocess.run(
        ["git", "show", f"{ref}:doctree/sessions/transcripts.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    path = Path(tempfile.mkdtemp(prefix="doctree-bench-")) / "transcripts_before.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("transcripts_before", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["transcripts_before"] = module
    spec.loader.exec_module(module)
    return module.parse_transcript


def cached_env(prefix: str) -> dict[str, str]:
    """This process's environment with bytecode cached in `prefix` (see the docstring)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = prefix
    return env


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


#: The stages of a replay timed by `--stages`: (module, function, what it is).
STAGES = (
    ("doctree.worker.replay", "parse_transcript", "parse the transcript"),
    ("doctree.worker.replay", "append_transcript", "append the records"),
    ("doctree.agent.offline.run", "segment", "offline agent: segment"),
    ("doctree.agent.offline.run", "extract", "offline agent: extract (the sentence rules)"),
    ("doctree.agent.offline.run", "file_facts", "offline agent: file"),
    ("doctree.agent.offline.write", "Writer.read_known", "offline agent: read pages"),
    ("doctree.agent.offline.write", "Writer.write", "offline agent: write pages"),
    ("doctree.worker.worker", "catch_up_recall", "recall catch-up"),
)


def stages(text: str) -> dict[str, float]:
    """CPU time of each stage of one replay of `text`, in this process (as `doctree replay
    --backend offline` does it): imports (beyond what this bench has loaded), opening and
    migrating the database, each stage of
    `STAGES` (each function wrapped by a timer where its caller finds it), and the rest
    (worker ticks, runs, summaries)."""
    import importlib

    t0 = time.process_time()
    import doctree.cli.replay  # noqa: F401 - what `doctree replay` imports
    from doctree.agent import runtime
    from doctree.compose import Settings, replay_pipeline
    from doctree.store.db import connect
    from doctree.store.documents import DocumentsRepository

    runtime._offline_agent()  # the offline agent loaded as `doctree replay` loads it
    for module, _, _ in STAGES:
        importlib.import_module(module)
    spent: dict[str, float] = {"imports": time.process_time() - t0}
    for module, name, label in STAGES:
        owner: object = importlib.import_module(module)
        *path, attr = name.split(".")
        for part in path:
            owner = getattr(owner, part)
        inner = getattr(owner, attr)

        def timed(*a, _inner=inner, _label=label, **k):
            start = time.process_time()
            try:
                return _inner(*a, **k)
            finally:
                spent[_label] = spent.get(_label, 0.0) + time.process_time() - start

        setattr(owner, attr, timed)
    with tempfile.TemporaryDirectory(prefix="doctree-bench-") as d:
        t1 = time.process_time()
        repo = DocumentsRepository(connect(os.path.join(d, "stages.db")))
        spent["open and migrate the database"] = time.process_time() - t1
        t2 = time.process_time()
        with replay_pipeline(Settings(backend="offline"), repo) as replayer:
            replayer.replay(text, source="long.md")
        replay = time.process_time() - t2
        repo.conn.close()
    spent["worker ticks, runs, the rest"] = replay - sum(
        v for k, v in spent.items() if k not in ("imports", "open and migrate the database")
    )
    spent["total"] = time.process_time() - t0
    return spent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    ap.add_argument("--repeat", type=int, default=3, help="medians of this many runs")
    ap.add_argument("--before", metavar="REF", help="also time the parser as of git REF")
    ap.add_argument("--quick", action="store_true", help="best of 1 run instead of 3")
    ap.add_argument(
        "--stages",
        action="store_true",
        help="only the CPU time of each stage of one 6,000-turn replay, in this process",
    )
    ap.add_argument("--here", action="store_true", help=argparse.SUPPRESS)  # (--stages' child)
    benchreport.add_json_out(ap)
    args = ap.parse_args(argv)
    if args.quick:
        args.repeat = 1
    if args.stages and not args.here:
        # in a child with bytecode cached, after a warm-up child has written it
        cmd = [sys.executable, __file__, "--stages", "--here", *(["--json"] if args.json else [])]
        with tempfile.TemporaryDirectory(prefix="doctree-bench-pyc-") as cache:
            env = cached_env(cache)
            subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
            return subprocess.run(cmd, env=env, check=False).returncode
    if args.stages:
        spent = stages(transcript(TURNS[-1]))
        total = spent.pop("total")
        print(f"CPU time of a {TURNS[-1]:,}-turn replay, by stage: {total:.2f} s")
        for label, t in sorted(spent.items(), key=lambda kv: -kv[1]):
            print(f"  {label:<45} {t:6.3f} s  {100 * t / total:3.0f}%")
        if args.json:
            print(json.dumps({**spent, "total": total}, indent=2))
        return 0
    figures: dict[str, float] = {}
    md = markdown_parser()
    if args.before:
        old = parser_at(args.before)
        print(f"parse_transcript as of {args.before} (same texts, this run):")
        for n in TURNS[:2]:
            text = transcript(n)
            now = best(lambda text=text: parse_transcript(text), args.repeat)
            then = best(lambda text=text: old(text), 1)
            figures[f"parse_{n}_before_s"] = then
            print(
                f"{n:>6}  before {then:.3f} s  now {now:.3f} s  ({then / now:.0f}x faster)",
                flush=True,
            )
    print(f"{'turns':>6}  {'parse_transcript':>16}  {'markdown-it floor':>17}  {'ratio':>6}")
    previous = None
    for n in TURNS:
        text = transcript(n)
        floor = best(lambda text=text: md.parse(text), args.repeat)
        parse = best(lambda text=text: parse_transcript(text), args.repeat)
        figures[f"parse_{n}_s"] = parse
        figures[f"floor_{n}_s"] = floor
        growth = f"  growth {parse / previous:.1f}x for 2x turns" if previous else ""
        print(
            f"{n:>6}  {parse:>14.3f} s  {floor:>15.3f} s  {parse / floor:>5.1f}x{growth}",
            flush=True,
        )
        previous = parse

    with tempfile.TemporaryDirectory(prefix="doctree-bench-") as d:
        path = Path(d) / "long.md"
        path.write_text(transcript(TURNS[-1]))
        env = cached_env(str(Path(d) / "pyc"))

        cpu: list[float] = []  # the replay process's own CPU time (user + system), per run
        sizes: list[int] = []  # the database's bytes after each replay (file, WAL and all)

        def replay(warm_up: bool = False) -> None:
            db = Path(d) / f"r{time.perf_counter_ns()}.db"
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "doctree",
                    "--db",
                    str(db),
                    "replay",
                    "--backend",
                    "offline",
                    str(path),
                ],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if not warm_up:
                cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            sizes.append(sum(p.stat().st_size for p in Path(d).glob(db.name + "*")))

        replay(warm_up=True)  # writes the bytecode the timed runs read
        total = best(replay, args.repeat)
        replay_cpu = statistics.median(cpu)
        bare = best(
            lambda: subprocess.run([sys.executable, "-c", "pass"], check=True, env=env), args.repeat
        )
    figures.update(
        replay_6000_s=total,
        replay_6000_cpu_s=replay_cpu,
        python_startup_s=bare,
        replay_6000_db_bytes=sizes[-1],
    )
    status = "ok" if total < 1.5 else "MISSED"
    print(
        f"replay of {TURNS[-1]:,} turns (offline, one process): {total:.2f} s "
        f"(CPU {replay_cpu:.2f} s; target < 1.5 s: {status}); python -c pass: {bare:.3f} s; "
        f"database {sizes[-1] / 1e6:.2f} MB"
    )
    if args.json:
        print(json.dumps(figures, indent=2))
    n = TURNS[-1]
    rows = [
        benchreport.row(
            f"parse_transcript, {n:,} turns",
            benchreport.ms(figures[f"parse_{n}_s"]),
            f"{benchreport.ms(figures[f'floor_{n}_s'])} (markdown-it parse)",
            f"{figures[f'parse_{n}_s'] / figures[f'floor_{n}_s']:.1f}x",
        ),
        benchreport.row(
            f"replay of a {n:,}-turn transcript",
            f"{total:.2f} s (CPU {replay_cpu:.2f} s)",
            f"{benchreport.ms(bare)} (python -c pass)",
            f"{total / bare:.0f}x",
            "< 1.5 s",
            total < 1.5,
        ),
    ]
    benchreport.write(args.json_out, "transcripts", rows, figures)
    return 0 if total < 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
