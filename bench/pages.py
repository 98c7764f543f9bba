"""How well the offline memory agent's pages hold up on conversations it was not written for.

The transcripts are in tests/fixtures/generalisation/<half>/<name>/*.md (sessions replayed in
order on a fresh tree), the expectations in tests/fixtures/generalisation/expected.json.
Per transcript:

- facts: a fact is kept when a current line of a page outside the archive (the pages a
  person reads; session pages are left out) holds every listed string, case-insensitive.
  The page's title and path count as part of each of its lines ("can't eat shellfish" on
  Noor's page is a fact about Noor);
- questions: answered when the passages of the pages alone (`retrieve`, the recall record
  of what was said switched off) within 500 words hold every listed answer string, ranked in
  the configured retrieval mode (`DOCTREE_RETRIEVAL`, hybrid unless set) or `--mode`;
- leaks: forgotten or secret text (`absent`) anywhere in current pages, archive included,
  a page that must not exist (`no_pages`), a superseded value still current
  (`absent_current`: parts a current line must hold, `!x` parts it must not) or a fact
  filed on the wrong page (`absent_on`).

Thirty-two halves: `dev` (what the agent is improved on), `heldout` (looked at once already,
so no longer clean), `aside`, `fresh`, `fresh2`, `fresh3`, `fresh4`, `fresh5`, `fresh6`,
`fresh7`, `fresh8`, `fresh9`, `fresh10`, `fresh11`, `fresh12`, `fresh13`, `fresh14`,
`fresh15`, `fresh16`, `fresh17`, `fresh18`, `fresh19`, `fresh20`, `fresh21`, `fresh22`,
`fresh23`, `fresh24`, `fresh25`, `fresh26`, `fresh27`, `fresh28` and `fresh29` (written
later, each in styles the halves before it do not have, and kept aside: a held-aside half's
misses are listed, and its pages shown, only when it is asked for by name, `--half aside`,
`--half fresh` ... `--half fresh29`, so that improving on the other halves does not peek at
it).

    .venv/bin/python bench/pages.py                  # every half, a table per half
    .venv/bin/python bench/pages.py --half dev --show debugging   # and the pages written
    .venv/bin/python bench/pages.py --half fresh29 -v # a held-aside half, with its misses
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(
    0, str(Path(__file__).resolve().parent)
)  # benchreport, also when imported as bench.*
import benchreport  # noqa: E402

from doctree.agent.offline import OfflineMemoryAgent  # noqa: E402
from doctree.interop.tools import MemoryTools  # noqa: E402
from doctree.memory.meaning import MODES  # noqa: E402
from doctree.memory.ranking import Settings  # noqa: E402
from doctree.memory.retrieval import retrieve  # noqa: E402
from doctree.sessions.transcripts import parse_transcript  # noqa: E402
from doctree.store.documents import DocumentsRepository  # noqa: E402

SET = ROOT / "tests" / "fixtures" / "generalisation"
QUESTION_WORDS = 500
HALVES = (
    "dev",
    "heldout",
    "aside",
    "fresh",
    "fresh2",
    "fresh3",
    "fresh4",
    "fresh5",
    "fresh6",
    "fresh7",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
    "fresh12",
    "fresh13",
    "fresh14",
    "fresh15",
    "fresh16",
    "fresh17",
    "fresh18",
    "fresh19",
    "fresh20",
    "fresh21",
    "fresh22",
    "fresh23",
    "fresh24",
    "fresh25",
    "fresh26",
    "fresh27",
    "fresh28",
    "fresh29",
)
#: Halves kept aside: their misses and pages are shown only when the half is asked for by name.
HELD_ASIDE = HALVES[HALVES.index("aside") :]


@dataclass
class Score:
    """What one transcript's pages kept, answered and leaked."""

    name: str
    kind: str
    half: str
    facts: int = 0
    kept: int = 0
    questions: int = 0
    answered: int = 0
    leaks: list[str] = field(default_factory=list)
    missing: list[list[str]] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)


def replay(repo: DocumentsRepository, folder: Path) -> str:
    """Every session of `folder`, in name order, through the offline agent; the owner. The
    agent reads the sessions before as `doctree replay` gives them to it, from their record."""
    owner = "main"
    said: dict[str, object] = {}
    for path in sorted(folder.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        t = parse_transcript(text, source=str(path))
        owner = t.owner
        OfflineMemoryAgent().run(
            text, MemoryTools(repo, t.owner, session_id=t.session_id), earlier=said.get
        )
        said[t.session_id] = t
    return owner


def current_lines(body: str) -> list[str]:
    """The lines of a page that state what holds now: not under "Past", not marked past."""
    out, past = [], False
    for line in body.split("\n"):
        if line.startswith("#"):
            past = line.lstrip("#").strip().lower().startswith("past")
            continue
        if not past and not line.lower().startswith("- past"):
            out.append(line)
    return out


def _holds(line: str, parts: list[str]) -> bool:
    low = line.lower()
    return all(
        (p[1:].lower() not in low) if p.startswith("!") else (p.lower() in low) for p in parts
    )


def score(
    name: str, spec: dict, repo: DocumentsRepository, owner: str, mode: str | None = None
) -> Score:
    s = Score(name, spec["kind"], spec["half"])
    pages = {d.path: d for d in repo.documents(owner, "~/memory")}
    read_pages = {p: d for p, d in pages.items() if not p.startswith("~/memory/archive")}

    def lines(d) -> list[str]:
        return [f"{d.title} {d.path} {ln}" for ln in d.body.split("\n") if ln.strip()]

    everything = [ln for d in read_pages.values() for ln in lines(d)]
    for parts in spec["facts"]:
        s.facts += 1
        if any(_holds(ln, parts) for ln in everything):
            s.kept += 1
        else:
            s.missing.append(parts)
    for q in spec["questions"]:
        s.questions += 1
        settings = Settings(mode=mode)
        text = retrieve(repo, owner, q["q"], budget_words=QUESTION_WORDS, settings=settings)
        text = text.text.lower()
        if all(a.lower() in text for a in q["answer"]):
            s.answered += 1
        else:
            s.unanswered.append(q["q"])
    for text in spec.get("absent", []):
        s.leaks += [f"{p} holds {text!r}" for p, d in pages.items() if text in d.body]
    s.leaks += [f"page {p} exists" for p in spec.get("no_pages", []) if p in pages]
    for parts in spec.get("absent_current", []):
        for p, d in read_pages.items():
            if any(_holds(f"{d.title} {ln}", parts) for ln in current_lines(d.body)):
                s.leaks.append(f"{p} has a current line with {parts}")
    for f in spec.get("absent_on", []):
        d = pages.get(f["page"])
        if d and any(_holds(ln, f["line"]) for ln in current_lines(d.body)):
            s.leaks.append(f"{f['page']} has a line with {f['line']}")
    return s


def run(half: str, show: set[str], mode: str | None = None) -> list[Score]:
    expected = json.loads((SET / "expected.json").read_text(encoding="utf-8"))
    out = []
    for name, spec in expected.items():
        if half not in ("all", spec["half"]):
            continue
        with tempfile.TemporaryDirectory() as tmp, DocumentsRepository(f"{tmp}/p.db") as repo:
            owner = replay(repo, SET / spec["half"] / name)
            out.append(score(name, spec, repo, owner, mode))
            if name in show and (spec["half"] not in HELD_ASIDE or half == spec["half"]):
                for d in repo.documents(owner, "~/memory"):
                    print(f"== {d.path}\n{d.body}\n")
    return out


def table(title: str, scores: list[Score]) -> str:
    rows = [f"{title}", f"{'kind':66} {'facts kept':>11} {'answered':>9} {'leaks':>6}"]
    for s in scores:
        rows.append(
            f"{s.kind:66} {f'{s.kept}/{s.facts}':>11} {f'{s.answered}/{s.questions}':>9} "
            f"{len(s.leaks):>6}"
        )
    kept, facts = sum(s.kept for s in scores), sum(s.facts for s in scores)
    answered, questions = sum(s.answered for s in scores), sum(s.questions for s in scores)
    leaks = sum(len(s.leaks) for s in scores)
    rows.append(
        f"{'all':66} {f'{kept}/{facts}':>11} {f'{answered}/{questions}':>9} {leaks:>6}"
        f"   ({kept / max(facts, 1):.0%} kept, {answered / max(questions, 1):.0%} answered)"
    )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--half", choices=[*HALVES, "all"], default="all")
    ap.add_argument("--show", action="append", default=[], help="print this transcript's pages")
    ap.add_argument("-v", "--verbose", action="store_true", help="list misses and leaks")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--mode",
        choices=MODES,
        default=None,
        help="retrieval mode of the questions (default: the configured one, DOCTREE_RETRIEVAL)",
    )
    ap.add_argument("--quick", action="store_true", help="the same run (it takes seconds)")
    benchreport.add_json_out(ap)
    args = ap.parse_args(argv)
    scores = run(args.half, set(args.show), args.mode)
    report_rows, figures = [], {}
    for half in HALVES:
        part = [s for s in scores if s.half == half]
        if not part:
            continue
        facts, kept = sum(s.facts for s in part), sum(s.kept for s in part)
        questions, answered = sum(s.questions for s in part), sum(s.answered for s in part)
        leaks = sum(len(s.leaks) for s in part)
        figures.update(
            {
                f"{half}_facts_kept": kept / max(facts, 1),
                f"{half}_answered": answered / max(questions, 1),
                f"{half}_leaks": leaks,
            }
        )
        report_rows += [
            benchreport.row(
                f"{half}: facts kept", f"{kept}/{facts}", target=">= 85%", ok=kept >= 0.85 * facts
            ),
            benchreport.row(
                f"{half}: answered from pages",
                f"{answered}/{questions}",
                target=">= 90%",
                ok=answered >= 0.9 * questions,
            ),
            benchreport.row(
                f"{half}: forgotten/secret/superseded left", str(leaks), target="0", ok=leaks == 0
            ),
        ]
    benchreport.write(args.json_out, "pages", report_rows, figures)
    if args.json:
        print(json.dumps([s.__dict__ for s in scores], indent=2, ensure_ascii=False))
        return 0
    for half in HALVES:
        part = [s for s in scores if s.half == half]
        if part:
            print(table(f"\n{half} half", part))
    if args.verbose:
        for line in misses(scores, args.half):
            print(line)
    return 0


def misses(scores: list[Score], asked: str) -> list[str]:
    """The misses, unanswered questions and leaks to list when `asked` (a half or "all") was
    run: a held-aside half's only when it is the half asked for by name."""
    out = []
    for s in scores:
        if s.half in HELD_ASIDE and asked != s.half:
            continue
        out += [f"{s.name}: missing {m}" for m in s.missing]
        out += [f"{s.name}: unanswered {q!r}" for q in s.unanswered]
        out += [f"{s.name}: leak {leak}" for leak in s.leaks]
    return out


if __name__ == "__main__":
    sys.exit(main())
