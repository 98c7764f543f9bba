"""Benchmark: secret detectors on a labelled corpus (tests/secrets_corpus.py).

For each detector, over fake secrets of every kind pasted in sentences (built at run time
from a seeded generator) and lines of ordinary prose full of random-looking ids (commit
hashes, sha256 digests, UUIDs, base64 images, long URLs):

- found: secret cases where no 8 characters of the secret in a row survive redaction;
- missed: the others;
- typed: found cases whose marker names the right kind (doctree's detector only);
- false alarms: prose lines where the detector flagged anything.

Three sets: `tuned` (the sentences the patterns were written against), `held out`
(sentences written after, never tuned on) and `fixtures` (every line of the fixture
transcripts, as ordinary conversation: false alarms only). Detectors:

- `doctree`: `doctree.store.secrets.find_secrets`, the hand-written patterns in use;
- `detect-secrets`: Yelp's detect-secrets 1.5 with its default plugins on each line
  (`scan_line`), high-entropy results kept only above the plugin's own limit, as its
  `scan --string` reports them; a span runs from the value it reports to the end of the
  token (some plugins report only a prefix such as `ghp`);
- `detect-secrets (no entropy)`: the same without the two high-entropy plugins;
- `doctree + detect-secrets (no entropy)`: the union.

    .venv/bin/python bench/secret_detection.py   # needs detect-secrets (the dev extra)

(Not `bench/secrets.py`: a script's folder comes first on `sys.path`, so a module named
`secrets` there would stand in for the standard library's in every benchmark.)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the corpus lives with the tests

import benchreport  # noqa: E402

from doctree.store.secrets import find_secrets  # noqa: E402
from tests.secrets_corpus import Case, held_out, prose, secrets, transcript_lines  # noqa: E402

Span = tuple[str, int, int]
Detector = Callable[[str], list[Span]]


def doctree_detector(text: str) -> list[Span]:
    return [(s.kind, s.start, s.end) for s in find_secrets(text)]


def detect_secrets_detector(entropy: bool) -> Detector | None:
    try:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import default_settings
    except ImportError:
        return None

    def detect(text: str) -> list[Span]:
        out: list[Span] = []
        with default_settings():
            classes = get_mapping_from_secret_type_to_class()
            offset = 0
            for line in text.split("\n"):
                for s in scan_line(line):
                    value = s.secret_value
                    if value is None:
                        continue
                    if "High Entropy" in s.type:
                        if not entropy:
                            continue
                        plugin = classes[s.type]()
                        if plugin.calculate_shannon_entropy(value) <= plugin.entropy_limit:
                            continue
                    i = line.find(value)
                    if i < 0:
                        continue
                    j = i + len(value)
                    while j < len(line) and (line[j].isalnum() or line[j] in "_-+/="):
                        j += 1
                    out.append((s.type, offset + i, offset + j))
                offset += len(line) + 1
        return out

    return detect


def redact(text: str, spans: list[Span]) -> str:
    out, pos = [], 0
    for _, a, b in sorted(spans, key=lambda s: s[1]):
        a = max(a, pos)
        if b <= a:
            continue
        out += [text[pos:a], "[x]"]
        pos = b
    return "".join([*out, text[pos:]])


def survives(secret: str, text: str, n: int = 8) -> bool:
    return any(secret[i : i + n] in text for i in range(max(1, len(secret) - n + 1)))


def measure(detect: Detector, cases: list[Case], plain: list[Case]) -> dict[str, int]:
    found = typed = 0
    for c in cases:
        spans = detect(c.text)
        if not survives(c.secret or "", redact(c.text, spans)):
            found += 1
            typed += any(k == c.kind for k, _, _ in spans)
    alarms = sum(1 for c in plain if detect(c.text))
    return {"found": found, "missed": len(cases) - found, "typed": typed, "alarms": alarms}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="the same run (it takes seconds)")
    benchreport.add_json_out(ap)
    args = ap.parse_args()
    results: dict[tuple[str, str], dict[str, int]] = {}
    sets = {
        "tuned": (secrets(), prose()),
        "held out": (held_out(), []),
        "fixtures": ([], transcript_lines(str(ROOT / "tests" / "fixtures" / "transcripts"))),
    }
    detectors: dict[str, Detector | None] = {
        "doctree": doctree_detector,
        "detect-secrets": detect_secrets_detector(entropy=True),
        "detect-secrets (no entropy)": detect_secrets_detector(entropy=False),
    }
    plain_ds = detectors["detect-secrets (no entropy)"]
    if plain_ds is not None:
        detectors["doctree + detect-secrets (no entropy)"] = lambda t: (
            doctree_detector(t) + plain_ds(t)
        )
    print(
        f"{'detector':40} {'set':9} {'secrets':>7} {'found':>6} {'missed':>6} {'typed':>6}"
        f" {'prose':>6} {'alarms':>6} {'ms/KB':>7}"
    )
    print("-" * 101)
    for name, detect in detectors.items():
        if detect is None:
            print(f"{name:40} not installed (pip install -e '.[dev]')")
            continue
        for set_name, (cases, plain) in sets.items():
            size = sum(len(c.text) for c in [*cases, *plain]) / 1024
            t0 = time.perf_counter()
            m = measure(detect, cases, plain)
            results[name, set_name] = {**m, "secrets": len(cases), "prose": len(plain)}
            ms = (time.perf_counter() - t0) * 1000 / max(size, 1e-9)
            typed = str(m["typed"]) if name == "doctree" else "-"
            print(
                f"{name:40} {set_name:9} {len(cases):7} {m['found']:6} {m['missed']:6}"
                f" {typed:>6} {len(plain):6} {m['alarms']:6} {ms:7.2f}"
            )
    print(
        "\nfound: no 8 characters of the secret in a row survive; alarms: prose lines "
        "flagged; typed: the marker names the right kind."
    )
    rows = []
    for set_name in ("tuned", "held out"):
        ours = results["doctree", set_name]
        other = results.get(("detect-secrets", set_name))
        rows.append(
            benchreport.row(
                f"secrets found, {set_name} set ({ours['secrets']})",
                f"{ours['found']} (alarms {ours['alarms']})",
                f"{other['found']} (alarms {other['alarms']}) (detect-secrets)"
                if other
                else "detect-secrets not installed",
            )
        )
    fixtures = results["doctree", "fixtures"]
    rows.append(
        benchreport.row(
            f"false alarms on fixture lines ({fixtures['prose']})", str(fixtures["alarms"])
        )
    )
    benchreport.write(
        args.json_out, "secret_detection", rows, {f"{d}/{s}": m for (d, s), m in results.items()}
    )


if __name__ == "__main__":
    main()
