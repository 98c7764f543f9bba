"""Which stage of the offline memory agent lost each fact `bench/pages.py` counts as missed,
and what kind of leak each leak is: a first pass for reading the misses by hand.

Each transcript of the halves asked for is replayed as `bench/pages.py` replays it, with the
agent's `trace` hook recording what each stage handed on. A missed fact (its listed strings,
case-insensitive) is then looked for stage by stage, and put down to the first stage it is
not found after:

- `not said`: a part is in no message (a value the agent must work out: a date made
  absolute, a sum);
- `segment: no one sentence`: no sentence segment made holds every part said (the parts are
  in sentences apart, or in a block segment did not read as sentences);
- `extract: said only by the assistant or a tool`: the one sentence holding it is not
  the user's, and nothing found, accepted or restated carried it on;
- `extract: not read`: a user sentence holds it, but extract kept no sentence of it (dropped
  as a request, an aside, a header, superseded within the session, joined away);
- `keep filter: no kind`: extract read it, but it is of no kind worth a line (`worth_a_line`);
- `rewrite: words lost`: kept, but its statement no longer holds every part;
- `date: not resolved as expected`: kept with its words, but not with the absolute date;
- `page: under Past`: written, then superseded; `page: elsewhere`: the statement holds the
  parts but no current line does with its page's title (filed on another page, or merged).

Leaks by their kind: `forget/secret not applied` (`absent`), `not superseded`
(`absent_current`), `wrong page` (`absent_on`, `no_pages`).

(A reading aid, not a measure: it gives no figure beside a baseline, and `bench/all.py`
does not run it.)

    .venv/bin/python bench/census.py                       # every fresh half, counts by stage
    .venv/bin/python bench/census.py --half fresh7 -v      # and each case, with its sentence
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pages  # noqa: E402  (bench/pages.py: the set, the scoring)

from doctree.agent.offline import OfflineMemoryAgent  # noqa: E402
from doctree.interop.tools import MemoryTools  # noqa: E402
from doctree.sessions.transcripts import parse_transcript  # noqa: E402
from doctree.store.documents import DocumentsRepository  # noqa: E402

FRESH = [h for h in pages.HALVES if h.startswith("fresh")]
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class Trace:
    """What each stage handed on, over every session of one transcript."""

    def __init__(self) -> None:
        self.said: list[str] = []  # every message's text
        self.user: list[str] = []  # segment: the user's sentences
        self.other: list[str] = []  # segment: the assistant's and tools' sentences
        self.read: list[str] = []  # extract: each sentence as read (raw and text)
        self.kept: list[tuple[str, str]] = []  # file: (statement, page) of each fact

    def __call__(self, stage: str, out: object) -> None:
        if stage == "segment":
            for turn in out.turns:  # type: ignore[attr-defined]
                (self.user if turn.kind == "user" else self.other).extend(turn.sentences)
        elif stage == "extract":
            self.read += [f"{s.raw} {s.text}" for s in out.sentences]  # type: ignore[attr-defined]
        elif stage == "file":
            filing = out
            for s in filing.facts:  # type: ignore[attr-defined]
                home = filing.home(s)  # type: ignore[attr-defined]
                page = home[1].replace("-", " ") if home else filing.list_page(s) or ""  # type: ignore[attr-defined]
                self.kept.append((s.statement or s.text, page))


def _has(text: str, parts: list[str]) -> bool:
    low = text.lower()
    return all(p.lower() in low for p in parts)


def stage_of(parts: list[str], t: Trace, past: list[str]) -> tuple[str, str]:
    """The stage that lost the fact `parts`, and the text it was last seen in."""
    parts = [p for p in parts if not p.startswith("!")]
    said = " ".join(t.said).lower()
    spoken = [p for p in parts if p.lower() in said]
    if len(spoken) < len(parts) and (
        not spoken or not all(_ISO.match(p) for p in parts if p not in spoken)
    ):
        return "not said", ""
    core, titled = spoken, None  # titled: a part only the page's title could give
    if not any(_has(x, spoken) for x in [*t.user, *t.other, *t.read]):
        for p in spoken:
            rest = [q for q in spoken if q != p]
            if rest and any(_has(x, rest) for x in [*t.user, *t.read]):
                core, titled = rest, p
                break
        else:
            return "segment: no one sentence", ""
    user = next((x for x in t.user if _has(x, core)), None)
    if user is None and not any(_has(x, core) for x in t.read):
        other = next((x for x in t.other if _has(x, core)), None)
        return "extract: said only by the assistant or a tool", other or ""
    near = next((x for x in t.read if _has(x, core)), None)
    if near is None:
        return "extract: not read", user or ""
    kept = [(st, page) for st, page in t.kept if _has(st, core)]
    if not kept:
        return "keep filter: no kind", near
    whole = [(st, page) for st, page in kept if _has(f"{st} {page}", parts)]
    if not whole:
        if titled is not None and all(
            _has(f"{st} {page}", [p for p in parts if p != titled]) for st, page in kept[:1]
        ):
            return "file: not on the page of what it is about", f"{kept[0][0]} [{kept[0][1]}]"
        if any(_ISO.match(p) for p in parts):
            return "date: not resolved as expected", kept[0][0]
        return "rewrite: words lost", kept[0][0]
    if any(_has(x, parts) for x in past):
        return "page: under Past", whole[0][0]
    return "page: elsewhere", f"{whole[0][0]} [{whole[0][1]}]"


def leak_kind(leak: str) -> str:
    if " holds " in leak:
        return "forget/secret not applied"
    if "has a current line with" in leak:
        return "not superseded"
    return "wrong page"


def census(half: str) -> list[tuple[str, str, str, str]]:
    """(transcript, what, stage, text) for each missed fact and each leak of `half`."""
    expected = json.loads((pages.SET / "expected.json").read_text(encoding="utf-8"))
    out = []
    for name, spec in expected.items():
        if spec["half"] != half:
            continue
        trace = Trace()
        folder = pages.SET / half / name
        with tempfile.TemporaryDirectory() as tmp, DocumentsRepository(f"{tmp}/p.db") as repo:
            owner, said = "main", {}
            for path in sorted(folder.glob("*.md")):
                text = path.read_text(encoding="utf-8")
                t = parse_transcript(text, source=str(path))
                owner = t.owner
                trace.said += [
                    m.content if isinstance(m.content, str) else json.dumps(m.content)
                    for m in t.messages
                ]
                OfflineMemoryAgent().run(
                    text,
                    MemoryTools(repo, owner, session_id=t.session_id),
                    earlier=said.get,
                    trace=trace,
                )
                said[t.session_id] = t
            s = pages.score(name, spec, repo, owner)
            past = [
                f"{d.title} {d.path} {ln}"
                for d in repo.documents(owner, "~/memory")
                for ln in d.body.split("\n")
                if ln not in pages.current_lines(d.body)
            ]
        for parts in s.missing:
            stage, text = stage_of(parts, trace, past)
            out.append((name, f"missing {parts}", stage, text))
        for leak in s.leaks:
            out.append((name, f"leak {leak}", leak_kind(leak), ""))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--half", choices=[*FRESH, "all"], default="all")
    ap.add_argument("-v", "--verbose", action="store_true", help="list each case")
    args = ap.parse_args(argv)
    halves = FRESH if args.half == "all" else [args.half]
    total: Counter[str] = Counter()
    for half in halves:
        rows = census(half)
        counts = Counter(stage for _, _, stage, _ in rows)
        total.update(counts)
        print(f"{half}: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
        if args.verbose:
            for name, what, stage, text in rows:
                print(f"  {name}: {what}\n    {stage}: {text[:240]}")
    if len(halves) > 1:
        print("\nall: ")
        for k, v in total.most_common():
            print(f"  {v:4}  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
