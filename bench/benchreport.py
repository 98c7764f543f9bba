"""The machine-readable side of every bench: rows of (measure, figure, same-run baseline).

Each bench in bench/ stays runnable alone and prints its own table; with `--json-out PATH`
it also writes what it measured as one JSON object, which `bench/all.py` collects:

    {"bench": "worker", "rows": [{"measure", "value", "baseline", "ratio", "target", "ok"}],
     "figures": {name: number}, "skipped": null | "why"}

`value`, `baseline`, `ratio` and `target` are display strings (with units); `figures` holds
the raw numbers (seconds, counts, ratios) under stable names.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def add_json_out(ap: argparse.ArgumentParser) -> None:
    ap.add_argument(
        "--json-out",
        metavar="PATH",
        type=Path,
        help="also write the figures and table rows as JSON to PATH (read by bench/all.py)",
    )


def row(
    measure: str,
    value: str,
    baseline: str = "",
    ratio: str = "",
    target: str = "",
    ok: bool | None = None,
) -> dict[str, Any]:
    """One line of the table: a figure beside its baseline measured in the same run."""
    return {
        "measure": measure,
        "value": value,
        "baseline": baseline,
        "ratio": ratio,
        "target": target,
        "ok": ok,
    }


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms" if seconds < 0.01 else f"{seconds * 1000:.1f} ms"


def write(
    path: Path | None,
    bench: str,
    rows: list[dict[str, Any]],
    figures: dict[str, Any],
    skipped: str | None = None,
) -> None:
    """Write the report to `path` (nothing when `path` is None)."""
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    report = {"bench": bench, "rows": rows, "figures": figures, "skipped": skipped}
    path.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
