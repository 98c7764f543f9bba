"""Benchmark: the memory agent's model traffic on the replay backend, per fixture transcript.

For each fixture transcript (tests/fixtures/transcripts/*.md) and its cassette
(tests/fixtures/cassettes/<name>.json) the transcript goes the live path on a fresh tree
(session, history, sleep, worker tick, memory agent on the replay backend), and the
requests the real SDK sent to the loopback fake are measured:

- round trips (requests) and request bytes per run;
- prefix share: for each request from the second of a run on, the share of its bytes that
  repeat the previous request's prefix byte for byte, in the order the API's prompt cache
  reads a prompt (tools, system, messages). That is what prompt caching can serve. Goal:
  at least 80% for every such request.
- baseline: the same requests in wire order (the JSON as the SDK sends it, with `messages`
  before `system` and `tools`), i.e. what a cache keyed on raw request bytes could serve.
- the cache-read share of input tokens the (simulated) prompt cache reported, and the cost
  of the runs against the same tokens billed uncached.

The cassettes were recorded with `--record` against `ScriptedMemoryModel`, a deterministic
scripted fake of the Messages API (the live API is out of reach where they were made);
they measure the runtime's request layout, not a language model's behaviour.

    .venv/bin/python bench/agent.py            # measure
    .venv/bin/python bench/agent.py --record   # re-record the cassettes (scripted fake)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the scripted model and prompt-cache simulator are test fakes

sys.path.insert(
    0, str(Path(__file__).resolve().parent)
)  # benchreport, also when imported as bench.*
import benchreport  # noqa: E402

TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"
CASSETTES = ROOT / "tests" / "fixtures" / "cassettes"
ALL = "all"  # the cassette of every fixture replayed in order on one tree
GOAL = 0.80


def fixtures() -> list[Path]:
    return sorted(TRANSCRIPTS.glob("*.md"))


def cassette_for(transcript: Path) -> Path:
    return CASSETTES / f"{transcript.stem}.json"


def replay_live(
    db: Path, transcripts: list[Path], runtime_options: dict[str, Any]
) -> tuple[list[Any], Any]:
    """Replay transcripts through the live path into `db`; returns (outcomes, runtime)."""
    from doctree.compose import Settings, replay_pipeline
    from doctree.store.documents import DocumentsRepository

    options = dict(runtime_options)
    settings = Settings(backend=options.pop("backend"))
    repo = DocumentsRepository(db)
    with replay_pipeline(settings, repo, **options) as replayer:
        outcomes = [
            replayer.replay(t.read_text(encoding="utf-8"), source=str(t)) for t in transcripts
        ]
        runtime = replayer.handler.inner
    return outcomes, (repo, runtime)


def record(transcripts: list[Path]) -> None:
    """Record one cassette per fixture (fresh tree each) and one of all fixtures in order.

    Each recording gets its own scripted upstream, so its simulated prompt cache starts cold.
    """
    from tests.fakes.messages_api import SCRIPTED_LABEL, FakeMessagesServer, ScriptedMemoryModel

    jobs = [(cassette_for(t), [t]) for t in transcripts]
    jobs.append((CASSETTES / f"{ALL}.json", transcripts))
    with tempfile.TemporaryDirectory() as d:
        for i, (out, items) in enumerate(jobs):
            with FakeMessagesServer(ScriptedMemoryModel()) as upstream:
                options = {
                    "backend": "replay",
                    "record": True,
                    "upstream": upstream.base_url,
                    "api_key": "scripted-fake",
                    "label": SCRIPTED_LABEL,
                    "cassette": out,
                }
                outcomes, _ = replay_live(Path(d) / f"{i}.db", items, options)
            _check(outcomes)
            print(f"recorded {out.relative_to(ROOT)}", file=sys.stderr)


def _check(outcomes: list[Any]) -> None:
    for o in outcomes:
        if o.error:
            raise SystemExit(f"{o.source}: {o.error}")


def cache_order_bytes(body: dict[str, Any]) -> bytes:
    """The request's prompt as the API's cache reads it, markers left out."""
    from tests.fakes.messages_api import prompt_segments

    return "".join(text for text, _ in prompt_segments(body)).encode("utf-8")


def prefix_share(previous: bytes, current: bytes) -> float:
    """Share of `current` that repeats `previous`'s prefix byte for byte."""
    if not current:
        return 0.0
    return len(os.path.commonprefix([previous, current])) / len(current)


def measure(transcript: Path, workdir: Path) -> dict[str, Any]:
    cassette = cassette_for(transcript)
    if not cassette.is_file():
        raise SystemExit(f"{cassette}: missing; run bench/agent.py --record")
    outcomes, (repo, runtime) = replay_live(
        workdir / f"{transcript.stem}.db", [transcript], {"backend": "replay", "cassette": cassette}
    )
    _check(outcomes)
    requests = runtime.server.requests if runtime.server else []
    from doctree.store.runs import Runs

    runs = [Runs(repo.conn).get(r["run_id"]) for o in outcomes for r in o.runs]
    cache_shares, wire_shares = [], []
    for prev, cur in zip(requests, requests[1:], strict=False):
        if len(cur.body["messages"]) == 1:  # the first request of a new run
            continue
        cache_shares.append(prefix_share(cache_order_bytes(prev.body), cache_order_bytes(cur.body)))
        wire_shares.append(prefix_share(prev.raw, cur.raw))
    usage_in = sum(r.input_tokens + r.cache_read_tokens + r.cache_write_tokens for r in runs)
    price = runtime.definition.pricing
    uncached = sum(
        price.cost(
            r.input_tokens + r.cache_read_tokens + r.cache_write_tokens, r.output_tokens, 0, 0
        )
        for r in runs
    )
    repo.close()
    return {
        "fixture": transcript.stem,
        "runs": len(runs),
        "round_trips": len(requests),
        "request_bytes": sum(len(r.raw) for r in requests),
        "min_share": min(cache_shares, default=1.0),
        "mean_share": sum(cache_shares) / len(cache_shares) if cache_shares else 1.0,
        "min_wire_share": min(wire_shares, default=1.0),
        "mean_wire_share": sum(wire_shares) / len(wire_shares) if wire_shares else 1.0,
        "cache_read_share": (sum(r.cache_read_tokens for r in runs) / usage_in) if usage_in else 0,
        "cost_usd": sum(r.cost_usd for r in runs),
        "uncached_cost_usd": uncached,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true", help="re-record the cassettes first")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="the same run (it takes seconds)")
    benchreport.add_json_out(parser)
    args = parser.parse_args(argv)
    transcripts = fixtures()
    if not transcripts:
        raise SystemExit(f"no fixture transcripts in {TRANSCRIPTS}")
    if args.record:
        record(transcripts)
    with tempfile.TemporaryDirectory() as d:
        rows = [measure(t, Path(d)) for t in transcripts]
    worst = min(r["min_share"] for r in rows)
    mean = sum(r["mean_share"] for r in rows) / len(rows)
    wire = sum(r["mean_wire_share"] for r in rows) / len(rows)
    cost = sum(r["cost_usd"] for r in rows)
    uncached = sum(r["uncached_cost_usd"] for r in rows)
    benchreport.write(
        args.json_out,
        "agent",
        [
            benchreport.row(
                "prompt prefix share, mean (worst)",
                f"{mean:.1%} ({worst:.1%})",
                f"{wire:.1%} (wire order)",
                f"{mean / wire:.2f}x",
                f"worst >= {GOAL:.0%}",
                worst >= GOAL,
            ),
            benchreport.row(
                "model cost of the fixture runs",
                f"${cost:.4f}",
                f"${uncached:.4f} (same tokens uncached)",
                f"{cost / uncached:.2f}x",
            ),
        ],
        {"runs": rows, "worst_share": worst, "mean_share": mean, "wire_share": wire},
    )
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print("memory agent on the replay backend (cassettes recorded against the scripted fake)")
    header = (
        f"{'fixture':<32} {'trips':>5} {'req KB':>8} {'min share':>9} {'mean':>6} "
        f"{'wire min':>8} {'wire mean':>9} {'ratio':>6} {'cache rd':>8} {'cost $':>7}"
    )
    print(header)
    print("-" * len(header))
    for r in rows:
        ratio = r["mean_share"] / r["mean_wire_share"] if r["mean_wire_share"] else float("inf")
        print(
            f"{r['fixture']:<32} {r['round_trips']:>5} {r['request_bytes'] / 1024:>8.1f} "
            f"{r['min_share']:>9.1%} {r['mean_share']:>6.1%} {r['min_wire_share']:>8.1%} "
            f"{r['mean_wire_share']:>9.1%} {ratio:>5.2f}x {r['cache_read_share']:>8.1%} "
            f"{r['cost_usd']:>7.4f}"
        )
    trips = sum(r["round_trips"] for r in rows)
    total_bytes = sum(r["request_bytes"] for r in rows)
    print("-" * len(header))
    print(
        f"cost of all runs ${cost:.4f} with prompt caching, ${uncached:.4f} with the same "
        f"tokens uncached: {uncached / cost:.2f}x (simulated cache, definition prices)"
    )
    print(
        f"total: {trips} round trips, {total_bytes / 1024:.1f} KB of requests; "
        f"prefix share from the 2nd request on: worst {worst:.1%}, mean {mean:.1%} "
        f"(goal >= {GOAL:.0%}: {'met' if worst >= GOAL else 'NOT met'}); "
        f"baseline (wire order) mean {wire:.1%}; ratio {mean / wire:.2f}x"
    )
    return 0 if worst >= GOAL else 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
