"""Benchmark the transcript parser and a long replay (not a test).

1. `parse_transcript` of transcripts of 1,500, 3,000 and 6,000 turns, against a baseline
   measured in the same run: markdown-it's own block `parse` of the same text (the floor:
   the parser walks its tokens once more). Linear: the ratio to the floor stays flat, and
   doubling the turns doubles the time (growth ~2.0x, where a quadratic parser shows ~4x).
2. A 6,000-turn replay end to end (`doctree replay --model offline`, one process: parse,
   append, worker ticks, the offline memory agent): target under 2 s, with `python -c pass`
   as the same-run baseline for process start-up.

    .venv/bin/python bench/transcripts.py
    .venv/bin/python bench/transcripts.py --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from doctree.sessions.transcripts import _markdown, format_transcript, parse_transcript

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
    return format_transcript(messages, agent="main", session_id="s-long")


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    ap.add_argument("--repeat", type=int, default=3, help="medians of this many runs")
    args = ap.parse_args(argv)
    figures: dict[str, float] = {}
    md = _markdown()
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

        def replay() -> None:
            db = Path(d) / f"r{time.perf_counter_ns()}.db"
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "doctree",
                    "--db",
                    str(db),
                    "replay",
                    "--model",
                    "offline",
                    str(path),
                ],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )

        total = best(replay, args.repeat)
        bare = best(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), args.repeat)
    figures.update(replay_6000_s=total, python_startup_s=bare)
    status = "ok" if total < 2.0 else "MISSED"
    print(
        f"replay of {TURNS[-1]:,} turns (offline, one process): {total:.2f} s "
        f"(target < 2 s: {status}); python -c pass: {bare:.3f} s"
    )
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0 if total < 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
